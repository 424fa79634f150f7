import type { FastifyInstance } from 'fastify';
import { recurringJobs } from './jobs';
import { schedulerOptionsFromEnv, type SchedulerOptions } from './options';
import { schedulerRoutes } from './routes';
import { Scheduler } from './scheduler';

export { JobBusyError, Scheduler, UnknownJobError, type SchedulerSettings } from './scheduler';
export { schedulerOptionsFromEnv, SchedulerConfigError, type SchedulerOptions } from './options';
export type { JobContext, RecurringJob } from './types';

/**
 * The scheduler of recurring jobs: the `/api/scheduler` routes, and this node's loop that runs the jobs when
 * due (started once the application is ready; stopped when it closes, the runs in progress given their
 * aborted signal and a few seconds to end).
 */
export async function scheduler(
  app: FastifyInstance,
  partialOptions: Partial<SchedulerOptions> = {},
): Promise<void> {
  const options: SchedulerOptions = { ...schedulerOptionsFromEnv(), ...partialOptions };
  const instance = new Scheduler(app.db, recurringJobs(app, options), {
    leaseMs: options.leaseMs,
    pollMs: options.pollMs,
    log: app.log.child({ area: 'scheduler' }),
  });
  await app.register(schedulerRoutes(instance));
  app.addHook('onReady', async () => instance.start());
  app.addHook('onClose', async () => instance.stop());
}
