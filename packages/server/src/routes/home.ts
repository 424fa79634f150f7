import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { escapeXml } from './ide/xml';

const ENTRY_POINTS: readonly [path: string, what: string][] = [
  ['/api/openapi.json', 'The OpenAPI document of every call below'],
  ['/api/searchPlugins?search=git&orderBy=relevance', 'Search items'],
  ['/api/search/aggregation/products', 'How many items run on each IDE'],
  ['/api/searchSuggest?term=ko', 'Suggestions while typing'],
  ['/api/plugins/1?fullInfo=true', 'One item, with developers and bundles'],
  ['/api/comments?pluginId=1', 'Reviews of an item'],
  [
    '/statistic/downloads-count/day?plugin=1&startDate=2026-11-01&endDate=2026-11-21&fill=full',
    'Downloads per day',
  ],
  ['/plugins/list?build=IU-252.23892.409', 'The plugin repository feed an IDE reads'],
  ['/updatePlugins.xml?build=IU-252.23892.409', 'The simple custom-repository feed'],
];

/** A plain page at / listing where to start, until the site is served here. */
const homeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Not kept in the shared answer cache: browsers asking for / get the site (site-hosting), other clients
  // this overview, and a kept copy would be replayed to both alike.
  app.get('/', async (_request, reply) => {
    const items = ENTRY_POINTS.map(
      ([path, what]) => `<li><a href="${escapeXml(path)}">${escapeXml(path)}</a> — ${escapeXml(what)}</li>`,
    ).join('\n      ');
    const ideUrl = escapeXml(`${app.config.publicUrl}/plugins/list`);
    return reply.type('text/html; charset=utf-8').send(`<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Plugin Marketplace API</title></head>
  <body style="font-family: system-ui, sans-serif; max-width: 52rem; margin: 2rem auto; line-height: 1.5">
    <h1>Plugin Marketplace</h1>
    <p>This server answers the marketplace API. Entry points:</p>
    <ul>
      ${items}
    </ul>
    <p>To use it as a plugin repository in an IDE, add <code>${ideUrl}</code> under
      Settings | Plugins | Manage Plugin Repositories.</p>
  </body>
</html>
`);
  });
};

export default homeRoutes;
