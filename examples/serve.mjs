// Serves the example pages at http://localhost:8081 (PORT to change). No dependencies, read-only, loopback only.
// MARKETPLACE=http://host:port names another marketplace than http://localhost:8080: a page asked for without
// `?marketplace=` is redirected to its address with it (the pages read it there, see marketplace.js).
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));
const port = Number(process.env.PORT ?? 8081);
const marketplace = process.env.MARKETPLACE ? new URL(process.env.MARKETPLACE).origin : undefined;
const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css',
};

createServer(async (request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const path = decodeURIComponent(url.pathname);
  const isPage = path.endsWith('/') || path.endsWith('.html');
  if (marketplace && isPage && !url.searchParams.has('marketplace')) {
    url.searchParams.set('marketplace', marketplace);
    response.writeHead(302, { location: `${url.pathname}${url.search}` }).end();
    return;
  }
  let file = resolve(root, `.${path}`);
  if (path.endsWith('/')) file = join(file, 'index.html');
  if (!file.startsWith(root) || file.includes(`${sep}node_modules${sep}`)) {
    response.writeHead(404).end('Not found');
    return;
  }
  try {
    const body = await readFile(file);
    response.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
    response.end(body);
  } catch {
    response.writeHead(404, { 'content-type': 'text/plain' }).end(`Not found: ${path}`);
  }
}).listen(port, '127.0.0.1', () => {
  console.log(`Examples at http://localhost:${port}/ : script-tag/, iframe/, lms-course/`);
  console.log(
    `Marketplace: ${marketplace ?? 'http://localhost:8080'} (MARKETPLACE or ?marketplace= to change)`,
  );
});
