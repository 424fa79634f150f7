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
    const charts = new RecentDownloads(app.db, CHARTS_KEPT_MS);
    app.decorate('catalogueSearch', search);
    app.decorate('ideFeed', feed);
    app.decorate('recentDownloads', charts);
    // Plugin tests assemble the app without the performance plugin, and so without the caches' registry.
    if (app.hasDecorator('caches')) registerCaches(app, search, feed, charts);
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

/**
 * The caches of this plugin in the caches' registry (src/admin/caches). The index and the feed are rebuilt
 * in the background from the database while the old ones answer; a flush makes the next answer wait for a
 * full read instead (it never answers from an empty index).
 */
function registerCaches(
  app: FastifyInstance,
  search: CatalogueSearch,
  feed: IdeFeedStore,
  charts: RecentDownloads,
): void {
  app.caches.register({
    name: 'search-index',
    description:
      'The in-memory search index of the catalogue. Bytes: estimated from the indexed text plus about 1 KB an item for the index structures. A flush makes the next search wait for a full read; a reload builds a new index while the old one answers.',
    statistics: () => ({
      ...search.indexStatistics,
      builtAt: search.builtAt,
      hits: search.answeredAtOnce,
      misses: search.waitedForRead,
    }),
    flush: () => search.forget(),
    reload: () => search.reload(),
  });
  app.caches.register({
    name: 'search-stems',
    description:
      'English stems of typed search words, asked of the database once each. Bytes: two a character plus the map entry.',
    statistics: () => ({
      ...search.stemStatistics,
      builtAt: null,
      hits: search.stemHits,
      misses: search.stemMisses,
    }),
    flush: () => search.forgetStems(),
    reload: async () => search.forgetStems(),
  });
  app.caches.register({
    name: 'ide-feed',
    description:
      'The IDE feed (/plugins/list): each visible version’s rendered fragment and the whole answers kept by build range. Entries: versions; bytes: the compressed fragments, elements and answers. Hits: whole answers found kept.',
    statistics: () => {
      const { versions, bytes } = feed.feedStatistics;
      return {
        entries: versions,
        bytes,
        builtAt: feed.builtAt,
        hits: feed.documentHits,
        misses: feed.documentMisses,
      };
    },
    flush: () => feed.forget(),
    reload: () => feed.reload(),
  });
  app.caches.register({
    name: 'download-charts',
    description:
      'The 30-day download chart of listed items, kept a second (one query a page instead of one a search). Bytes: estimated at 48 a day point.',
    statistics: () => ({ ...charts.statistics, builtAt: null, hits: charts.hits, misses: charts.misses }),
    flush: () => charts.clear(),
    reload: async () => charts.clear(),
  });
}
