import { sql, type SQL } from 'drizzle-orm';
import { selectRows } from '../search/sql';
import type { Database, Queryable } from './client';

/**
 * A job queue of one version per job, kept in a plain table with the columns `verification_jobs` and
 * `scan_jobs` share (`version_id`, `requested_by`, `state`, `attempts`, `max_attempts`, `available_at`,
 * `lease_owner`, `lease_expires_at`, `finished_at`, `last_error`; in Drizzle, `leaseQueueColumns()` of
 * lease-queue-columns.ts). A worker claims the oldest available job
 * with `FOR UPDATE SKIP LOCKED` (two workers never take the same one) and holds it under a lease, renewed
 * while the job runs; a job whose worker died is taken up again by any worker once the lease has expired,
 * until its attempts are used up. Failed runs back off (30 s, 2 min, 8 min...). Safe on several nodes at once.
 */

export interface ClaimedJob {
  id: number;
  versionId: number;
  attempts: number;
  maxAttempts: number;
}

/** A failure that retrying cannot mend (the version or its file is gone): the job fails at once. */
export class PermanentFailure extends Error {
  override name = 'PermanentFailure';
}

/** The job's lease expired and another worker took it over: this run's result must not be written. */
export class LeaseLost extends Error {
  override name = 'LeaseLost';
}

export interface LeaseQueue {
  /** Queues a job for the version unless one is already waiting or running; the id of either. */
  enqueue(
    db: Queryable,
    versionId: number,
    options?: { requestedBy?: number | null; maxAttempts?: number },
  ): Promise<number>;
  /** Gives up jobs whose worker died on their last attempt: they are not run a further time. */
  failAbandoned(db: Queryable): Promise<number>;
  /** Claims the oldest job that is queued and due, or running under an expired lease; `only` narrows the jobs. */
  claim(db: Queryable, worker: string, leaseMs: number, only?: SQL): Promise<ClaimedJob | undefined>;
  /** Extends the lease of a job still held by `worker`; false when it was lost (expired and taken over). */
  renewLease(db: Queryable, jobId: number, worker: string, leaseMs: number): Promise<boolean>;
  /** Marks the job done; false when the lease was lost, in which case the caller must roll back. */
  complete(db: Queryable, jobId: number, worker: string): Promise<boolean>;
  /**
   * A run that failed: queued again after a pause that grows with each attempt (30 s, 2 min, 8 min...), or
   * failed for good once the attempts are used up or when retrying cannot help (`permanent`).
   */
  fail(
    db: Queryable,
    jobId: number,
    worker: string,
    error: { message: string; permanent: boolean },
  ): Promise<void>;
}

/**
 * The queue kept in `table`. `noun` names its jobs in the texts it writes ("No scan job could be queued...",
 * "The worker scanning it stopped..." with `doing` = 'scanning').
 */
export function leaseQueue(table: string, texts: { noun: string; doing: string }): LeaseQueue {
  const jobs = sql.identifier(table);
  const leaseUntil = (leaseMs: number) =>
    sql`now() + ${leaseMs}::double precision * interval '1 millisecond'`;
  return {
    async enqueue(db, versionId, options = {}) {
      const [queued] = await selectRows<{ id: number }>(
        db,
        sql`INSERT INTO ${jobs} (version_id, requested_by, max_attempts)
          SELECT ${versionId}::int, ${options.requestedBy ?? null}::int, ${options.maxAttempts ?? 3}::int
          WHERE NOT EXISTS (SELECT 1 FROM ${jobs} WHERE version_id = ${versionId} AND state IN ('queued', 'running'))
          RETURNING id`,
      );
      if (queued) return queued.id;
      const [waiting] = await selectRows<{ id: number }>(
        db,
        sql`SELECT id FROM ${jobs} WHERE version_id = ${versionId} AND state IN ('queued', 'running')
          ORDER BY id DESC LIMIT 1`,
      );
      if (!waiting) throw new Error(`No ${texts.noun} job could be queued for version ${versionId}.`);
      return waiting.id;
    },

    async failAbandoned(db) {
      const rows = await selectRows<{ id: number }>(
        db,
        sql`UPDATE ${jobs} SET state = 'failed', lease_owner = NULL, lease_expires_at = NULL, finished_at = now(),
            last_error = ${`The worker ${texts.doing} it stopped before it finished, on every attempt.`}
          WHERE state = 'running' AND lease_expires_at < now() AND attempts >= max_attempts
          RETURNING id`,
      );
      return rows.length;
    },

    async claim(db, worker, leaseMs, only) {
      const [row] = await selectRows<{
        id: number;
        version_id: number;
        attempts: number;
        max_attempts: number;
      }>(
        db,
        sql`UPDATE ${jobs} j SET state = 'running', attempts = j.attempts + 1, lease_owner = ${worker},
            lease_expires_at = ${leaseUntil(leaseMs)}
          WHERE j.id = (
            SELECT id FROM ${jobs}
            WHERE ((state = 'queued' AND available_at <= now())
               OR (state = 'running' AND lease_expires_at < now() AND attempts < max_attempts))
              AND ${only ?? sql`true`}
            ORDER BY available_at, id
            LIMIT 1
            FOR UPDATE SKIP LOCKED)
          RETURNING j.id, j.version_id, j.attempts, j.max_attempts`,
      );
      return row
        ? { id: row.id, versionId: row.version_id, attempts: row.attempts, maxAttempts: row.max_attempts }
        : undefined;
    },

    async renewLease(db, jobId, worker, leaseMs) {
      const rows = await selectRows<{ id: number }>(
        db,
        sql`UPDATE ${jobs} SET lease_expires_at = ${leaseUntil(leaseMs)}
          WHERE id = ${jobId} AND state = 'running' AND lease_owner = ${worker} RETURNING id`,
      );
      return rows.length > 0;
    },

    async complete(db, jobId, worker) {
      const rows = await selectRows<{ id: number }>(
        db,
        sql`UPDATE ${jobs} SET state = 'done', lease_owner = NULL, lease_expires_at = NULL, finished_at = now(),
            last_error = NULL
          WHERE id = ${jobId} AND state = 'running' AND lease_owner = ${worker} RETURNING id`,
      );
      return rows.length > 0;
    },

    async fail(db, jobId, worker, error) {
      await db.execute(
        sql`UPDATE ${jobs} SET
            state = CASE WHEN ${error.permanent}::boolean OR attempts >= max_attempts THEN 'failed' ELSE 'queued' END,
            finished_at = CASE WHEN ${error.permanent}::boolean OR attempts >= max_attempts THEN now() ELSE NULL END,
            available_at = now() + (30 * power(4, greatest(attempts - 1, 0))) * interval '1 second',
            lease_owner = NULL, lease_expires_at = NULL, last_error = ${error.message.slice(0, 2000)}
          WHERE id = ${jobId} AND state = 'running' AND lease_owner = ${worker}`,
      );
    },
  };
}

/** What a worker does with the jobs it claims; `run` must `complete` the job in the transaction it writes in. */
export interface JobHandlers<Outcome> {
  /** Does the job; `leaseLost()` turns true once the lease was lost, and the run should then throw `LeaseLost`. */
  run(job: ClaimedJob, leaseLost: () => boolean): Promise<Outcome>;
  done(job: ClaimedJob, outcome: Outcome): void;
  /** The run threw `LeaseLost`: nothing is written, the job is another worker's now. */
  lost(job: ClaimedJob): void;
  /** The run threw anything else, before the job is failed (for good with `PermanentFailure`). */
  failed(job: ClaimedJob, error: unknown): void;
}

/**
 * Works the queue: gives up abandoned jobs, then claims jobs one at a time and runs them, renewing the lease
 * every third of it meanwhile, until none is due (or `maxJobs` ran). Returns how many jobs it took.
 */
export async function workLeaseQueue<Outcome>(
  queue: LeaseQueue,
  db: Database,
  options: { worker: string; leaseMs: number; maxJobs?: number; only?: SQL },
  handlers: JobHandlers<Outcome>,
): Promise<number> {
  const { worker, leaseMs } = options;
  const maxJobs = options.maxJobs ?? Number.POSITIVE_INFINITY;
  let taken = 0;
  await queue.failAbandoned(db);
  while (taken < maxJobs) {
    const job = await queue.claim(db, worker, leaseMs, options.only);
    if (!job) break;
    taken += 1;
    await processJob(queue, db, job, worker, leaseMs, handlers);
  }
  return taken;
}

async function processJob<Outcome>(
  queue: LeaseQueue,
  db: Database,
  job: ClaimedJob,
  worker: string,
  leaseMs: number,
  handlers: JobHandlers<Outcome>,
): Promise<void> {
  let lost = false;
  const heartbeat = setInterval(
    () => {
      queue
        .renewLease(db, job.id, worker, leaseMs)
        .then((held) => {
          if (!held) lost = true;
        })
        .catch(() => undefined);
    },
    Math.max(1000, Math.floor(leaseMs / 3)),
  );
  heartbeat.unref();
  try {
    const outcome = await handlers.run(job, () => lost);
    handlers.done(job, outcome);
  } catch (error) {
    if (error instanceof LeaseLost) {
      handlers.lost(job);
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    handlers.failed(job, error);
    await queue.fail(db, job.id, worker, { message, permanent: error instanceof PermanentFailure });
  } finally {
    clearInterval(heartbeat);
  }
}
