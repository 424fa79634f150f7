import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { selectRows } from '../search/sql';
import { DiskFileStore, S3FileStore, type FileStore } from '../storage';
import { storedFileLock } from './file-claims';

export interface SweepOptions {
  /** Files, claims and temporary uploads younger than this are never removed. */
  graceMs: number;
  /** Folders holding temporary uploads (`upload-*.part`) to clear of abandoned ones. */
  temporaryDirectories?: readonly string[];
  now?: Date;
}

export interface SweepResult {
  /** Hashes of stored files removed because no row referred to them. */
  removedFiles: string[];
  /** Claims left behind by uploads that never finished (a crash, a lost disk). */
  removedClaims: number;
  /** Temporary files of uploads that never finished. */
  removedTemporaryFiles: number;
}

/** Every column that refers to a stored file, as `SELECT hash` statements. */
const REFERENCES = sql`
  SELECT file_hash AS hash FROM plugin_versions
  UNION ALL SELECT icon_hash FROM plugins WHERE icon_hash IS NOT NULL
  UNION ALL SELECT file_hash FROM plugin_screenshots
  UNION ALL SELECT content_hash FROM plugin_documentation_tabs
  UNION ALL SELECT file_hash FROM custom_page_images
  UNION ALL SELECT file_hash FROM custom_page_files`;

const BATCH = 500;

/**
 * Removes one stored file now, for a domain that has just deleted (and committed) a row referring to it: only
 * when no row refers to it any more and no upload claims it, checked under the lock that claiming takes.
 * Answers whether it was removed.
 */
export async function removeFileIfUnreferenced(
  db: Database,
  fileStore: FileStore,
  hash: string,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(storedFileLock(hash));
    const [still] = await selectRows<{ used: boolean }>(
      tx,
      sql`SELECT EXISTS (SELECT 1 FROM (${REFERENCES}) AS refs WHERE hash = ${hash})
        OR EXISTS (SELECT 1 FROM file_claims WHERE file_hash = ${hash}) AS used`,
    );
    if (still?.used) return false;
    return fileStore.remove(hash);
  });
}

/**
 * Removes stored files no row refers to, and what crashed uploads left behind. Safe on several nodes at
 * once and beside uploads in flight: a file is removed only when it is unreferenced, unclaimed (an upload
 * claims its hash before writing the file and drops the claim with the commit of its row) and older than
 * the grace period, checked and removed under the same per-file advisory lock that claiming takes.
 */
export async function sweepOrphanedFiles(
  db: Database,
  fileStore: FileStore,
  options: SweepOptions,
): Promise<SweepResult> {
  const now = options.now ?? new Date();
  const cutoff = new Date(now.getTime() - options.graceMs);
  const staleClaims = await selectRows<{ id: number }>(
    db,
    sql`DELETE FROM file_claims WHERE created_at < ${cutoff.toISOString()}::timestamptz RETURNING id`,
  );
  const result: SweepResult = {
    removedFiles: [],
    removedClaims: staleClaims.length,
    removedTemporaryFiles: 0,
  };

  let batch: string[] = [];
  const sweepBatch = async () => {
    const referenced = await selectRows<{ hash: string }>(
      db,
      sql`SELECT DISTINCT hash FROM (${REFERENCES}) AS refs WHERE hash = ANY(${`{${batch.join(',')}}`}::text[])`,
    );
    const kept = new Set(referenced.map((row) => row.hash));
    for (const hash of batch) {
      if (kept.has(hash)) continue;
      if (await isYoungerThan(fileStore, hash, cutoff)) continue;
      const removed = await db.transaction(async (tx) => {
        await tx.execute(storedFileLock(hash));
        const [still] = await selectRows<{ used: boolean }>(
          tx,
          sql`SELECT EXISTS (SELECT 1 FROM (${REFERENCES}) AS refs WHERE hash = ${hash})
            OR EXISTS (SELECT 1 FROM file_claims WHERE file_hash = ${hash}) AS used`,
        );
        if (still?.used) return false;
        return fileStore.remove(hash);
      });
      if (removed) result.removedFiles.push(hash);
    }
    batch = [];
  };
  for await (const hash of fileStore.list()) {
    batch.push(hash);
    if (batch.length >= BATCH) await sweepBatch();
  }
  if (batch.length > 0) await sweepBatch();

  const temporaryDirectories = [...(options.temporaryDirectories ?? [])];
  // The disk store writes through `.incoming-*` files beside the shards, the S3 store through ones in its
  // local folder; a crash mid-write leaves one.
  if (fileStore instanceof DiskFileStore) temporaryDirectories.push(fileStore.root);
  if (fileStore instanceof S3FileStore) temporaryDirectories.push(fileStore.temporaryDirectory);
  for (const directory of temporaryDirectories) {
    result.removedTemporaryFiles += await removeStaleTemporaryFiles(directory, cutoff);
  }
  return result;
}

/** A file written after the cutoff is left for a later sweep whatever the claims say (stores that tell). */
async function isYoungerThan(fileStore: FileStore, hash: string, cutoff: Date): Promise<boolean> {
  if (!fileStore.modifiedAt) return false;
  try {
    const modifiedAt = await fileStore.modifiedAt(hash);
    return modifiedAt === undefined || modifiedAt.getTime() > cutoff.getTime();
  } catch {
    return true;
  }
}

const TEMPORARY_FILE = /^(upload-[0-9a-f]+\.part|\.incoming-[0-9a-f-]+)$/;

async function removeStaleTemporaryFiles(directory: string, cutoff: Date): Promise<number> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let removed = 0;
  for (const name of names) {
    if (!TEMPORARY_FILE.test(name)) continue;
    const path = join(directory, name);
    try {
      const { mtimeMs, isFile } = await stat(path).then((info) => ({
        mtimeMs: info.mtimeMs,
        isFile: info.isFile(),
      }));
      if (!isFile || mtimeMs > cutoff.getTime()) continue;
      await rm(path, { force: true });
      removed += 1;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return removed;
}
