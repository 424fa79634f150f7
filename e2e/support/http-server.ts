import { readFile } from 'node:fs/promises';
import { createServer, request as httpRequest } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
};

export interface RunningHttpServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  close(): Promise<void>;
}

/** A folder served under a URL prefix; `transformHtml` may rewrite HTML pages on the way out. */
export interface StaticMount {
  prefix: string;
  dir: string;
  transformHtml?: (html: string) => string;
}

export interface TestHttpServerOptions {
  mounts: StaticMount[];
  /** Requests that match no mount go here (for example the marketplace server), headers and body as they are. */
  proxyTo?: string;
  /** Extra routes answered before the mounts (test doubles). */
  routes?: Record<string, (request: IncomingMessage, response: ServerResponse) => void>;
}

async function serveFile(mount: StaticMount, path: string, response: ServerResponse): Promise<boolean> {
  let file: string;
  let body: Buffer | string;
  try {
    const relative = decodeURIComponent(path.slice(mount.prefix.length));
    file = resolve(
      mount.dir,
      relative === '' || relative.endsWith('/') ? join(relative, 'index.html') : relative,
    );
    // Nothing outside the mounted folder, whatever the URL says.
    if (!file.startsWith(mount.dir.endsWith(sep) ? mount.dir : mount.dir + sep)) return false;
    body = await readFile(file);
  } catch {
    return false;
  }
  const type = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
  if (type.startsWith('text/html') && mount.transformHtml) body = mount.transformHtml(body.toString('utf8'));
  response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
  response.end(body);
  return true;
}

function proxy(target: string, request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? '/', target);
  const upstream = httpRequest(
    url,
    { method: request.method, headers: { ...request.headers, host: url.host } },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    },
  );
  upstream.on('error', (error) => {
    response.writeHead(502, { 'content-type': 'text/plain' });
    response.end(`Upstream ${target} failed: ${error.message}`);
  });
  request.pipe(upstream);
}

/** A loopback HTTP server for the browser tests: static folders, test-double routes and a pass-through. */
export async function startTestHttpServer(options: TestHttpServerOptions): Promise<RunningHttpServer> {
  const server: Server = createServer((request, response) => {
    void (async () => {
      const path = new URL(request.url ?? '/', 'http://localhost').pathname;
      const route = options.routes?.[path];
      if (route) return route(request, response);
      for (const mount of options.mounts) {
        if (path.startsWith(mount.prefix) && (await serveFile(mount, path, response))) return;
      }
      if (options.proxyTo) return proxy(options.proxyTo, request, response);
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end(`Not found: ${path}`);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
