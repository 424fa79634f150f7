import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { CacheRegistry } from '../../admin/caches/registry';
import type { PerformanceMetrics } from '../../admin/performance/metrics';
import type { DatabaseConnection } from '../../db/client';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's request, latency and query figures (src/admin/performance). */
    performanceMetrics: PerformanceMetrics;
    /** Every cache this process keeps, to list, empty and rebuild (src/admin/caches). */
    caches: CacheRegistry;
  }
}

export interface PerformanceOptions {
  /** Made before the application: the HTTP server's raw fast path records into it too (app.ts). */
  metrics: PerformanceMetrics;
  database: DatabaseConnection;
}

/**
 * Measures every request Fastify answers (one synchronous onResponse hook: the route's pattern, status and
 * the time Fastify measured) and every database query, while collection is on; keeps the registry of caches
 * that the other plugins register theirs in.
 */
export default fp(
  async function performance(app: FastifyInstance, options: PerformanceOptions) {
    const { metrics, database } = options;
    app.decorate('performanceMetrics', metrics);
    app.decorate(
      'caches',
      new CacheRegistry((name, error) =>
        app.log.error({ err: error, cache: name }, 'A cache could not be reloaded; the old one answers.'),
      ),
    );
    app.addHook('onResponse', (request, reply, done) => {
      if (metrics.enabled) {
        metrics.recordRequest(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime);
      }
      done();
    });
    const usage = database.usage;
    if (usage) {
      const observe = (text: string, milliseconds: number, failed: boolean) => {
        if (metrics.enabled) metrics.recordQuery(text, milliseconds, failed);
      };
      usage.observer = metrics.enabled ? observe : undefined;
      // Off, queries are not even timed.
      metrics.onToggle = (enabled) => {
        usage.observer = enabled ? observe : undefined;
      };
      // Another application on the same connection (tests) may have set its own meanwhile: only ours goes.
      app.addHook('onClose', async () => {
        if (usage.observer === observe) usage.observer = undefined;
      });
    }
  },
  { name: 'performance', fastify: '5.x' },
);
