import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { CacheEventFollower } from '../caches/events';
import { performanceRoutes } from './routes';

/** How often a listening node looks for cache events of other nodes. */
const HEAR_EVERY_MS = 1000;

/**
 * Performance figures, /metrics and the caches' administration. A listening server looks every second for
 * flushes and reloads asked on other nodes and does them too; tests call `app.caches.hearOtherNodes()`.
 */
export const performanceAndCaches = fp(
  async function performanceAndCaches(app: FastifyInstance) {
    const node = app.caches.node;
    const follower = new CacheEventFollower(
      app.db,
      node,
      async (event) => {
        if (event.cacheName !== null && !app.caches.has(event.cacheName)) return;
        const name = event.cacheName ?? undefined;
        if (event.action === 'flush') await app.caches.flush(name);
        else await app.caches.reload(name).done;
      },
      { onError: (error) => app.log.error({ err: error }, 'Cache events of other nodes could not be read.') },
    );
    app.caches.followOtherNodes(() => follower.hear());
    let timer: NodeJS.Timeout | undefined;
    app.addHook('onListen', async () => {
      timer ??= setInterval(() => void follower.hear().catch(() => {}), HEAR_EVERY_MS);
      timer.unref();
    });
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await follower.close();
      await app.caches.settle();
    });
    await app.register(performanceRoutes, { node });
  },
  { name: 'performance-and-caches', fastify: '5.x', dependencies: ['performance', 'services'] },
);
