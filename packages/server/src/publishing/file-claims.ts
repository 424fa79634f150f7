import { eq, sql, type SQL } from 'drizzle-orm';
import type { Database, Queryable } from '../db/client';
import { fileClaims } from '../db/schema';

/**
 * The advisory lock that serialises claiming a stored file and sweeping it: whoever takes it second sees
 * what the first did (a claim, or a removed file that the upload then writes again).
 */
export function storedFileLock(hash: string): SQL {
  return sql`SELECT pg_advisory_xact_lock(hashtextextended(${`stored-file:${hash}`}, 0))`;
}

/**
 * Claims a file hash before the file is written into the store, so the orphan sweep (on any node) leaves
 * the file alone until the row that refers to it is committed. Answers the claim's id.
 */
export async function claimStoredFile(db: Database, hash: string): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(storedFileLock(hash));
    const [row] = await tx.insert(fileClaims).values({ fileHash: hash }).returning({ id: fileClaims.id });
    if (!row) throw new Error('The file claim was not written.');
    return row.id;
  });
}

/** Drops a claim: inside the transaction that commits the referring row, or after a failed upload. */
export async function releaseClaim(db: Queryable, claimId: number): Promise<void> {
  await db.delete(fileClaims).where(eq(fileClaims.id, claimId));
}
