import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { leaseQueue, type ClaimedJob } from '../../db/lease-queue';
import { selectRows } from '../../search/sql';

/**
 * The job queue of scanning: a plain table (`scan_jobs`) worked by the lease queue of src/db/lease-queue.ts,
 * as `verification_jobs` is (claimed with `FOR UPDATE SKIP LOCKED` under a lease, taken up again once a dead
 * worker's lease has expired, until its attempts are used up). Safe on several nodes at once. A failed job
 * leaves its version held back: a version nobody could scan is not offered.
 */
export const scanQueue = leaseQueue('scan_jobs', { noun: 'scan', doing: 'scanning' });

/**
 * Queues a scan of a version, unless one is already waiting or running, and holds the version back
 * (`scan_state = 'pending'`) until the scan has passed. Call it in the transaction that writes the version
 * (the upload does; so does anything else that brings a version in), so that no version is ever offered
 * unscanned. `hold: false` scans again without taking an offered version away meanwhile (a rescan).
 */
export async function enqueueScan(
  tx: Queryable,
  versionId: number,
  options: { requestedBy?: number | null; maxAttempts?: number; hold?: boolean } = {},
): Promise<number> {
  if (options.hold ?? true) {
    await tx.execute(sql`UPDATE plugin_versions SET scan_state = 'pending' WHERE id = ${versionId}`);
  }
  return scanQueue.enqueue(tx, versionId, options);
}

/** The condition that narrows claims to the jobs of one plugin's versions. */
export function jobsOfPlugin(pluginId: number): SQL {
  return sql`version_id IN (SELECT id FROM plugin_versions WHERE plugin_id = ${pluginId})`;
}

/**
 * Claims the oldest job that is queued and due, or running under an expired lease; only jobs of the plugin
 * `pluginId` when given (an approval settling the scans of the versions it approves).
 */
export function claimScanJob(
  db: Queryable,
  worker: string,
  leaseMs: number,
  pluginId?: number,
): Promise<ClaimedJob | undefined> {
  return scanQueue.claim(db, worker, leaseMs, pluginId === undefined ? undefined : jobsOfPlugin(pluginId));
}

/** Jobs of the plugin's versions that are queued or running (an approval waits for them). */
export async function openScanJobsOfPlugin(
  db: Queryable,
  pluginId: number,
): Promise<{ id: number; state: 'queued' | 'running'; due: boolean; leaseLive: boolean }[]> {
  return selectRows(
    db,
    sql`SELECT j.id, j.state, j.available_at <= now() AS due,
        coalesce(j.lease_expires_at >= now(), false) AS "leaseLive"
      FROM scan_jobs j JOIN plugin_versions pv ON pv.id = j.version_id
      WHERE pv.plugin_id = ${pluginId} AND j.state IN ('queued', 'running')`,
  );
}
