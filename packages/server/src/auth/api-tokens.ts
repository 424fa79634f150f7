import { createHash, randomBytes } from 'node:crypto';
import {
  TOKEN_MAX_LIFETIME_DAYS,
  TOKEN_NAME_MAX_LENGTH,
  TOKEN_SCOPES,
  type ApiTokenSummaryBody,
  type CreatedApiTokenBody,
  type TokenScope,
} from '@marketplace/api-contract';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Database } from '../db/client';
import { apiTokens } from '../db/schema/auth';
import { users } from '../db/schema/catalogue';

export function isTokenScope(value: unknown): value is TokenScope {
  return typeof value === 'string' && (TOKEN_SCOPES as readonly string[]).includes(value);
}

export const PERMANENT_TOKEN_PREFIX = 'perm:';
/** 32 random bytes in base64url: 43 characters after the prefix. */
const PERMANENT_TOKEN_PATTERN = /^perm:[A-Za-z0-9_-]{43}$/;

export function isPermanentTokenText(value: string): boolean {
  return value.startsWith(PERMANENT_TOKEN_PREFIX);
}

export function hashPermanentToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export interface CreateTokenInput {
  userId: number;
  name: string;
  scopes: readonly TokenScope[];
  /** Days until the token stops working; undefined for a token that does not expire. */
  expiresInDays?: number | undefined;
}

export class TokenInputError extends Error {
  override name = 'TokenInputError';
}

function summary(row: typeof apiTokens.$inferSelect): ApiTokenSummaryBody {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes.filter(isTokenScope),
    hint: row.tokenHint,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

/** Checks the input and says what is wrong in words for the person who typed it. */
export function tokenInputProblem(input: Omit<CreateTokenInput, 'userId'>): string | undefined {
  const name = input.name.trim();
  if (name === '') return 'Give the token a name, so you can recognise it later.';
  if (name.length > TOKEN_NAME_MAX_LENGTH)
    return `The token name must have at most ${TOKEN_NAME_MAX_LENGTH} characters.`;
  if (input.scopes.length === 0) return `Choose at least one scope: ${TOKEN_SCOPES.join(', ')}.`;
  const unknown = input.scopes.find((scope) => !isTokenScope(scope));
  if (unknown !== undefined) return `Unknown scope "${unknown}". Scopes are: ${TOKEN_SCOPES.join(', ')}.`;
  if (input.expiresInDays !== undefined) {
    const days = input.expiresInDays;
    if (!Number.isInteger(days) || days < 1 || days > TOKEN_MAX_LIFETIME_DAYS) {
      return `The expiry must be a whole number of days from 1 to ${TOKEN_MAX_LIFETIME_DAYS}.`;
    }
  }
  return undefined;
}

export async function createApiToken(
  db: Database,
  input: CreateTokenInput,
  now: Date = new Date(),
): Promise<CreatedApiTokenBody> {
  const problem = tokenInputProblem(input);
  if (problem) throw new TokenInputError(problem);
  const token = PERMANENT_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const expiresAt =
    input.expiresInDays === undefined ? null : new Date(now.getTime() + input.expiresInDays * 86_400_000);
  const [row] = await db
    .insert(apiTokens)
    .values({
      userId: input.userId,
      name: input.name.trim(),
      tokenHash: hashPermanentToken(token),
      tokenHint: token.slice(-4),
      scopes: [...new Set(input.scopes)],
      createdAt: now,
      expiresAt,
    })
    .returning();
  if (!row) throw new Error('The token row was not written.');
  return { ...summary(row), token };
}

/** The tokens of a user that still work or may work again never: revoked ones are left out. */
export async function listApiTokens(db: Database, userId: number): Promise<ApiTokenSummaryBody[]> {
  const rows = await db
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
  return rows.map(summary);
}

/** Revokes one of the user's tokens; false when the user has no such (unrevoked) token. */
export async function revokeApiToken(
  db: Database,
  userId: number,
  tokenId: number,
  now = new Date(),
): Promise<boolean> {
  const rows = await db
    .update(apiTokens)
    .set({ revokedAt: now })
    .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id });
  return rows.length > 0;
}

export interface ResolvedApiToken {
  tokenId: number;
  userId: number;
  scopes: TokenScope[];
  /** The token's user, read in the same query (this runs on every request that carries a token). */
  user: typeof users.$inferSelect;
}

/** How often a token's "last used" time is written: at most once a minute, not on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Finds the user a presented permanent token belongs to. Unknown, malformed, revoked and expired tokens all
 * give undefined: the caller answers 401 without telling which.
 */
export async function resolveApiToken(
  db: Database,
  token: string,
  now: Date = new Date(),
): Promise<ResolvedApiToken | undefined> {
  if (!PERMANENT_TOKEN_PATTERN.test(token)) return undefined;
  const [found] = await db
    .select({ token: apiTokens, user: users })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(eq(apiTokens.tokenHash, hashPermanentToken(token)))
    .limit(1);
  if (!found || found.token.revokedAt !== null) return undefined;
  const row = found.token;
  if (row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime()) return undefined;
  if (row.lastUsedAt === null || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await db.update(apiTokens).set({ lastUsedAt: now }).where(eq(apiTokens.id, row.id));
  }
  return { tokenId: row.id, userId: row.userId, scopes: row.scopes.filter(isTokenScope), user: found.user };
}
