import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { DatabaseConnection } from '../../db/client';
import type { NotificationListener } from '../../db/notifications';

/** Notified by the triggers of migration 0086. */
const CATALOGUE_CHANNEL = 'mp_catalogue';
const CACHE_EVENTS_CHANNEL = 'mp_cache_events';

declare module 'fastify' {
  interface FastifyInstance {
    /** Hears other nodes' changes at once (PostgreSQL only, once listening); undefined otherwise. */
    otherNodes: NotificationListener | undefined;
  }
}

/**
 * What several nodes on one PostgreSQL database need to stay in step: when another node changes the
 * catalogue, this node's search index and IDE feed read the change and its kept answers are forgotten, at
 * once rather than at the next question; a cache flush or reload asked on another node is done here at once
 * rather than at the next second's look. The notification only wakes the node: what changed is read from
 * the followers' transaction-id watermarks, so a notification lost while the connection was down costs
 * time, not a change (the reconnect looks for everything since). The embedded database has one process.
 */
export const otherNodes = fp(
  async function otherNodes(app: FastifyInstance, options: { database: DatabaseConnection }) {
    app.decorate('otherNodes', undefined);
    const listen = options.database.listen;
    if (!listen) return;
    const catchUpCatalogue = () => {
      Promise.all([app.catalogueSearch.catchUp(), app.ideFeed.catchUp()]).then(
        () => app.forgetCachedAnswers(),
        (error: unknown) => app.log.error({ err: error }, 'A change made on another node could not be read.'),
      );
    };
    const hearCacheEvents = () => {
      // Plugin tests assemble the app without the caches' registry.
      if (!app.hasDecorator('caches')) return;
      app.caches.hearOtherNodes().catch((error: unknown) => {
        app.log.error({ err: error }, 'Cache events of other nodes could not be read.');
      });
    };
    app.addHook('onListen', async () => {
      app.otherNodes ??= listen({
        channels: { [CATALOGUE_CHANNEL]: catchUpCatalogue, [CACHE_EVENTS_CHANNEL]: hearCacheEvents },
        onReconnect: () => {
          app.log.info('Listening to other nodes again; reading what they changed meanwhile.');
          catchUpCatalogue();
          hearCacheEvents();
        },
        onError: (error) => app.log.warn({ err: error }, 'The connection that hears other nodes was lost.'),
      });
    });
    app.addHook('onClose', async () => {
      await app.otherNodes?.close();
    });
  },
  {
    name: 'other-nodes',
    fastify: '5.x',
    dependencies: ['catalogue-search'],
  },
);
