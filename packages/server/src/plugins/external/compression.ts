import { constants as zlibConstants } from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Compresses answers of 1 KB and more (brotli or gzip, as the client accepts). Brotli runs at quality 4:
 * the default 11 costs more time per dynamic answer than it saves on the wire.
 */
export default fp(
  async function compression(app: FastifyInstance) {
    await app.register(compress, {
      global: true,
      threshold: 1024,
      encodings: ['br', 'gzip', 'deflate'],
      brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
      zlibOptions: { level: 6 },
    });
  },
  { name: 'compression', fastify: '5.x', dependencies: ['caching'] },
);
