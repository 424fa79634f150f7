import type { ScheduledRun } from '@marketplace/api-contract';
import { sql } from 'drizzle-orm';
import type { Database, Queryable, Transaction } from '../../db/client';
import type { ScheduledJobRunOutcome, ScheduledJobRunTrigger } from '../../db/schema';
import { selectRows } from '../../search/sql';

/** A run killed this many times in a row (its node died each time) is not taken up again until its next turn. */
export const MAX_ATTEMPTS = 3;

/** Runs kept per job; older ones are deleted as new ones finish. */
export const RUNS_KEPT = 100;

/** The longest error text kept for a failed run. */
const ERROR_TEXT_LIMIT = 2000;

const inList = (values: readonly (string | number)[]) =>
  sql`(${sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  )})`;

const milliseconds = (ms: number) => sql`(${ms}::float8 * interval '1 millisecond')`;

/** The job's next due time after a run or at start: none when it has no interval. */
const nextAfter = (intervalMs: number) =>
  intervalMs > 0 ? sql`clock_timestamp() + ${milliseconds(intervalMs)}` : sql`NULL::timestamptz`;

/**
 * Makes sure every job has its row, and brings its next due time in line with this node's interval: none
 * when the interval is 0, sooner when the interval was shortened (the node started last sets the pace).
 */
export async function syncJobRows(db: Database, jobs: readonly { id: string; intervalMs: number }[]) {
  for (const job of jobs) {
    await db.execute(sql`
      INSERT INTO scheduled_jobs (id, next_run_at) VALUES (${job.id}, ${nextAfter(job.intervalMs)})
      ON CONFLICT (id) DO UPDATE SET next_run_at = CASE
        WHEN ${job.intervalMs}::int = 0 THEN NULL
        WHEN scheduled_jobs.next_run_at IS NULL THEN EXCLUDED.next_run_at
        ELSE LEAST(scheduled_jobs.next_run_at, EXCLUDED.next_run_at) END`);
  }
}

/** A job's row as a node's loop reads it: what is due when, counted on the database's clock. */
export interface JobTiming {
  id: string;
  paused: boolean;
  /** Another node (or this one) holds the lease now. */
  leased: boolean;
  /** A run is recorded as in progress but its lease has expired: its node died. */
  orphaned: boolean;
  /** Milliseconds until it is due (negative: overdue), null: not scheduled. */
  dueInMs: number | null;
  /** Milliseconds until the lease expires, null: not leased. */
  leaseLeftMs: number | null;
}

export async function readTimings(db: Database, ids: readonly string[]): Promise<JobTiming[]> {
  const rows = await selectRows<{
    id: string;
    paused: boolean;
    leased: boolean;
    orphaned: boolean;
    due_in_ms: number | null;
    lease_left_ms: number | null;
  }>(
    db,
    sql`SELECT id, paused,
        coalesce(lease_expires_at > clock_timestamp(), false) AS leased,
        current_run_id IS NOT NULL AND coalesce(lease_expires_at <= clock_timestamp(), true) AS orphaned,
        (extract(epoch FROM next_run_at - clock_timestamp()) * 1000)::float8 AS due_in_ms,
        (extract(epoch FROM lease_expires_at - clock_timestamp()) * 1000)::float8 AS lease_left_ms
      FROM scheduled_jobs WHERE id IN ${inList(ids)}`,
  );
  return rows.map((row) => ({
    id: row.id,
    paused: row.paused,
    leased: row.leased,
    orphaned: row.orphaned,
    dueInMs: row.due_in_ms,
    leaseLeftMs: row.lease_left_ms,
  }));
}

export type ClaimTrigger = 'schedule' | 'manual';

export type Claim =
  | { claimed: true; runId: number; trigger: ScheduledJobRunTrigger; attempt: number }
  | { claimed: false; reason: 'running' | 'not-due' | 'unknown' | 'gave-up' };

/**
 * Takes the job for this node, in one transaction over its locked row: refused while another node's lease
 * holds; a scheduled claim also needs the job due and not paused. A run left behind by a dead node (its
 * lease expired) is marked interrupted and, on a scheduled claim, taken up again as a retry — unless it
 * was already tried {@link MAX_ATTEMPTS} times, then the job waits for its next turn.
 */
export async function claimJob(
  db: Database,
  input: {
    jobId: string;
    node: string;
    leaseMs: number;
    intervalMs: number;
    trigger: ClaimTrigger;
    requestedBy?: number | null;
    /** Runs inside the claim's transaction once the run exists (the audit entry of "run now"). */
    onClaimed?: (transaction: Transaction, runId: number) => Promise<void>;
  },
): Promise<Claim> {
  return db.transaction(async (tx) => {
    const [row] = await selectRows<{
      paused: boolean;
      due: boolean;
      leased: boolean;
      current_run_id: number | null;
      current_attempt: number | null;
    }>(
      tx,
      sql`SELECT paused, coalesce(next_run_at <= clock_timestamp(), false) AS due,
          coalesce(lease_expires_at > clock_timestamp(), false) AS leased, current_run_id,
          (SELECT attempt FROM scheduled_job_runs r WHERE r.id = j.current_run_id) AS current_attempt
        FROM scheduled_jobs j WHERE id = ${input.jobId} FOR UPDATE`,
    );
    if (!row) return { claimed: false, reason: 'unknown' } as const;
    if (row.leased) return { claimed: false, reason: 'running' } as const;
    const orphaned = row.current_run_id !== null;
    let trigger: ScheduledJobRunTrigger = input.trigger;
    let attempt = 1;
    if (input.trigger === 'schedule') {
      if (row.paused || (!orphaned && !row.due)) return { claimed: false, reason: 'not-due' } as const;
      if (orphaned) {
        attempt = (row.current_attempt ?? 0) + 1;
        trigger = 'retry';
      }
    }
    if (orphaned) {
      await tx.execute(sql`UPDATE scheduled_job_runs SET outcome = 'interrupted', finished_at = clock_timestamp(),
          error = 'The server running it stopped before it finished.'
        WHERE id = ${row.current_run_id} AND outcome = 'running'`);
      if (attempt > MAX_ATTEMPTS) {
        await tx.execute(sql`UPDATE scheduled_jobs SET current_run_id = NULL, last_run_id = current_run_id,
            lease_owner = NULL, lease_expires_at = NULL, next_run_at = ${nextAfter(input.intervalMs)}
          WHERE id = ${input.jobId}`);
        return { claimed: false, reason: 'gave-up' } as const;
      }
    }
    const [run] = await selectRows<{ id: number }>(
      tx,
      sql`INSERT INTO scheduled_job_runs (job_id, node, trigger, attempt, requested_by, started_at)
        VALUES (${input.jobId}, ${input.node}, ${trigger}, ${attempt}, ${input.requestedBy ?? null},
          clock_timestamp())
        RETURNING id`,
    );
    const runId = run!.id;
    await tx.execute(sql`UPDATE scheduled_jobs SET lease_owner = ${input.node},
        lease_expires_at = clock_timestamp() + ${milliseconds(input.leaseMs)},
        last_run_id = coalesce(current_run_id, last_run_id), current_run_id = ${runId}
      WHERE id = ${input.jobId}`);
    await input.onClaimed?.(tx, runId);
    return { claimed: true, runId, trigger, attempt } as const;
  });
}

/** Extends the lease of the run in progress; false when this node no longer holds it. */
export async function renewLease(db: Database, jobId: string, runId: number, leaseMs: number) {
  const rows = await selectRows<{ id: string }>(
    db,
    sql`UPDATE scheduled_jobs SET lease_expires_at = clock_timestamp() + ${milliseconds(leaseMs)}
      WHERE id = ${jobId} AND current_run_id = ${runId} RETURNING id`,
  );
  return rows.length > 0;
}

/**
 * Records how the run ended and, if this node still holds the job, frees it and sets its next due time.
 * Old runs beyond {@link RUNS_KEPT} go.
 */
export async function finishRun(
  db: Database,
  input: {
    jobId: string;
    runId: number;
    intervalMs: number;
    outcome: Exclude<ScheduledJobRunOutcome, 'running' | 'interrupted'>;
    summary: string | null;
    error: string | null;
  },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`UPDATE scheduled_job_runs SET finished_at = clock_timestamp(), outcome = ${input.outcome},
        summary = ${input.summary}, error = ${input.error?.slice(0, ERROR_TEXT_LIMIT) ?? null}
      WHERE id = ${input.runId} AND outcome = 'running'`);
    await tx.execute(sql`UPDATE scheduled_jobs SET lease_owner = NULL, lease_expires_at = NULL,
        current_run_id = NULL, last_run_id = ${input.runId}, next_run_at = ${nextAfter(input.intervalMs)}
      WHERE id = ${input.jobId} AND current_run_id = ${input.runId}`);
    await tx.execute(sql`DELETE FROM scheduled_job_runs WHERE job_id = ${input.jobId} AND id <= (
        SELECT id FROM scheduled_job_runs WHERE job_id = ${input.jobId}
        ORDER BY id DESC OFFSET ${RUNS_KEPT} LIMIT 1)`);
  });
}

/** Pauses or resumes, inside the caller's transaction; `found` false when the job has no row. */
export async function setPaused(
  db: Queryable,
  jobId: string,
  paused: boolean,
  actorId: number | null,
): Promise<{ found: boolean; changed: boolean }> {
  const [row] = await selectRows<{ paused: boolean }>(
    db,
    sql`SELECT paused FROM scheduled_jobs WHERE id = ${jobId} FOR UPDATE`,
  );
  if (!row) return { found: false, changed: false };
  if (row.paused === paused) return { found: true, changed: false };
  await db.execute(sql`UPDATE scheduled_jobs SET paused = ${paused},
      paused_at = ${paused ? sql`clock_timestamp()` : sql`NULL`}, paused_by = ${paused ? actorId : null}
    WHERE id = ${jobId}`);
  return { found: true, changed: true };
}

export interface JobRow {
  id: string;
  paused: boolean;
  nextRun: number | null;
  leased: boolean;
  currentRun: ScheduledRun | null;
  lastRun: ScheduledRun | null;
}

const RUN_COLUMNS = sql`r.id, r.trigger, r.attempt, r.node, r.requested_by,
  (extract(epoch FROM r.started_at) * 1000)::float8 AS started,
  (extract(epoch FROM r.finished_at) * 1000)::float8 AS finished,
  round(extract(epoch FROM r.finished_at - r.started_at) * 1000)::int AS duration_ms,
  r.outcome, r.summary, r.error`;

interface RunRow {
  id: number;
  trigger: ScheduledJobRunTrigger;
  attempt: number;
  node: string;
  requested_by: number | null;
  started: number;
  finished: number | null;
  duration_ms: number | null;
  outcome: ScheduledJobRunOutcome;
  summary: string | null;
  error: string | null;
}

function toRun(row: RunRow): ScheduledRun {
  return {
    id: row.id,
    trigger: row.trigger,
    attempt: row.attempt,
    node: row.node,
    requestedBy: row.requested_by,
    started: Math.round(row.started),
    finished: row.finished === null ? null : Math.round(row.finished),
    durationMs: row.duration_ms,
    outcome: row.outcome,
    summary: row.summary,
    error: row.error,
  };
}

/** The rows of the given jobs, with their current and last runs. */
export async function readJobRows(db: Database, ids: readonly string[]): Promise<Map<string, JobRow>> {
  const jobs = await selectRows<{
    id: string;
    paused: boolean;
    next_run: number | null;
    leased: boolean;
    current_run_id: number | null;
    last_run_id: number | null;
  }>(
    db,
    sql`SELECT id, paused, (extract(epoch FROM next_run_at) * 1000)::float8 AS next_run,
        coalesce(lease_expires_at > clock_timestamp(), false) AS leased, current_run_id, last_run_id
      FROM scheduled_jobs WHERE id IN ${inList(ids)}`,
  );
  const runIds = jobs.flatMap((job) => [job.current_run_id, job.last_run_id]).filter((id) => id !== null);
  const runs = new Map<number, ScheduledRun>();
  if (runIds.length > 0) {
    const rows = await selectRows<RunRow>(
      db,
      sql`SELECT ${RUN_COLUMNS} FROM scheduled_job_runs r
        WHERE r.id IN ${inList(runIds)}`,
    );
    for (const row of rows) runs.set(row.id, toRun(row));
  }
  const result = new Map<string, JobRow>();
  for (const job of jobs) {
    result.set(job.id, {
      id: job.id,
      paused: job.paused,
      nextRun: job.next_run === null ? null : Math.round(job.next_run),
      leased: job.leased,
      currentRun: job.current_run_id === null ? null : (runs.get(job.current_run_id) ?? null),
      lastRun: job.last_run_id === null ? null : (runs.get(job.last_run_id) ?? null),
    });
  }
  return result;
}

/** A job's recent runs, newest first. */
export async function readRuns(db: Database, jobId: string, limit: number): Promise<ScheduledRun[]> {
  const rows = await selectRows<RunRow>(
    db,
    sql`SELECT ${RUN_COLUMNS} FROM scheduled_job_runs r WHERE r.job_id = ${jobId}
      ORDER BY r.id DESC LIMIT ${limit}`,
  );
  return rows.map(toRun);
}

/** One run, as it is now. */
export async function readRun(db: Database, runId: number): Promise<ScheduledRun | undefined> {
  const [row] = await selectRows<RunRow>(
    db,
    sql`SELECT ${RUN_COLUMNS} FROM scheduled_job_runs r WHERE r.id = ${runId}`,
  );
  return row ? toRun(row) : undefined;
}
