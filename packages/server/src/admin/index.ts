import type { FastifyInstance } from 'fastify';

/**
 * The operator's platform: performance and metrics, caches, the scheduler of recurring jobs, feature flags,
 * visitors' consent and the users list. Every part lives in its own folder and registers its routes here;
 * every route but the visitor's own consent is for administrators only.
 */
export default async function admin(app: FastifyInstance): Promise<void> {
  // Each part of the platform registers below, one line each.
  void app;
}
