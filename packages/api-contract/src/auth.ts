import { Type, type Static } from 'typebox';
import { Nullable } from './common';

/** What a permanent API token may be used for: `upload` publishes new versions; `manage` changes everything else. */
export const TOKEN_SCOPES = ['upload', 'manage'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];
export const TOKEN_NAME_MAX_LENGTH = 100;
/** The longest expiry a token may be given, in days (ten years). */
export const TOKEN_MAX_LIFETIME_DAYS = 3650;

/** GET /api/users/me: who is signed in (core's AuthUser); a guest has every field null or false. */
export const AuthUserSchema = Type.Object(
  {
    guest: Type.Boolean(),
    id: Nullable(Type.Integer()),
    name: Nullable(Type.String()),
    login: Nullable(Type.String()),
    email: Nullable(Type.String()),
    emailVerified: Type.Boolean(),
    banned: Type.Boolean(),
    isAdmin: Type.Boolean({ description: 'An administrator; false for a guest.' }),
  },
  { description: 'The signed-in user, or a guest (spec §3 auth user).' },
);
export type AuthUserBody = Static<typeof AuthUserSchema>;

/** A permanent token as its owner sees it in a list: never the token itself, which is shown once. */
export const ApiTokenSummarySchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  scopes: Type.Array(Type.Enum([...TOKEN_SCOPES])),
  hint: Type.String({ description: 'The last four characters of the token.' }),
  createdAt: Type.String({ format: 'date-time' }),
  expiresAt: Nullable(Type.String({ format: 'date-time' })),
  lastUsedAt: Nullable(Type.String({ format: 'date-time' })),
});
export type ApiTokenSummaryBody = Static<typeof ApiTokenSummarySchema>;

/** GET /api/users/me/tokens. */
export const ApiTokenListSchema = Type.Array(ApiTokenSummarySchema);

/** POST /api/users/me/tokens answers the new token, the only time it is shown. */
export const CreatedApiTokenSchema = Type.Intersect([
  ApiTokenSummarySchema,
  Type.Object({ token: Type.String({ description: 'The token itself; shown only this once.' }) }),
]);
export type CreatedApiTokenBody = Static<typeof CreatedApiTokenSchema>;

/** POST /api/users/me/tokens; a token without `expiresInDays` never expires. */
export const CreateApiTokenBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: TOKEN_NAME_MAX_LENGTH }),
    scopes: Type.Array(Type.Enum([...TOKEN_SCOPES]), { minItems: 1, maxItems: TOKEN_SCOPES.length }),
    expiresInDays: Type.Optional(Type.Integer({ minimum: 1, maximum: TOKEN_MAX_LIFETIME_DAYS })),
  },
  { additionalProperties: false },
);
export type CreateApiTokenBody = Static<typeof CreateApiTokenBody>;

/** DELETE /api/users/me/tokens/{id}. */
export const ApiTokenParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
export type ApiTokenParams = Static<typeof ApiTokenParams>;
