import type { FastifyInstance } from 'fastify';
import media from './api/media';
import plugins from './api/plugins';
import search from './api/search';
import social from './api/social';
import home from './home';
import downloads from './ide/downloads';
import feeds from './ide/feeds';
import health from './health';
import marketplaceHost from './ide/marketplace-host';

/** Every HTTP route of the read API, the IDE feeds and downloads, and the IDE's marketplace client API (statistics are insight's: src/insight). */
export default async function routes(app: FastifyInstance): Promise<void> {
  await app.register(home);
  await app.register(health);
  await app.register(plugins);
  await app.register(media);
  await app.register(search);
  await app.register(social);
  await app.register(feeds);
  await app.register(downloads);
  await app.register(marketplaceHost);
}
