import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { ScheduledJob, ScheduledJobDetail, ScheduledRun } from '@marketplace/api-contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Transaction } from '../../db/client';
import {
  claimJob,
  finishRun,
  readJobRows,
  readRun,
  readRuns,
  readTimings,
  renewLease,
  syncJobRows,
  type ClaimTrigger,
  type JobRow,
} from './repository';
import type { RecurringJob } from './types';

/** A node never looks at the table more often than this, whatever is due (a guard against busy loops). */
const SHORTEST_LOOK_MS = 100;

/** Runs shown with a job's details. */
const RUNS_SHOWN = 20;

/**
 * How long {@link Scheduler.stop} waits for the runs of this node once their signal is aborted. A job that
 * does not look at its signal is left behind: its lease expires and the next node to look runs it again.
 */
export const STOP_WAIT_MS = 3_000;

export interface SchedulerSettings {
  /** Names this process in leases and runs; unique per process by default (host, pid, random). */
  node?: string;
  /** See SchedulerOptions.leaseMs. */
  leaseMs: number;
  /** See SchedulerOptions.pollMs; 0: this node runs jobs only when asked (run now). */
  pollMs: number;
  log: FastifyBaseLogger;
}

/** "Run now" was refused: the job is running (on this node or another). */
export class JobBusyError extends Error {
  override name = 'JobBusyError';
}

/** The job has no definition on this node. */
export class UnknownJobError extends Error {
  override name = 'UnknownJobError';
}

/**
 * The recurring jobs of this node and the loop that runs them when due. The truth is in the database
 * (`scheduled_jobs`): a node runs a job only under the job's lease, taken in a transaction over the job's
 * locked row, so one node at a time runs it, whichever looked first; a run whose node died is taken up by
 * the next node to look once the lease has expired.
 */
export class Scheduler {
  readonly node: string;
  private readonly jobs: ReadonlyMap<string, RecurringJob>;
  private readonly running = new Map<string, Promise<ScheduledRun | undefined>>();
  /** The signals of the runs in progress, aborted when the scheduler stops. */
  private readonly controllers = new Map<string, AbortController>();
  private timer: NodeJS.Timeout | undefined;
  private looking: Promise<void> | undefined;
  private started = false;
  private stopped = false;

  constructor(
    private readonly db: Database,
    jobs: readonly RecurringJob[],
    private readonly settings: SchedulerSettings,
  ) {
    this.jobs = new Map(jobs.map((job) => [job.id, job]));
    this.node = settings.node ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  }

  /** The job definitions of this node, in their order. */
  get definitions(): readonly RecurringJob[] {
    return [...this.jobs.values()];
  }

  has(jobId: string): boolean {
    return this.jobs.has(jobId);
  }

  /** Writes the jobs' rows and starts looking for due jobs (unless pollMs is 0). */
  async start(): Promise<void> {
    await syncJobRows(this.db, this.definitions);
    this.started = true;
    if (this.settings.pollMs > 0) this.schedule(0);
  }

  /**
   * Stops looking, aborts the signals of the runs of this node and waits for them to end, at most `waitMs`:
   * the server is stopping, and a job that goes on regardless is abandoned (logged) rather than awaited.
   */
  async stop(waitMs = STOP_WAIT_MS): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (const controller of this.controllers.values()) {
      controller.abort(new Error('The server is stopping.'));
    }
    let timer: NodeJS.Timeout | undefined;
    const waited = await Promise.race([
      Promise.allSettled([this.looking, ...this.running.values()]).then(() => true),
      new Promise<false>((resolve) => (timer = setTimeout(resolve, waitMs, false))),
    ]);
    clearTimeout(timer);
    if (!waited) {
      this.settings.log.warn(
        { jobs: [...this.running.keys()] },
        `jobs still running ${waitMs / 1000} s after the stop was asked are left: they run again once their lease expires`,
      );
    }
  }

  /** Every job, in the order of the definitions. */
  async list(): Promise<ScheduledJob[]> {
    const rows = await readJobRows(this.db, [...this.jobs.keys()]);
    return this.definitions.map((job) => this.view(job, rows.get(job.id)));
  }

  async detail(jobId: string): Promise<ScheduledJobDetail> {
    const job = this.definition(jobId);
    const rows = await readJobRows(this.db, [jobId]);
    return { ...this.view(job, rows.get(jobId)), runs: await readRuns(this.db, jobId, RUNS_SHOWN) };
  }

  /**
   * Runs the job on this node now, whether due or paused, and resolves with the finished run (its outcome
   * and error text). Throws {@link JobBusyError} when it is running anywhere. `onClaimed` runs in the
   * transaction that takes the job (the audit entry).
   */
  async runNow(
    jobId: string,
    input: {
      requestedBy: number | null;
      onClaimed?: (transaction: Transaction, runId: number) => Promise<void>;
    },
  ): Promise<ScheduledRun> {
    this.definition(jobId);
    if (this.running.has(jobId)) throw new JobBusyError('The job is running now; wait for it to finish.');
    const run = await this.claimAndRun(jobId, 'manual', input.requestedBy, input.onClaimed);
    if (run === 'busy') throw new JobBusyError('The job is running now; wait for it to finish.');
    if (!run) throw new Error(`The run of ${jobId} was not recorded.`);
    return run;
  }

  /** Looks again soon (after a pause or resume changed what is due). */
  wake(): void {
    if (this.started && !this.stopped && this.settings.pollMs > 0) this.schedule(0);
  }

  /** One look at the table: starts every job of this node that is due (or orphaned by a dead node). */
  async look(): Promise<number> {
    const timings = await readTimings(this.db, [...this.jobs.keys()]);
    let wait = this.settings.pollMs || Number.POSITIVE_INFINITY;
    for (const timing of timings) {
      const job = this.jobs.get(timing.id);
      if (!job || timing.paused || this.running.has(job.id)) continue;
      const scheduled = job.intervalMs > 0 && timing.dueInMs !== null;
      if (!timing.leased && (timing.orphaned || (scheduled && timing.dueInMs! <= 0))) {
        void this.claimAndRun(job.id, 'schedule', null).catch((error: unknown) => {
          // A run left behind by a stop fails to record its end once the database has closed: not news.
          if (!this.stopped) {
            this.settings.log.error({ err: error, job: job.id }, 'a scheduled job could not be started');
          }
        });
        continue;
      }
      // Look again when it is due, or when the lease of whoever runs it would expire if they died.
      if (timing.leased && timing.leaseLeftMs !== null) wait = Math.min(wait, timing.leaseLeftMs);
      else if (scheduled) wait = Math.min(wait, timing.dueInMs!);
    }
    return wait;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.looking) return;
      this.looking = this.look()
        .catch((error: unknown) => {
          this.settings.log.error({ err: error }, 'the scheduler could not read its jobs');
          return this.settings.pollMs;
        })
        .then((wait) => {
          this.looking = undefined;
          if (!this.stopped) this.schedule(Math.max(SHORTEST_LOOK_MS, Math.min(wait, this.settings.pollMs)));
        });
    }, delayMs);
    this.timer.unref();
  }

  private definition(jobId: string): RecurringJob {
    const job = this.jobs.get(jobId);
    if (!job) throw new UnknownJobError(`There is no scheduled job "${jobId}".`);
    return job;
  }

  private async claimAndRun(
    jobId: string,
    trigger: ClaimTrigger,
    requestedBy: number | null,
    onClaimed?: (transaction: Transaction, runId: number) => Promise<void>,
  ): Promise<ScheduledRun | undefined | 'busy'> {
    const job = this.definition(jobId);
    // A look under way when the scheduler stopped starts nothing more.
    if (this.stopped) return undefined;
    const claim = await claimJob(this.db, {
      jobId,
      node: this.node,
      leaseMs: this.settings.leaseMs,
      intervalMs: job.intervalMs,
      trigger,
      requestedBy,
      ...(onClaimed ? { onClaimed } : {}),
    });
    if (!claim.claimed) {
      if (claim.reason === 'gave-up') {
        this.settings.log.error(
          { job: jobId },
          'a scheduled job was interrupted too many times in a row; it waits for its next turn',
        );
      }
      return claim.reason === 'running' ? 'busy' : undefined;
    }
    if (claim.trigger === 'retry') {
      this.settings.log.warn({ job: jobId, attempt: claim.attempt }, 'retrying a job whose server stopped');
    }
    const execution = this.execute(job, claim.runId).finally(() => this.running.delete(jobId));
    this.running.set(jobId, execution);
    return execution;
  }

  private async execute(job: RecurringJob, runId: number): Promise<ScheduledRun | undefined> {
    const controller = new AbortController();
    this.controllers.set(job.id, controller);
    const log = this.settings.log.child({ job: job.id, run: runId });
    const heartbeat = setInterval(
      () => {
        renewLease(this.db, job.id, runId, this.settings.leaseMs)
          .then((held) => {
            if (held || controller.signal.aborted) return;
            log.warn('this server lost the lease of the job it runs; another may be running it');
            controller.abort(new Error('The lease of the job was lost.'));
          })
          .catch((error: unknown) => log.warn({ err: error }, 'the lease of a running job was not renewed'));
      },
      Math.max(1, Math.floor(this.settings.leaseMs / 3)),
    );
    heartbeat.unref();
    let outcome: 'succeeded' | 'failed' = 'succeeded';
    let summary: string | null = null;
    let error: string | null = null;
    const startedAt = Date.now();
    try {
      summary = (await job.run({ signal: controller.signal, log })) ?? null;
    } catch (failure) {
      outcome = 'failed';
      error = failure instanceof Error ? failure.message : String(failure);
      log.error({ err: failure }, 'a scheduled job failed');
    } finally {
      clearInterval(heartbeat);
      this.controllers.delete(job.id);
    }
    await finishRun(this.db, { jobId: job.id, runId, intervalMs: job.intervalMs, outcome, summary, error });
    if (outcome === 'succeeded') log.debug({ ms: Date.now() - startedAt, summary }, 'scheduled job done');
    return readRun(this.db, runId);
  }

  private view(job: RecurringJob, row: JobRow | undefined): ScheduledJob {
    const paused = row?.paused ?? false;
    const currentRun = row?.leased ? row.currentRun : null;
    const state: ScheduledJob['state'] = currentRun
      ? 'running'
      : paused
        ? 'paused'
        : job.intervalMs > 0
          ? 'waiting'
          : 'on-demand';
    return {
      id: job.id,
      title: job.title,
      description: job.description,
      state,
      paused,
      intervalSeconds: job.intervalMs > 0 ? Math.max(1, Math.round(job.intervalMs / 1000)) : null,
      setting: job.setting ?? null,
      nextRun: paused || job.intervalMs === 0 ? null : (row?.nextRun ?? null),
      lastRun: row?.lastRun ?? null,
      currentRun,
    };
  }
}
