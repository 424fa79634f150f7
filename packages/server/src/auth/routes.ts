import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Database } from '../db/client';
import { ApiError } from '../plugins/app/errors';
import {
  createApiToken,
  listApiTokens,
  revokeApiToken,
  TOKEN_MAX_LIFETIME_DAYS,
  TOKEN_NAME_MAX_LENGTH,
  TOKEN_SCOPES,
  TokenInputError,
} from './api-tokens';
import { signedInViewer } from './authorization';
import { GUEST_AUTH_USER, toAuthUserBody } from './users';

const AuthUserSchema = Type.Object(
  {
    guest: Type.Boolean(),
    id: Type.Union([Type.Integer(), Type.Null()]),
    name: Type.Union([Type.String(), Type.Null()]),
    login: Type.Union([Type.String(), Type.Null()]),
    email: Type.Union([Type.String(), Type.Null()]),
    emailVerified: Type.Boolean(),
    banned: Type.Boolean(),
  },
  { description: 'The signed-in user, or a guest (spec §3 auth user).' },
);

const TokenSummarySchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  scopes: Type.Array(Type.Enum([...TOKEN_SCOPES])),
  hint: Type.String({ description: 'The last four characters of the token.' }),
  createdAt: Type.String({ format: 'date-time' }),
  expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

const CreatedTokenSchema = Type.Intersect([
  TokenSummarySchema,
  Type.Object({ token: Type.String({ description: 'The token itself; shown only this once.' }) }),
]);

const CreateTokenBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: TOKEN_NAME_MAX_LENGTH }),
    scopes: Type.Array(Type.Enum([...TOKEN_SCOPES]), { minItems: 1, maxItems: TOKEN_SCOPES.length }),
    expiresInDays: Type.Optional(Type.Integer({ minimum: 1, maximum: TOKEN_MAX_LIFETIME_DAYS })),
  },
  { additionalProperties: false },
);

const TokenParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });

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
        response: { 200: Type.Array(TokenSummarySchema) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', PRIVATE);
      return listApiTokens(db, signedInViewer(request).user.id);
    },
  );

  app.post<{ Body: Static<typeof CreateTokenBody> }>(
    '/api/users/me/tokens',
    {
      config: { auth: { rule: 'signed-in', scope: 'manage' } },
      schema: {
        tags: ['users'],
        summary: 'Create a permanent API token (the answer is the only time it is shown)',
        body: CreateTokenBody,
        response: { 201: CreatedTokenSchema },
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

  app.delete<{ Params: Static<typeof TokenParams> }>(
    '/api/users/me/tokens/:id',
    {
      config: { auth: { rule: 'signed-in', scope: 'manage' } },
      schema: { tags: ['users'], summary: 'Revoke one of my permanent API tokens', params: TokenParams },
    },
    async (request, reply) => {
      const revoked = await revokeApiToken(db, signedInViewer(request).user.id, request.params.id);
      if (!revoked) throw new ApiError('notFound', 'You have no such token, or it is already revoked.');
      return reply.code(204).send();
    },
  );
}
