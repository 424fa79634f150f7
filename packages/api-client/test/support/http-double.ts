/**
 * A loopback HTTP server whose answers each test writes, for behaviour the real marketplace has no route for
 * yet (uploads) or never shows on purpose (broken JSON, refused connections, hanging answers).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export type Handler = (request: RecordedRequest, response: ServerResponse) => void;

export interface HttpDouble {
  origin: string;
  requests: RecordedRequest[];
  /** Sets the answer of a path (without its query). */
  on(path: string, handler: Handler): void;
  close(): Promise<void>;
}

export async function startHttpDouble(): Promise<HttpDouble> {
  const handlers = new Map<string, Handler>();
  const requests: RecordedRequest[] = [];
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request: RecordedRequest = {
        method: incoming.method ?? 'GET',
        url: incoming.url ?? '/',
        headers: incoming.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(request);
      const handler = handlers.get(request.url.split('?')[0] ?? '/');
      if (handler) handler(request, response);
      else
        response
          .writeHead(404, { 'content-type': 'application/json' })
          .end('{"type":"error","message":"No such test route."}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    on: (path, handler) => handlers.set(path, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  response
    .writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers })
    .end(JSON.stringify(body));
}

/**
 * A handler that notes each request in `seen` as "METHOD url body", for a test to compare with what it expected
 * the client to send, and answers `answer` as JSON with `status` (a 204 with no body).
 */
export function recording(seen: string[], answer: unknown, status = 200): Handler {
  return (request, response) => {
    seen.push(`${request.method} ${request.url} ${request.body.toString('utf8')}`);
    if (status === 204) response.writeHead(204).end();
    else json(response, status, answer);
  };
}

/** Reads a multipart body the way a server does (undici's own parser). */
export async function readForm(request: RecordedRequest): Promise<FormData> {
  return new Response(new Uint8Array(request.body), {
    headers: { 'content-type': String(request.headers['content-type']) },
  }).formData();
}
