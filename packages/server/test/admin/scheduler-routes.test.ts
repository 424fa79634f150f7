import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ScheduledJob, ScheduledJobDetail } from '@marketplace/api-contract';
import { selectRows } from '../../src/search/sql';
import { DATABASE_KINDS } from '../db/test-database';
import { createReviewsTestApp, type ReviewsTestApp } from '../reviews/reviews-test-app';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const JOB_IDS = [
  'insight-rollup',
  'price-changes',
  'verification-queue',
  'trust-scan',
  'orphan-sweep',
  'token-cleanup',
  'search-reindex',
  'trust-mirror',
];

describe.each(DATABASE_KINDS)('the scheduler routes on %s', (kind) => {
  let t: ReviewsTestApp;
  let admin: number;
  let developer: number;
  const pollBefore = process.env.SCHEDULER_POLL_SECONDS;

  beforeAll(async () => {
    // This node's loop stays off: only the administrator's "run now" runs a job here.
    process.env.SCHEDULER_POLL_SECONDS = '0';
    t = await createReviewsTestApp({ kind, catalogue: false });
    admin = await t.addUser('scheduler-admin', { isAdmin: true });
    developer = await t.addUser('scheduler-developer');
  });
  afterAll(async () => {
    if (pollBefore === undefined) delete process.env.SCHEDULER_POLL_SECONDS;
    else process.env.SCHEDULER_POLL_SECONDS = pollBefore;
    await t?.close();
  });

  const auditOf = (jobId: string) =>
    selectRows<{ action: string; actor_id: number; details: Record<string, unknown> }>(
      t.db,
      sql`SELECT action, actor_id, details FROM plugin_audit_log
        WHERE details->>'subject' = ${`job:${jobId}`} ORDER BY id`,
    );

  it('lists every recurring job with its state, interval, last and next run', async () => {
    const answer = await t.call(admin, { method: 'GET', url: '/api/scheduler' });
    expect(answer.statusCode, answer.body).toBe(200);
    const jobs = answer.json<ScheduledJob[]>();
    expect(jobs.map((job) => job.id)).toEqual(JOB_IDS);
    const rollup = jobs[0]!;
    expect(rollup).toMatchObject({
      title: 'Statistics roll-up',
      state: 'waiting',
      paused: false,
      intervalSeconds: 300,
      setting: 'INSIGHT_ROLLUP_SECONDS',
      lastRun: null,
      currentRun: null,
    });
    expect(rollup.nextRun).toBeGreaterThan(Date.now());
    expect(jobs.find((job) => job.id === 'price-changes')).toMatchObject({
      intervalSeconds: 60,
      setting: null,
    });
  });

  it('refuses guests and non-administrators', async () => {
    for (const [user, status] of [
      [undefined, 401],
      [developer, 403],
    ] as const) {
      expect((await t.call(user, { method: 'GET', url: '/api/scheduler' })).statusCode).toBe(status);
      expect((await t.call(user, { method: 'GET', url: '/api/scheduler/insight-rollup' })).statusCode).toBe(
        status,
      );
      const run = await t.call(user, { method: 'POST', url: '/api/scheduler/insight-rollup/run' });
      expect(run.statusCode).toBe(status);
    }
    expect(await auditOf('insight-rollup')).toEqual([]);
  });

  it('runs a job now and answers with its outcome, in the job’s history and the audit log', async () => {
    const answer = await t.call(admin, {
      method: 'POST',
      url: '/api/scheduler/insight-rollup/run',
      payload: { reason: 'checking the numbers' },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const job = answer.json<ScheduledJobDetail>();
    expect(job.state).toBe('waiting');
    expect(job.lastRun).toMatchObject({ outcome: 'succeeded', trigger: 'manual', requestedBy: admin });
    expect(job.lastRun!.summary).toMatch(/^Rolled up \d+ day\(s\)/);
    expect(job.lastRun!.durationMs).toBeGreaterThanOrEqual(0);
    expect(job.lastRun!.finished).toBeGreaterThanOrEqual(job.lastRun!.started);
    expect(job.runs.map((run) => run.id)).toEqual([job.lastRun!.id]);
    expect(job.nextRun! - Date.now()).toBeGreaterThan(250_000);
    expect(await auditOf('insight-rollup')).toEqual([
      {
        action: 'scheduler.run',
        actor_id: admin,
        details: { subject: 'job:insight-rollup', reason: 'checking the numbers', runId: job.lastRun!.id },
      },
    ]);

    // Every job's work runs from here (the search index is read afresh, the sweep finds nothing...).
    for (const id of JOB_IDS.slice(1)) {
      const run = await t.call(admin, { method: 'POST', url: `/api/scheduler/${id}/run` });
      expect(run.statusCode, run.body).toBe(200);
      expect(run.json<ScheduledJobDetail>().lastRun, id).toMatchObject({ outcome: 'succeeded', error: null });
    }
    // The re-index ran on this node and asked every other node to rebuild its index too.
    const events = await t.db.execute<{ action: string; cache_name: string }>(
      sql`SELECT action, cache_name FROM cache_events ORDER BY id DESC LIMIT 1`,
    );
    expect(events.rows).toEqual([{ action: 'reload', cache_name: 'search-index' }]);
  });

  it('pauses and resumes a job: paused it has no next run; each action is in the audit log', async () => {
    const paused = await t.call(admin, { method: 'POST', url: '/api/scheduler/orphan-sweep/pause' });
    expect(paused.statusCode, paused.body).toBe(200);
    expect(paused.json<ScheduledJobDetail>()).toMatchObject({ state: 'paused', paused: true, nextRun: null });
    const listed = (await t.call(admin, { method: 'GET', url: '/api/scheduler' })).json<ScheduledJob[]>();
    expect(listed.find((job) => job.id === 'orphan-sweep')!.state).toBe('paused');

    // Run now still works on a paused job, and leaves it paused.
    const run = await t.call(admin, { method: 'POST', url: '/api/scheduler/orphan-sweep/run' });
    expect(run.json<ScheduledJobDetail>()).toMatchObject({
      state: 'paused',
      lastRun: { outcome: 'succeeded' },
    });

    const resumed = await t.call(admin, {
      method: 'POST',
      url: '/api/scheduler/orphan-sweep/resume',
      payload: { reason: 'maintenance over' },
    });
    expect(resumed.statusCode, resumed.body).toBe(200);
    const job = resumed.json<ScheduledJobDetail>();
    expect(job).toMatchObject({ state: 'waiting', paused: false });
    expect(job.nextRun).toBeGreaterThan(Date.now());
    const actions = (await auditOf('orphan-sweep')).map((entry) => [entry.action, entry.details.reason]);
    expect(actions).toEqual([
      ['scheduler.run', undefined],
      ['scheduler.pause', undefined],
      ['scheduler.run', undefined],
      ['scheduler.resume', 'maintenance over'],
    ]);
  });

  it('answers an unknown job with 404 and an unknown action or bad input with 400, changing nothing', async () => {
    const before = await selectRows<{ count: number }>(
      t.db,
      sql`SELECT count(*)::int AS count FROM plugin_audit_log`,
    );
    const cases = [
      ['GET', '/api/scheduler/no-such-job', 404, 'There is no scheduled job "no-such-job".'],
      ['POST', '/api/scheduler/no-such-job/run', 404, 'There is no scheduled job "no-such-job".'],
      [
        'POST',
        '/api/scheduler/insight-rollup/explode',
        400,
        '"jobAction" must be one of "run", "pause", "resume"',
      ],
      ['GET', '/api/scheduler/Not%20A%20Job', 400, 'path parameter "id"'],
    ] as const;
    for (const [method, url, status, message] of cases) {
      const answer = await t.call(admin, { method, url });
      expect(answer.statusCode, `${method} ${url}: ${answer.body}`).toBe(status);
      expect(answer.json<{ message: string }>().message).toContain(message);
    }
    const tooLong = await t.call(admin, {
      method: 'POST',
      url: '/api/scheduler/token-cleanup/pause',
      payload: { reason: 'x'.repeat(1001) },
    });
    expect(tooLong.statusCode).toBe(400);
    const notAnObject = await t.call(admin, {
      method: 'POST',
      url: '/api/scheduler/token-cleanup/pause',
      payload: ['pause'],
    });
    expect(notAnObject.statusCode).toBe(400);
    const after = await selectRows<{ count: number }>(
      t.db,
      sql`SELECT count(*)::int AS count FROM plugin_audit_log`,
    );
    expect(after).toEqual(before);
    const cleanup = (
      await t.call(admin, { method: 'GET', url: '/api/scheduler/token-cleanup' })
    ).json<ScheduledJob>();
    expect(cleanup.paused).toBe(false);
  });
});
