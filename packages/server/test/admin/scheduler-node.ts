/**
 * One node of the scheduler in a process of its own, for the test that kills it with SIGKILL in the middle
 * of a run: it runs the job `slow-job` (which never ends) as soon as it is due, and prints "running <node>"
 * once the job has started. DATABASE_URL names the database; the job row must already be due.
 */
import { openDatabase } from '../../src/db/client';
import { testScheduler } from './scheduler-support';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL is required.');
const node = process.env.NODE_NAME ?? 'child-node';
const database = await openDatabase({ databaseUrl, dataDir: '', maxConnections: 2 });
const scheduler = testScheduler(
  database.db,
  [
    {
      id: 'slow-job',
      title: 'Slow job',
      description: 'Never ends.',
      intervalMs: 3_600_000,
      run: async () => {
        process.stdout.write(`running ${node}\n`);
        await new Promise(() => undefined);
        return undefined;
      },
    },
  ],
  { node, leaseMs: Number(process.env.LEASE_MS ?? 1000), pollMs: 100 },
);
// The scheduler's timers do not keep a process alive; this one stays until it is killed.
setInterval(() => undefined, 60_000);
await scheduler.start();
