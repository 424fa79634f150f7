import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody } from '@marketplace/api-contract';
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';

const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('starting')]),
  message: Type.String(),
});

/**
 * GET /api/health, for load balancers and orchestrators: 200 when this node can answer (its database
 * answers and its search index is built), 503 while it starts (the index is being read) and, through the
 * outage handling (src/outage.ts), when its database cannot be reached. Never kept or cached.
 */
const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['operations'],
        summary: 'Whether this node can answer: for load balancers',
        // 503: starting (Health), or the database cannot be reached (the outage handling's ErrorBody).
        response: { 200: Health, 503: Type.Union([Health, ErrorBody]) },
      },
    },
    async (_request, reply) => {
      await app.db.execute(sql`SELECT 1`);
      reply.header('cache-control', 'no-store');
      if (app.catalogueSearch.builtAt === null) {
        return reply.code(503).send({ status: 'starting', message: 'The search index is being built.' });
      }
      return { status: 'ok' as const, message: 'This node answers.' };
    },
  );
};

export default healthRoutes;
