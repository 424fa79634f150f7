import {
  CommentListSchema,
  ErrorBody,
  FamilyParams,
  FeaturedQuery,
  IdParams,
  PluginCommentsQuery,
  PluginSummaryListSchema,
  UserPluginSummaryListSchema,
  UserCommentsQuery,
  UserPluginsQuery,
  UserSchema,
} from '@marketplace/api-contract';
import { viewerOf } from '../../search/sql';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError } from '../../plugins/app/errors';
import { setPageLinks } from '../pagination';
import { findVisiblePluginId } from './plugin-queries';
import { pluginNotFound } from './plugins';
import {
  loadFeatured,
  loadPluginComments,
  loadUser,
  loadUserComments,
  loadUserPlugins,
} from './social-queries';

/** Reviews, user profiles with their items and reviews, and featured items. */
const socialRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const publicRead = { cache: 'public' } as const;

  async function existingUser(id: number) {
    const user = await loadUser(app.db, id);
    if (!user) throw new ApiError('notFound', `User ${id} does not exist.`);
    return user;
  }

  app.get(
    '/api/comments',
    {
      config: publicRead,
      schema: {
        tags: ['comments'],
        summary: 'Reviews of a plugin, newest first, 20 a page',
        querystring: PluginCommentsQuery,
        response: { 200: CommentListSchema, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const { pluginId, page, size } = request.query;
      if (!(await findVisiblePluginId(app.db, pluginId, viewerOf(request)))) throw pluginNotFound(pluginId);
      const { comments, total } = await loadPluginComments(app.db, pluginId, viewerOf(request), page, size);
      setPageLinks(request, reply, page, size, total);
      return comments;
    },
  );

  app.get(
    '/api/users/:id',
    {
      config: publicRead,
      schema: {
        tags: ['users'],
        summary: 'A public profile',
        params: IdParams,
        response: { 200: UserSchema, 404: ErrorBody },
      },
    },
    async (request) => existingUser(request.params.id),
  );

  app.get(
    '/api/users/:id/plugins',
    {
      config: publicRead,
      schema: {
        tags: ['users'],
        summary: 'Items a user owns or develops, 12 a page; families default to all but edu',
        params: IdParams,
        querystring: UserPluginsQuery,
        response: { 200: UserPluginSummaryListSchema, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      await existingUser(request.params.id);
      const { page, size, family } = request.query;
      const { plugins, total } = await loadUserPlugins(
        app.db,
        request.params.id,
        family,
        viewerOf(request),
        page,
        size,
      );
      setPageLinks(request, reply, page, size, total);
      return app.recentDownloads.attach(plugins);
    },
  );

  app.get(
    '/api/users/:id/comments',
    {
      config: publicRead,
      schema: {
        tags: ['users'],
        summary: 'Reviews a user wrote, newest first, 20 a page',
        params: IdParams,
        querystring: UserCommentsQuery,
        response: { 200: CommentListSchema, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      await existingUser(request.params.id);
      const { page, size } = request.query;
      const { comments, total } = await loadUserComments(
        app.db,
        request.params.id,
        viewerOf(request),
        page,
        size,
      );
      setPageLinks(request, reply, page, size, total);
      return comments;
    },
  );

  app.get(
    '/api/featured-plugins/product',
    {
      config: publicRead,
      schema: {
        tags: ['plugins'],
        summary: 'Featured items for an IDE product',
        querystring: FeaturedQuery,
        response: { 200: PluginSummaryListSchema, 400: ErrorBody },
      },
    },
    async (request) =>
      app.recentDownloads.attach(
        await loadFeatured(app.db, request.query.product, undefined, viewerOf(request)),
      ),
  );

  app.get(
    '/api/featured-plugins/:family/product',
    {
      config: publicRead,
      schema: {
        tags: ['plugins'],
        summary: 'Featured items of one family for an IDE product',
        params: FamilyParams,
        querystring: FeaturedQuery,
        response: { 200: PluginSummaryListSchema, 400: ErrorBody },
      },
    },
    async (request) =>
      app.recentDownloads.attach(
        await loadFeatured(app.db, request.query.product, request.params.family, viewerOf(request)),
      ),
  );
};

export default socialRoutes;
