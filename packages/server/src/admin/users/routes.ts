import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AdminUserSchema,
  ErrorBody,
  UserActionBody,
  UserActionParams,
  UserSuggestionSchema,
  UserSuggestionsQuery,
  UsersPageSchema,
  UsersQuery,
} from '@marketplace/api-contract';
import { Type } from 'typebox';
import { signedInViewer } from '../../auth/authorization';
import { ApiError } from '../../plugins/app/errors';
import { setPageLinks } from '../../routes/pagination';
import { applyUserAction, listUsers, suggestUsers, UserActionError } from './service';

const ADMIN = { rule: 'admin' } as const;

/**
 * `/api/users` (administrators' list and search), `/api/users/suggestions` (type-ahead for any signed-in
 * user adding developers) and `/api/users/{id}/{ban|unban|grant-admin|revoke-admin}`. The public profile
 * `/api/users/{id}` and the viewer's own `/api/users/me` live with social and auth.
 */
const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/users',
    {
      config: { auth: ADMIN },
      schema: {
        tags: ['admin'],
        summary: 'Users, newest first, searched in login, name and email (administrators)',
        querystring: UsersQuery,
        response: { 200: UsersPageSchema, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request, reply) => {
      const page = await listUsers(app.db, request.query);
      setPageLinks(request, reply, request.query.page, request.query.size, page.total);
      reply.header('cache-control', 'private, no-store');
      return page;
    },
  );

  app.get(
    '/api/users/suggestions',
    {
      config: { auth: { rule: 'signed-in' } },
      schema: {
        tags: ['admin'],
        summary: 'Users whose login or name matches q, for adding developers (signed-in users)',
        querystring: UserSuggestionsQuery,
        response: { 200: Type.Array(UserSuggestionSchema), 400: ErrorBody, 401: ErrorBody },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return suggestUsers(app.db, request.query.q, request.query.size);
    },
  );

  app.post(
    '/api/users/:id/:x',
    {
      config: { auth: ADMIN },
      schema: {
        tags: ['admin'],
        summary: 'Ban (reason required), unban, grant or revoke the administrator role (administrators)',
        params: UserActionParams,
        body: UserActionBody,
        response: { 200: AdminUserSchema, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => {
      const viewer = signedInViewer(request);
      try {
        const user = await applyUserAction(app.db, {
          userId: request.params.id,
          action: request.params.x,
          reason: request.body?.reason,
          actorId: viewer.user.id,
        });
        request.log.info({ userId: user.id, action: request.params.x }, 'user changed by an administrator');
        return user;
      } catch (error) {
        if (error instanceof UserActionError) {
          throw new ApiError(error.status === 400 ? 'badRequest' : 'conflict', error.message);
        }
        throw error;
      }
    },
  );
};

export default userRoutes;
