import type { FastifyInstance } from 'fastify';
import { scheduler } from './scheduler';
import { consentRoutes } from './consent';
import { featureRoutes } from './features';
import { featuredRoutes } from './featured';
import { usersAndModeration } from './users';
import { performanceAndCaches } from './performance';

/**
 * The operator's platform: performance and metrics, caches, the scheduler of recurring jobs, feature flags,
 * visitors' consent, the users list and the featured items per family. Every part lives in its own folder
 * and registers its routes here; every route but the visitor's own consent and the reading of the featured
 * lists is for administrators only.
 */
export default async function admin(app: FastifyInstance): Promise<void> {
  await app.register(featureRoutes);
  await app.register(featuredRoutes);
  await app.register(consentRoutes);
  await app.register(scheduler);
  await app.register(usersAndModeration);
  await app.register(performanceAndCaches);
}
