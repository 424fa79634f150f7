import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { IdeFeedStore } from '../../ide-feed/feed-store';
import { CatalogueSearch } from '../../search/catalogue-search';
import { CHARTS_KEPT_MS, RecentDownloads } from '../../search/recent-downloads';
import { changesCatalogue } from './caching';

declare module 'fastify' {
  interface FastifyInstance {
    /** Search over the catalogue from this process's in-memory index (src/search/catalogue-search.ts). */
    catalogueSearch: CatalogueSearch;
    /** The IDE feed's pre-rendered fragments, as this process keeps them (src/ide-feed/feed-store.ts). */
    ideFeed: IdeFeedStore;
    /**
     * The 30-day download chart of the items of a list answer (src/search/recent-downloads.ts): one query per
     * page for the items whose chart this process has not read in the last second.
     */
    recentDownloads: RecentDownloads;
    /**
     * Says the catalogue was changed by this process outside a write request (a command, a job): kept
     * answers are forgotten and the next search and feed read the change first.
     */
    catalogueChanged(): void;
  }
}

/**
 * What this process keeps in memory about the catalogue: the search index, the IDE feed and, for a second,
 * the download charts of listed items. A successful write request marks the index and the feed changed, so
 * the next answer reads the change first; what other processes write is read within a second.
 */
export default fp(
  async function catalogueSearch(app: FastifyInstance) {
    const search = new CatalogueSearch(app.db, {
      onError: (error) =>
        app.log.error({ err: error }, 'The search index could not read the latest changes.'),
    });
    const feed = new IdeFeedStore(app.db, app.config.publicUrl, {
      onError: (error) => app.log.error({ err: error }, 'The IDE feed could not read the latest changes.'),
    });
    app.decorate('catalogueSearch', search);
    app.decorate('ideFeed', feed);
    app.decorate('recentDownloads', new RecentDownloads(app.db, CHARTS_KEPT_MS));
    const markChanged = () => {
      search.markChanged();
      feed.markChanged();
    };
    app.decorate('catalogueChanged', () => {
      app.forgetCachedAnswers();
      markChanged();
    });
    app.addHook('onSend', async (request, reply, payload) => {
      if (changesCatalogue(request, reply)) markChanged();
      return payload;
    });
    app.addHook('onClose', async () => {
      await search.close();
      await feed.close();
    });
  },
  { name: 'catalogue-search', fastify: '5.x', dependencies: ['services', 'caching'] },
);
