import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface OpenApiOptions {
  publicUrl: string;
}

/**
 * Collects every route's schema (from @marketplace/api-contract) into an OpenAPI 3 document, served at
 * /api/openapi.json. Must be registered before the routes it describes.
 */
export default fp(
  async function openApi(app: FastifyInstance, options: OpenApiOptions) {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Plugin Marketplace API',
          description:
            'The read API of the marketplace (plugins, search, reviews, users, statistics) and the feeds and ' +
            'downloads that IDEs use. Errors are JSON `{ type, message }`; paginated answers carry `Link` headers.',
          version: '1.0.0',
        },
        servers: [{ url: options.publicUrl }],
        tags: [
          { name: 'plugins', description: 'Items of the catalogue' },
          { name: 'search', description: 'Search, suggestions and facets' },
          { name: 'users', description: 'Developers and reviewers' },
          { name: 'comments', description: 'Reviews' },
          { name: 'statistics', description: 'Download statistics' },
          { name: 'ide', description: 'What IDEs call: feeds, compatible updates, downloads' },
        ],
      },
      hideUntagged: true,
    });

    app.get('/api/openapi.json', { schema: { hide: true }, config: { cache: 'public' } }, async () =>
      app.swagger(),
    );
  },
  { name: 'openapi', fastify: '5.x' },
);
