import type { FastifyBaseLogger } from 'fastify';
import { Scheduler } from '../../src/admin/scheduler';
import type { RecurringJob } from '../../src/admin/scheduler';
import type { Database } from '../../src/db/client';

/** A logger that says nothing (the scheduler's own tests read the database, not the log). */
export const silentLog: FastifyBaseLogger = (() => {
  const noop = () => undefined;
  const log = {
    level: 'silent',
    fatal: noop,
    error: noop,
    warn: noop,
    info: noop,
    debug: noop,
    trace: noop,
    silent: noop,
    child: () => log,
  };
  return log as unknown as FastifyBaseLogger;
})();

/** A scheduler of test jobs, as one server process would run it. */
export function testScheduler(
  db: Database,
  jobs: RecurringJob[],
  settings: { node: string; leaseMs?: number; pollMs?: number },
): Scheduler {
  return new Scheduler(db, jobs, {
    node: settings.node,
    leaseMs: settings.leaseMs ?? 2000,
    pollMs: settings.pollMs ?? 0,
    log: silentLog,
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `check` holds, or rejects after `timeoutMs`. */
export async function until(check: () => Promise<boolean>, timeoutMs = 20_000, what = 'the condition') {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await sleep(50);
  }
}
