import {
  ChannelsSchema,
  CompatibleProductsSchema,
  DeveloperSchema,
  ErrorBody,
  GranularRatingSchema,
  IdParams,
  PluginQuery,
  PluginSchema,
  PluginSummaryListSchema,
  PluginVersionSchema,
  PluginVersionsQuery,
  RatingSchema,
} from '@marketplace/api-contract';
import { viewerOf, type Viewer } from '../../search/sql';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ApiError } from '../../plugins/app/errors';
import { loadVersionSignatures } from '../../trust/signature-requirements';
import { setPageLinks } from '../pagination';
import {
  findVisiblePluginId,
  loadBundleMembers,
  loadChannels,
  loadCompatibleProducts,
  loadDevelopers,
  loadGranularRating,
  loadPlugin,
  loadRating,
  loadVersion,
  loadVersions,
  toPluginVersion,
} from './plugin-queries';

const notFound = { 404: ErrorBody };

export function pluginNotFound(id: number): ApiError {
  return new ApiError('notFound', `Plugin ${id} does not exist or is not available.`);
}

/** GET /api/plugins/{id} and its sub-resources, and GET /api/updates/{id}. */
const pluginRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const publicRead = { cache: 'public' } as const;

  app.get(
    '/api/plugins/:id',
    {
      config: publicRead,
      schema: {
        tags: ['plugins'],
        summary:
          'An item in the default shape; fullInfo=true includes developers, bundle members and the bundles that include it',
        params: IdParams,
        querystring: PluginQuery,
        response: { 200: PluginSchema, ...notFound },
      },
    },
    async (request) => {
      const plugin = await loadPlugin(app.db, request.params.id, viewerOf(request), {
        fullInfo: request.query.fullInfo,
        charts: app.recentDownloads,
      });
      if (!plugin) throw pluginNotFound(request.params.id);
      return plugin;
    },
  );

  /** Resolves the plugin of a sub-resource, answering 404 for one the viewer may not see. */
  async function visiblePlugin(id: number, viewer: Viewer | undefined) {
    const plugin = await findVisiblePluginId(app.db, id, viewer);
    if (!plugin) throw pluginNotFound(id);
    return plugin;
  }

  app.get(
    '/api/plugins/:id/rating',
    {
      config: publicRead,
      schema: {
        tags: ['plugins'],
        summary: 'Mean rating and votes per star count',
        params: IdParams,
        response: { 200: RatingSchema, ...notFound },
      },
    },
    async (request) => {
      await visiblePlugin(request.params.id, viewerOf(request));
      return loadRating(app.db, request.params.id);
    },
  );

  app.get(
    '/api/plugins/:id/rating-granular',
    {
      config: publicRead,
      schema: {
        tags: ['plugins'],
        summary: 'Mean rating per category',
        params: IdParams,
        response: { 200: GranularRatingSchema, ...notFound },
      },
    },
    async (request) => {
      await visiblePlugin(request.params.id, viewerOf(request));
      return loadGranularRating(app.db, request.params.id);
    },
  );

  app.get(
    '/api/plugins/:id/bundles',
    {
      config: publicRead,
      schema: {
        tags: ['plugins'],
        summary: 'The items a bundle groups',
        params: IdParams,
        response: { 200: PluginSummaryListSchema, ...notFound },
      },
    },
    async (request) => {
      await visiblePlugin(request.params.id, viewerOf(request));
      return app.recentDownloads.attach(
        await loadBundleMembers(app.db, request.params.id, viewerOf(request)),
      );
    },
  );

  app.get(
    '/api/plugins/:id/developers',
    {
      config: publicRead,
      schema: {
        tags: ['plugins'],
        summary: 'The owner and developers',
        params: IdParams,
        response: { 200: Type.Array(DeveloperSchema), ...notFound },
      },
    },
    async (request) => {
      await visiblePlugin(request.params.id, viewerOf(request));
      return loadDevelopers(app.db, request.params.id);
    },
  );

  app.get(
    '/api/plugins/:id/compatible-products',
    {
      config: publicRead,
      schema: {
        tags: ['plugins'],
        summary: 'IDE product keys the item runs on (empty: every product of its family)',
        params: IdParams,
        response: { 200: CompatibleProductsSchema, ...notFound },
      },
    },
    async (request) => {
      await visiblePlugin(request.params.id, viewerOf(request));
      return loadCompatibleProducts(app.db, request.params.id);
    },
  );

  app.get(
    '/api/plugins/:id/updates',
    {
      config: publicRead,
      schema: {
        tags: ['plugins'],
        summary: 'Versions, newest first, 20 a page',
        params: IdParams,
        querystring: PluginVersionsQuery,
        response: { 200: Type.Array(PluginVersionSchema), ...notFound },
      },
    },
    async (request, reply) => {
      await visiblePlugin(request.params.id, viewerOf(request));
      const { page, size, channel } = request.query;
      const { rows, total } = await loadVersions(app.db, request.params.id, viewerOf(request), {
        channel,
        page,
        size,
      });
      setPageLinks(request, reply, page, size, total);
      const signatures = await loadVersionSignatures(
        app.db,
        rows.map((row) => row.id),
      );
      return rows.map((row) => toPluginVersion(row, app.config.publicUrl, signatures.get(row.id) ?? null));
    },
  );

  app.get(
    '/api/plugins/:id/channels',
    {
      config: publicRead,
      schema: {
        tags: ['plugins'],
        summary: 'Channels that have versions ("" is stable)',
        params: IdParams,
        response: { 200: ChannelsSchema, ...notFound },
      },
    },
    async (request) => {
      await visiblePlugin(request.params.id, viewerOf(request));
      return loadChannels(app.db, request.params.id, viewerOf(request));
    },
  );

  app.get(
    '/api/updates/:id',
    {
      config: publicRead,
      schema: {
        tags: ['plugins'],
        summary: 'One version by its id',
        params: IdParams,
        response: { 200: PluginVersionSchema, ...notFound },
      },
    },
    async (request) => {
      const row = await loadVersion(app.db, request.params.id, viewerOf(request));
      if (!row)
        throw new ApiError('notFound', `Version ${request.params.id} does not exist or is not available.`);
      const signatures = await loadVersionSignatures(app.db, [row.id]);
      return toPluginVersion(row, app.config.publicUrl, signatures.get(row.id) ?? null);
    },
  );
};

export default pluginRoutes;
