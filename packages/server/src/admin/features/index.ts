import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { FeatureFlags } from './service';

export { featureRoutes } from './routes';
export { FeatureFlags, vendorsOfUser, type StoredFlag } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Feature flags as the server reads them (src/admin/features): `await app.features.isOn(name,
     * request.viewer)`; an unknown flag is off.
     */
    features: FeatureFlags;
  }
}

export interface FeatureFlagsPluginOptions {
  /** How often usage counters are added to the database, in ms (default 30 s; 0: only on read and close). */
  flushMs?: number;
}

/**
 * Decorates the application with its feature flags, before the routes so every part may read them. Usage
 * counters are flushed every half minute and on close.
 */
export const featureFlags = fp(
  async function featureFlags(app: FastifyInstance, options: FeatureFlagsPluginOptions) {
    const flags = new FeatureFlags(app.db);
    app.decorate('features', flags);
    const flushMs = options.flushMs ?? 30_000;
    const flush = () =>
      flags.flush().catch((error: unknown) => app.log.error({ err: error }, 'flushing flag usage failed'));
    if (flushMs > 0) {
      const timer = setInterval(() => void flush(), flushMs);
      timer.unref();
      app.addHook('onClose', async () => clearInterval(timer));
    }
    app.addHook('onClose', async () => {
      await flush();
    });
  },
  { name: 'feature-flags', fastify: '5.x', dependencies: ['services'] },
);
