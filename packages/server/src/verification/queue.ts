import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { selectRows } from '../search/sql';

/**
 * The job queue of verification: a plain table (`verification_jobs`). A worker claims the oldest available
 * job with `FOR UPDATE SKIP LOCKED` (two workers never take the same one) and holds it under a lease; a job
 * whose worker died is taken up again by any worker once the lease has expired, until its attempts are
 * used up. Safe on several nodes at once.
 */

/**
 * Queues a verification of a version, unless one is already waiting or running. Publishing calls it in the
 * transaction that writes an uploaded version, so every version gets a job and no upload waits for one.
 */
export async function enqueueVerification(
  db: Queryable,
  versionId: number,
  options: { requestedBy?: number | null; maxAttempts?: number } = {},
): Promise<number> {
  const [queued] = await selectRows<{ id: number }>(
    db,
    sql`INSERT INTO verification_jobs (version_id, requested_by, max_attempts)
      SELECT ${versionId}::int, ${options.requestedBy ?? null}::int, ${options.maxAttempts ?? 3}::int
      WHERE NOT EXISTS (SELECT 1 FROM verification_jobs
        WHERE version_id = ${versionId} AND state IN ('queued', 'running'))
      RETURNING id`,
  );
  if (queued) return queued.id;
  const [waiting] = await selectRows<{ id: number }>(
    db,
    sql`SELECT id FROM verification_jobs WHERE version_id = ${versionId} AND state IN ('queued', 'running')
      ORDER BY id DESC LIMIT 1`,
  );
  if (!waiting) throw new Error(`No verification job could be queued for version ${versionId}.`);
  return waiting.id;
}

export interface ClaimedJob {
  id: number;
  versionId: number;
  attempts: number;
  maxAttempts: number;
}

/** Gives up jobs whose worker died on their last attempt: they are not run a further time. */
export async function failAbandonedJobs(db: Queryable): Promise<number> {
  const rows = await selectRows<{ id: number }>(
    db,
    sql`UPDATE verification_jobs SET state = 'failed', lease_owner = NULL, lease_expires_at = NULL,
        finished_at = now(),
        last_error = 'The worker verifying it stopped before it finished, on every attempt.'
      WHERE state = 'running' AND lease_expires_at < now() AND attempts >= max_attempts
      RETURNING id`,
  );
  return rows.length;
}

/** Claims the oldest job that is queued and due, or running under an expired lease. */
export async function claimJob(
  db: Queryable,
  worker: string,
  leaseMs: number,
): Promise<ClaimedJob | undefined> {
  const [row] = await selectRows<{ id: number; version_id: number; attempts: number; max_attempts: number }>(
    db,
    sql`UPDATE verification_jobs j SET state = 'running', attempts = j.attempts + 1, lease_owner = ${worker},
        lease_expires_at = now() + ${leaseMs}::double precision * interval '1 millisecond'
      WHERE j.id = (
        SELECT id FROM verification_jobs
        WHERE (state = 'queued' AND available_at <= now())
           OR (state = 'running' AND lease_expires_at < now() AND attempts < max_attempts)
        ORDER BY available_at, id
        LIMIT 1
        FOR UPDATE SKIP LOCKED)
      RETURNING j.id, j.version_id, j.attempts, j.max_attempts`,
  );
  return row
    ? { id: row.id, versionId: row.version_id, attempts: row.attempts, maxAttempts: row.max_attempts }
    : undefined;
}

/** Extends the lease of a job still held by `worker`; false when it was lost (expired and taken over). */
export async function renewLease(
  db: Queryable,
  jobId: number,
  worker: string,
  leaseMs: number,
): Promise<boolean> {
  const rows = await selectRows<{ id: number }>(
    db,
    sql`UPDATE verification_jobs SET lease_expires_at = now() + ${leaseMs}::double precision * interval '1 millisecond'
      WHERE id = ${jobId} AND state = 'running' AND lease_owner = ${worker} RETURNING id`,
  );
  return rows.length > 0;
}

/** Marks the job done; false when the lease was lost, in which case the caller must roll back. */
export async function completeJob(db: Queryable, jobId: number, worker: string): Promise<boolean> {
  const rows = await selectRows<{ id: number }>(
    db,
    sql`UPDATE verification_jobs SET state = 'done', lease_owner = NULL, lease_expires_at = NULL,
        finished_at = now(), last_error = NULL
      WHERE id = ${jobId} AND state = 'running' AND lease_owner = ${worker} RETURNING id`,
  );
  return rows.length > 0;
}

/**
 * A run that failed: queued again after a pause that grows with each attempt (30 s, 2 min, 8 min...), or
 * failed for good once the attempts are used up or when retrying cannot help (`permanent`).
 */
export async function failJob(
  db: Queryable,
  jobId: number,
  worker: string,
  error: { message: string; permanent: boolean },
): Promise<void> {
  await db.execute(
    sql`UPDATE verification_jobs SET
        state = CASE WHEN ${error.permanent}::boolean OR attempts >= max_attempts THEN 'failed' ELSE 'queued' END,
        finished_at = CASE WHEN ${error.permanent}::boolean OR attempts >= max_attempts THEN now() ELSE NULL END,
        available_at = now() + (30 * power(4, greatest(attempts - 1, 0))) * interval '1 second',
        lease_owner = NULL, lease_expires_at = NULL, last_error = ${error.message.slice(0, 2000)}
      WHERE id = ${jobId} AND state = 'running' AND lease_owner = ${worker}`,
  );
}
