import { and, isNotNull, lt, or } from 'drizzle-orm';
import type { Database } from '../db/client';
import { apiTokens, oidcRecords } from '../db/schema/auth';

/**
 * Expired or revoked API tokens stay listed on their owner's tokens page this long (so the owner sees why a
 * build stopped working) before they are deleted.
 */
export const API_TOKEN_KEPT_AFTER_EXPIRY_MS = 30 * 86_400_000;

/** Sign-in provider records (sessions, codes, refresh tokens, grants) are deleted this long after expiry. */
export const SIGN_IN_RECORD_GRACE_MS = 60 * 60 * 1000;

export interface ExpiredRecordsResult {
  apiTokens: number;
  signInRecords: number;
}

/**
 * Deletes what can no longer sign anyone in: API tokens expired or revoked more than 30 days ago, and the
 * embedded provider's records an hour past their expiry. Run by the admin scheduler (token clean-up); the
 * provider's adapter also sweeps now and then as it writes, which this makes a backstop of.
 */
export async function deleteExpiredSignInRecords(
  db: Database,
  now: Date = new Date(),
): Promise<ExpiredRecordsResult> {
  const tokensBefore = new Date(now.getTime() - API_TOKEN_KEPT_AFTER_EXPIRY_MS);
  const tokens = await db
    .delete(apiTokens)
    .where(
      or(
        and(isNotNull(apiTokens.expiresAt), lt(apiTokens.expiresAt, tokensBefore)),
        and(isNotNull(apiTokens.revokedAt), lt(apiTokens.revokedAt, tokensBefore)),
      ),
    )
    .returning({ id: apiTokens.id });
  const records = await db
    .delete(oidcRecords)
    .where(lt(oidcRecords.expiresAt, new Date(now.getTime() - SIGN_IN_RECORD_GRACE_MS)))
    .returning({ id: oidcRecords.id });
  return { apiTokens: tokens.length, signInRecords: records.length };
}
