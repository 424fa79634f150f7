import type { FastifyBaseLogger } from 'fastify';

/** What a job's work is given when it runs. */
export interface JobContext {
  /**
   * Aborted when this node lost the job's lease (another node may be running it), or when the server stops
   * (it waits a few seconds, then leaves the run to be retried): stop when convenient.
   */
  signal: AbortSignal;
  log: FastifyBaseLogger;
}

/**
 * A recurring job as its domain describes it: the work stays in the domain (its index file), the scheduler
 * decides when and where it runs.
 */
export interface RecurringJob {
  /** Stable name, the row's key and the path's `{id}`: lower case words joined by hyphens. */
  id: string;
  title: string;
  description: string;
  /** Time between the end of a run and the next scheduled one; 0: only when an administrator runs it now. */
  intervalMs: number;
  /** The environment setting the interval comes from, shown to the administrator. */
  setting?: string;
  /** Does the work once; resolves with a sentence saying what it did (the run's summary). */
  run(context: JobContext): Promise<string | undefined>;
}
