import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ErrorBody,
  FeaturedFamilyParams,
  FeaturedItemsSchema,
  FeaturedProductParams,
  SetFeaturedItemsBody,
  SetFeaturedPluginsBody,
} from '@marketplace/api-contract';
import { signedInViewer } from '../../auth/authorization';
import { loadFeatured, setFeaturedPlugins } from '../../routes/api/social-queries';
import { viewerOf } from '../../search/sql';
import { loadFeaturedItems, setFeaturedItems } from './service';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody } as const;

/**
 * `/api/featured/{family}` (anyone) and `/api/admin/featured/{family}` (administrators), and the per-IDE-product
 * staff picks' `/api/admin/featured-plugins/{product}` (administrators; read through
 * `/api/featured-plugins/product`): see admin-featured.ts.
 */
export const featuredRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/featured/:family',
    {
      config: { cache: 'public' },
      schema: {
        tags: ['plugins'],
        summary: "A product family's featured items, in the administrators' order (the home page's picks)",
        params: FeaturedFamilyParams,
        response: { 200: FeaturedItemsSchema, 400: ErrorBody },
      },
    },
    async (request) =>
      app.recentDownloads.attach(await loadFeaturedItems(app.db, request.params.family, viewerOf(request))),
  );

  app.put(
    '/api/admin/featured/:family',
    {
      config: { auth: { rule: 'admin' } },
      schema: {
        tags: ['admin'],
        summary: "Replace a product family's featured items, in order (administrators)",
        params: FeaturedFamilyParams,
        body: SetFeaturedItemsBody,
        response: { 200: FeaturedItemsSchema, ...errors },
      },
    },
    async (request) => {
      const viewer = signedInViewer(request);
      const { family } = request.params;
      await setFeaturedItems(app.db, family, request.body.pluginIds, viewer.user.id);
      request.log.info({ family, items: request.body.pluginIds.length }, 'featured items set');
      return app.recentDownloads.attach(await loadFeaturedItems(app.db, family, viewerOf(request)));
    },
  );

  app.put(
    '/api/admin/featured-plugins/:product',
    {
      config: { auth: { rule: 'admin' } },
      schema: {
        tags: ['admin'],
        summary:
          "Replace an IDE product's staff picks, in order (administrators; the IDE's is_featured_search)",
        params: FeaturedProductParams,
        body: SetFeaturedPluginsBody,
        response: { 200: FeaturedItemsSchema, ...errors },
      },
    },
    async (request) => {
      const viewer = signedInViewer(request);
      const { product } = request.params;
      await setFeaturedPlugins(app.db, product, request.body.pluginIds, viewer.user.id);
      request.log.info({ product, items: request.body.pluginIds.length }, 'staff picks set');
      return app.recentDownloads.attach(await loadFeatured(app.db, product, undefined, viewerOf(request)));
    },
  );
};
