/** The scheduler's own settings, read once at start. */
export interface SchedulerOptions {
  /**
   * The longest time between two looks at the job table (SCHEDULER_POLL_SECONDS, default 10). A node looks
   * sooner when a job is due sooner; this bounds how late it notices what other nodes changed. 0: this node
   * runs no job by itself (it still runs one when an administrator asks it to).
   */
  pollMs: number;
  /**
   * How long a node holds a job it runs before another may take it up (SCHEDULER_LEASE_SECONDS, default 60),
   * renewed every third of it while the job runs: a run whose node died is retried after at most this long.
   */
  leaseMs: number;
  /** Time between two clean-ups of expired tokens and sign-in records (TOKEN_CLEANUP_SECONDS, 3600; 0: never). */
  tokenCleanupIntervalMs: number;
  /** Time between two rebuilds of the search index from scratch (SEARCH_REINDEX_SECONDS, 86400; 0: never). */
  searchReindexIntervalMs: number;
}

export class SchedulerConfigError extends Error {
  override name = 'SchedulerConfigError';
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number) {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new SchedulerConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}".`);
  }
  return value;
}

const DAY_SECONDS = 86_400;

export function schedulerOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): SchedulerOptions {
  return {
    pollMs: wholeNumber(env, 'SCHEDULER_POLL_SECONDS', 10, 0, 3600) * 1000,
    leaseMs: wholeNumber(env, 'SCHEDULER_LEASE_SECONDS', 60, 1, DAY_SECONDS) * 1000,
    tokenCleanupIntervalMs: wholeNumber(env, 'TOKEN_CLEANUP_SECONDS', 3600, 0, 30 * DAY_SECONDS) * 1000,
    searchReindexIntervalMs:
      wholeNumber(env, 'SEARCH_REINDEX_SECONDS', DAY_SECONDS, 0, 30 * DAY_SECONDS) * 1000,
  };
}
