import { createServer } from 'node:http';

/**
 * The static baseline: a plain node:http server answering fixed bytes with the headers a static file server
 * would send. Started as its own process (like the API server) so it does not share a CPU with the load.
 * Input: a JSON line on stdin { bodies: { [path]: { body: base64, contentType, contentEncoding? } } }; prints
 * its port.
 */
const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
const input = JSON.parse(Buffer.concat(chunks).toString()) as {
  bodies: Record<string, { body: string; contentType: string; contentEncoding?: string }>;
};
const answers = new Map(
  Object.entries(input.bodies).map(([path, answer]) => [
    path,
    {
      body: Buffer.from(answer.body, 'base64'),
      contentType: answer.contentType,
      contentEncoding: answer.contentEncoding,
    },
  ]),
);
const server = createServer((request, response) => {
  const answer = answers.get(request.url ?? '');
  if (!answer) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, {
    'content-type': answer.contentType,
    'content-length': answer.body.length,
    'cache-control': 'public, max-age=60',
    etag: '"static"',
    // Compressed files are served as they are, as a static server sends a pre-compressed .gz.
    ...(answer.contentEncoding ? { 'content-encoding': answer.contentEncoding } : {}),
  });
  response.end(answer.body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 }));
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
