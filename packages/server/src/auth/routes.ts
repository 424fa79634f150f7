import {
  ApiTokenListSchema,
  ApiTokenParams,
  AuthUserSchema,
  CreateApiTokenBody,
  CreatedApiTokenSchema,
} from '@marketplace/api-contract';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client';
import { ApiError } from '../plugins/app/errors';
import { createApiToken, listApiTokens, revokeApiToken, TokenInputError } from './api-tokens';
import { signedInViewer } from './authorization';
import { GUEST_AUTH_USER, toAuthUserBody } from './users';

/** Personal answers: never stored by a shared cache. */
const PRIVATE = 'private, no-store';

/** The signed-in user's own account: who am I, and my permanent API tokens. */
export async function accountRoutes(app: FastifyInstance, { db }: { db: Database }): Promise<void> {
  app.get(
    '/api/users/me',
    {
      schema: {
        tags: ['users'],
        summary: 'The signed-in user, or a guest',
        response: { 200: AuthUserSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', PRIVATE).header('vary', 'Authorization');
      const viewer = request.viewer;
      return viewer.kind === 'user' ? toAuthUserBody(viewer.user) : GUEST_AUTH_USER;
    },
  );

  app.get(
    '/api/users/me/tokens',
    {
      config: { auth: { rule: 'signed-in' } },
      schema: {
        tags: ['users'],
        summary: 'My permanent API tokens',
        response: { 200: ApiTokenListSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', PRIVATE);
      return listApiTokens(db, signedInViewer(request).user.id);
    },
  );

  app.post<{ Body: CreateApiTokenBody }>(
    '/api/users/me/tokens',
    {
      config: { auth: { rule: 'signed-in', scope: 'manage' } },
      schema: {
        tags: ['users'],
        summary: 'Create a permanent API token (the answer is the only time it is shown)',
        body: CreateApiTokenBody,
        response: { 201: CreatedApiTokenSchema },
      },
    },
    async (request, reply) => {
      const { user } = signedInViewer(request);
      try {
        const created = await createApiToken(db, { userId: user.id, ...request.body });
        return reply.code(201).header('cache-control', PRIVATE).send(created);
      } catch (error) {
        if (error instanceof TokenInputError) throw new ApiError('validation', error.message);
        throw error;
      }
    },
  );

  app.delete<{ Params: ApiTokenParams }>(
    '/api/users/me/tokens/:id',
    {
      config: { auth: { rule: 'signed-in', scope: 'manage' } },
      schema: { tags: ['users'], summary: 'Revoke one of my permanent API tokens', params: ApiTokenParams },
    },
    async (request, reply) => {
      const revoked = await revokeApiToken(db, signedInViewer(request).user.id, request.params.id);
      if (!revoked) throw new ApiError('notFound', 'You have no such token, or it is already revoked.');
      return reply.code(204).send();
    },
  );
}
