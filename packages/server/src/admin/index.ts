import type { FastifyInstance } from 'fastify';
import { scheduler } from './scheduler';
import { consentRoutes } from './consent';
import { featureRoutes } from './features';
import { usersAndModeration } from './users';
import { performanceAndCaches } from './performance';

/**
 * The operator's platform: performance and metrics, caches, the scheduler of recurring jobs, feature flags,
 * visitors' consent and the users list. Every part lives in its own folder and registers its routes here;
 * every route but the visitor's own consent is for administrators only.
 */
export default async function admin(app: FastifyInstance): Promise<void> {
  await app.register(featureRoutes);
  await app.register(consentRoutes);
  await app.register(scheduler);
  await app.register(usersAndModeration);
  await app.register(performanceAndCaches);
}
