import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { JobBusyError, type RecurringJob, type Scheduler } from '../../src/admin/scheduler';
import { claimJob, MAX_ATTEMPTS } from '../../src/admin/scheduler/repository';
import { openDatabase, type DatabaseConnection } from '../../src/db/client';
import { selectRows } from '../../src/search/sql';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../db/test-database';
import { sleep, testScheduler, until } from './scheduler-support';

// PGlite starts and migrates in seconds on a busy machine; the kill test starts a process of its own.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 60_000 });

const SERVER_DIRECTORY = fileURLToPath(new URL('../..', import.meta.url));

function job(id: string, run: RecurringJob['run'], intervalMs = 3_600_000): RecurringJob {
  return { id, title: id, description: `The test job ${id}.`, intervalMs, run };
}

interface RunRow {
  id: number;
  node: string;
  trigger: string;
  attempt: number;
  outcome: string;
  summary: string | null;
  error: string | null;
}

describe.each(DATABASE_KINDS)('the scheduler on %s', (kind) => {
  let testDatabase: TestDatabase;
  const schedulers: Scheduler[] = [];
  const db = () => testDatabase.database.db;
  const runsOf = (jobId: string) =>
    selectRows<RunRow>(
      db(),
      sql`SELECT id, node, trigger, attempt, outcome, summary, error FROM scheduled_job_runs
        WHERE job_id = ${jobId} ORDER BY id`,
    );
  const makeDue = (jobId: string) =>
    db().execute(
      sql`UPDATE scheduled_jobs SET next_run_at = now() - interval '1 second' WHERE id = ${jobId}`,
    );
  const started = async (scheduler: Scheduler) => {
    schedulers.push(scheduler);
    await scheduler.start();
    return scheduler;
  };

  beforeAll(async () => {
    testDatabase = await createTestDatabase({ kind });
  });
  afterEach(async () => {
    await Promise.all(schedulers.splice(0).map((scheduler) => scheduler.stop()));
  });
  afterAll(async () => {
    await testDatabase.dispose();
  });

  it('writes a row per job; a new job is first due one interval later, a job without interval never', async () => {
    const scheduler = await started(
      testScheduler(db(), [job('rows-hourly', async () => 'ok'), job('rows-never', async () => 'ok', 0)], {
        node: 'a',
      }),
    );
    const [hourly, never] = await scheduler.list();
    expect(hourly).toMatchObject({
      id: 'rows-hourly',
      state: 'waiting',
      intervalSeconds: 3600,
      lastRun: null,
    });
    expect(hourly!.nextRun! - Date.now()).toBeGreaterThan(3_500_000);
    expect(never).toMatchObject({
      id: 'rows-never',
      state: 'on-demand',
      intervalSeconds: null,
      nextRun: null,
    });
  });

  it('runs a due job on its own, records how it went, and sets the next run one interval on', async () => {
    let calls = 0;
    const scheduler = testScheduler(
      db(),
      [
        job('loop-ok', async () => {
          calls++;
          return 'did the thing';
        }),
        job('loop-fails', async () => {
          throw new Error('the disk is full');
        }),
      ],
      { node: 'a', pollMs: 100 },
    );
    // The rows exist (a first start), and both jobs are overdue when the loop begins.
    await scheduler.start();
    await scheduler.stop();
    await makeDue('loop-ok');
    await makeDue('loop-fails');
    const again = await started(
      testScheduler(db(), scheduler.definitions as RecurringJob[], { node: 'a', pollMs: 100 }),
    );
    await until(async () => (await runsOf('loop-fails')).length === 1 && calls === 1, 20_000, 'both runs');
    await until(async () => (await again.list()).every((entry) => entry.lastRun !== null));
    const [ok, failed] = await again.list();
    expect(ok!.lastRun).toMatchObject({
      outcome: 'succeeded',
      summary: 'did the thing',
      trigger: 'schedule',
    });
    expect(ok!.lastRun!.durationMs).toBeGreaterThanOrEqual(0);
    expect(ok!.nextRun! - Date.now()).toBeGreaterThan(3_500_000);
    expect(failed!.lastRun).toMatchObject({ outcome: 'failed', error: 'the disk is full' });
    await sleep(300);
    expect(calls).toBe(1);
  });

  it('runs a job now even when paused; a paused job is not run by its schedule, and runs once resumed', async () => {
    let calls = 0;
    const scheduler = await started(
      testScheduler(
        db(),
        [
          job('pausable', async () => {
            calls++;
            return `call ${calls}`;
          }),
        ],
        { node: 'a', pollMs: 100 },
      ),
    );
    await db().execute(sql`UPDATE scheduled_jobs SET paused = true WHERE id = 'pausable'`);
    await makeDue('pausable');
    await sleep(400);
    expect(calls).toBe(0);
    expect((await scheduler.list())[0]).toMatchObject({ state: 'paused', nextRun: null });

    const run = await scheduler.runNow('pausable', { requestedBy: null });
    expect(run).toMatchObject({ outcome: 'succeeded', trigger: 'manual', summary: 'call 1' });
    expect(calls).toBe(1);

    await makeDue('pausable');
    await db().execute(sql`UPDATE scheduled_jobs SET paused = false WHERE id = 'pausable'`);
    scheduler.wake();
    await until(async () => calls === 2, 20_000, 'the run after resuming');
  });

  it('refuses to run now a job that is running', async () => {
    let release = () => {};
    const scheduler = await started(
      testScheduler(
        db(),
        [job('busy', () => new Promise<string>((resolve) => (release = () => resolve('done'))))],
        { node: 'a' },
      ),
    );
    const first = scheduler.runNow('busy', { requestedBy: null });
    await until(async () => (await runsOf('busy')).length === 1);
    await expect(scheduler.runNow('busy', { requestedBy: null })).rejects.toBeInstanceOf(JobBusyError);
    expect((await scheduler.list())[0]!.state).toBe('running');
    release();
    expect(await first).toMatchObject({ outcome: 'succeeded' });
  });

  it('takes up again a run whose node stopped (its lease expired), and gives up after the last attempt', async () => {
    let calls = 0;
    const definitions = [
      job('orphaned', async () => {
        calls++;
        return 'finished this time';
      }),
    ];
    const scheduler = testScheduler(db(), definitions, { node: 'b', pollMs: 100 });
    await scheduler.start();
    await scheduler.stop();
    // A node that died while running it: it claimed the job with a short lease and never came back.
    await makeDue('orphaned');
    const claim = await claimJob(db(), {
      jobId: 'orphaned',
      node: 'dead-node',
      leaseMs: 300,
      intervalMs: 3_600_000,
      trigger: 'schedule',
    });
    expect(claim.claimed).toBe(true);
    await started(testScheduler(db(), definitions, { node: 'b', pollMs: 100 }));
    await until(async () => calls === 1, 20_000, 'the retry');
    await until(async () => (await runsOf('orphaned')).every((run) => run.outcome !== 'running'));
    const runs = await runsOf('orphaned');
    expect(runs.map(({ node, trigger, attempt, outcome }) => ({ node, trigger, attempt, outcome }))).toEqual([
      { node: 'dead-node', trigger: 'schedule', attempt: 1, outcome: 'interrupted' },
      { node: 'b', trigger: 'retry', attempt: 2, outcome: 'succeeded' },
    ]);

    // A run that kills its node every time is not taken up without end.
    await Promise.all(schedulers.splice(0).map((scheduler) => scheduler.stop()));
    await makeDue('orphaned');
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const taken = await claimJob(db(), {
        jobId: 'orphaned',
        node: `dying-${attempt}`,
        leaseMs: 1,
        intervalMs: 3_600_000,
        trigger: 'schedule',
      });
      expect(taken).toMatchObject({ claimed: true, attempt });
      await sleep(20);
    }
    const last = await claimJob(db(), {
      jobId: 'orphaned',
      node: 'another',
      leaseMs: 1000,
      intervalMs: 3_600_000,
      trigger: 'schedule',
    });
    expect(last).toEqual({ claimed: false, reason: 'gave-up' });
    const [row] = await selectRows<{ current_run_id: number | null; due_later: boolean }>(
      db(),
      sql`SELECT current_run_id, next_run_at > now() AS due_later FROM scheduled_jobs WHERE id = 'orphaned'`,
    );
    expect(row).toEqual({ current_run_id: null, due_later: true });
    expect((await runsOf('orphaned')).slice(-MAX_ATTEMPTS).map((run) => run.outcome)).toEqual(
      Array(MAX_ATTEMPTS).fill('interrupted'),
    );
  });
});

describe('schedulers of several nodes on one PostgreSQL', () => {
  let testDatabase: TestDatabase;
  const connections: DatabaseConnection[] = [];
  const schedulers: Scheduler[] = [];
  const openNode = async () => {
    const connection = await openDatabase({
      databaseUrl: testDatabase.databaseUrl,
      dataDir: '',
      maxConnections: 3,
    });
    connections.push(connection);
    return connection.db;
  };

  beforeAll(async () => {
    testDatabase = await createTestDatabase({ kind: 'postgres' });
  });
  afterAll(async () => {
    await Promise.all(schedulers.map((scheduler) => scheduler.stop()));
    await Promise.all(connections.map((connection) => connection.close()));
    await testDatabase.dispose();
  });

  it('never run a job at once, whichever looks first or is asked to run it now', async () => {
    let active = 0;
    let mostAtOnce = 0;
    const ranOn = new Set<string>();
    const definitionFor = (node: string) => [
      job(
        'exclusive',
        async () => {
          active++;
          mostAtOnce = Math.max(mostAtOnce, active);
          ranOn.add(node);
          await sleep(40);
          active--;
          return node;
        },
        20,
      ),
    ];
    const nodes = ['node-1', 'node-2', 'node-3'];
    for (const node of nodes) {
      const scheduler = testScheduler(await openNode(), definitionFor(node), { node, pollMs: 30 });
      schedulers.push(scheduler);
      await scheduler.start();
    }
    // Meanwhile administrators on every node keep asking to run it now: each is refused while it runs.
    let refused = 0;
    const deadline = Date.now() + 3000;
    await Promise.all(
      schedulers.map(async (scheduler) => {
        while (Date.now() < deadline) {
          await scheduler.runNow('exclusive', { requestedBy: null }).catch((error: unknown) => {
            if (!(error instanceof JobBusyError)) throw error;
            refused++;
          });
          await sleep(15);
        }
      }),
    );
    await Promise.all(schedulers.map((scheduler) => scheduler.stop()));
    const [counts] = await selectRows<{ runs: number; overlapping: number }>(
      testDatabase.database.db,
      sql`SELECT (SELECT count(*)::int FROM scheduled_job_runs WHERE job_id = 'exclusive') AS runs,
        (SELECT count(*)::int FROM scheduled_job_runs a JOIN scheduled_job_runs b
          ON a.job_id = b.job_id AND a.id < b.id AND b.started_at < a.finished_at
          WHERE a.job_id = 'exclusive') AS overlapping`,
    );
    expect(mostAtOnce).toBe(1);
    expect(counts!.overlapping).toBe(0);
    expect(counts!.runs).toBeGreaterThan(10);
    expect(refused).toBeGreaterThan(0);
    expect(ranOn.size).toBeGreaterThan(1);
  });

  it('retries on another node a run whose server was killed with SIGKILL in the middle of it', async () => {
    // The job is due before the doomed node starts; it takes it at its first look.
    await testDatabase.database.db.execute(sql`INSERT INTO scheduled_jobs (id, next_run_at)
      VALUES ('slow-job', now() - interval '1 second')`);
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/admin/scheduler-node.ts'], {
      cwd: SERVER_DIRECTORY,
      env: {
        ...process.env,
        DATABASE_URL: testDatabase.databaseUrl,
        NODE_NAME: 'doomed-node',
        LEASE_MS: '1500',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      await until(async () => output.includes('running doomed-node'), 60_000, 'the child to run the job');
    } catch (error) {
      child.kill('SIGKILL');
      throw new Error(`${(error as Error).message}\n${output}`);
    }
    child.kill('SIGKILL');
    await exited;

    let retried = 0;
    const survivor = testScheduler(
      await openNode(),
      [
        job('slow-job', async () => {
          retried++;
          return 'finished on the survivor';
        }),
      ],
      { node: 'survivor', pollMs: 100, leaseMs: 1500 },
    );
    schedulers.push(survivor);
    await survivor.start();
    await until(async () => retried === 1, 30_000, 'the survivor to retry the job');
    await until(async () => (await survivor.list())[0]!.lastRun?.outcome === 'succeeded');
    const detail = await survivor.detail('slow-job');
    expect(
      detail.runs.map(({ node, trigger, attempt, outcome }) => ({ node, trigger, attempt, outcome })),
    ).toEqual([
      { node: 'survivor', trigger: 'retry', attempt: 2, outcome: 'succeeded' },
      { node: 'doomed-node', trigger: 'schedule', attempt: 1, outcome: 'interrupted' },
    ]);
    expect(detail.lastRun?.summary).toBe('finished on the survivor');
  });
});
