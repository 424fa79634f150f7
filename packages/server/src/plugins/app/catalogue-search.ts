import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { CatalogueSearch } from '../../search/catalogue-search';
import { changesCatalogue } from './caching';

declare module 'fastify' {
  interface FastifyInstance {
    /** Search over the catalogue from this process's in-memory index (src/search/catalogue-search.ts). */
    catalogueSearch: CatalogueSearch;
    /**
     * Says the catalogue was changed by this process outside a write request (a command, a job): kept
     * answers are forgotten and the next search reads the change first.
     */
    catalogueChanged(): void;
  }
}

/**
 * The search index of this process. A successful write request marks it changed, so the next search reads
 * the change first; what other processes write is read within a second.
 */
export default fp(
  async function catalogueSearch(app: FastifyInstance) {
    const search = new CatalogueSearch(app.db, {
      onError: (error) =>
        app.log.error({ err: error }, 'The search index could not read the latest changes.'),
    });
    app.decorate('catalogueSearch', search);
    app.decorate('catalogueChanged', () => {
      app.forgetCachedAnswers();
      search.markChanged();
    });
    app.addHook('onSend', async (request, reply, payload) => {
      if (changesCatalogue(request, reply)) search.markChanged();
      return payload;
    });
    app.addHook('onClose', async () => search.close());
  },
  { name: 'catalogue-search', fastify: '5.x', dependencies: ['services', 'caching'] },
);
