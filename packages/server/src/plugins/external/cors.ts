import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

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
      exposedHeaders: ['Link', 'X-Total-Count', 'ETag', 'Content-Disposition'],
      credentials: false,
      maxAge: 600,
    });
  },
  { name: 'cors', fastify: '5.x' },
);
