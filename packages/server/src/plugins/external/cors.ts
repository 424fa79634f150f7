import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

const EXPOSED_HEADERS = ['Link', 'X-Total-Count', 'ETag', 'Content-Disposition'];

/** What every cross-origin read carries; the answer cache's raw fast path sends the same. */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': EXPOSED_HEADERS.join(', '),
};

/**
 * Any site may read the public API: widgets and install buttons fetch it from other sites' pages. No
 * credentials are allowed cross-origin (bearer tokens are sent explicitly, never by the browser on its own).
 */
export default fp(
  async function crossOriginReads(app: FastifyInstance) {
    await app.register(cors, {
      origin: '*',
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
      allowedHeaders: ['Accept', 'Authorization', 'Content-Type', 'If-None-Match'],
      exposedHeaders: EXPOSED_HEADERS,
      credentials: false,
      maxAge: 600,
    });
  },
  { name: 'cors', fastify: '5.x' },
);
