import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { selectRows } from '../../src/search/sql';
import { enqueueVerification, runVerificationWorker } from '../../src/verification';
import { claimJob, completeJob } from '../../src/verification/queue';
import { loadVerification } from '../../src/verification/repository';
import { pluginXml } from '../archive/plugin-fixtures';
import { multipartBody } from '../publishing/publishing-test-app';
import { DATABASE_KINDS } from '../db/test-database';
import { archiveBytes } from '../archive/plugin-fixtures';
import { pluginJarContent, xmlFor } from './verification-fixtures';
import { createVerificationTestApp, type VerificationTestApp } from './verification-test-app';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

interface JobRow {
  id: number;
  state: string;
  attempts: number;
  last_error: string | null;
}

describe.each(DATABASE_KINDS)('the verification worker on %s', (kind) => {
  let t: VerificationTestApp;
  beforeAll(async () => {
    t = await createVerificationTestApp(kind);
  });
  afterAll(async () => t?.close());

  const jobsOf = (versionId: number) =>
    selectRows<JobRow>(
      t.db,
      sql`SELECT id, state, attempts, last_error FROM verification_jobs WHERE version_id = ${versionId} ORDER BY id`,
    );
  const notes = () =>
    selectRows<{ text: string }>(
      t.db,
      sql`SELECT text FROM admin_notes WHERE plugin_id = ${t.pluginId} ORDER BY id`,
    );
  const verificationOf = async (versionId: number) => {
    const [row] = await selectRows<{ id: number }>(
      t.db,
      sql`SELECT id FROM verifications WHERE version_id = ${versionId} ORDER BY id DESC LIMIT 1`,
    );
    return row ? loadVerification(t.db, row.id) : undefined;
  };

  it('verifies a queued version per claimed build and flags one with problems for moderation', async () => {
    const versionId = await t.addVersion({
      version: '1.0',
      content: pluginJarContent(xmlFor('1.0'), [61, 65]),
    });
    await enqueueVerification(t.db, versionId);
    const notesBefore = (await notes()).length;
    expect(await runVerificationWorker(t.env)).toBe(1);
    expect(await jobsOf(versionId)).toEqual([
      expect.objectContaining({ state: 'done', attempts: 1, last_error: null }),
    ]);
    const verification = await verificationOf(versionId);
    expect(verification?.status).toBe('problems');
    expect(verification?.results.map((result) => `${result.productBuild} ${result.status}`)).toEqual([
      'IU-241.19416.15 problems',
      'IU-242.26775.15 compatible',
      'IU-243.28141.18 compatible',
    ]);
    expect(verification?.findings.map((finding) => finding.kind)).toEqual(['class-file-too-new']);
    const added = (await notes()).slice(notesBefore);
    expect(added).toHaveLength(1);
    expect(added[0]?.text).toContain('of version 1.0 found 1 problem:');
    // Nothing else is due: a second run takes nothing.
    expect(await runVerificationWorker(t.env)).toBe(0);
  });

  it('leaves a compatible version unflagged', async () => {
    const versionId = await t.addVersion({ version: '1.1', content: pluginJarContent(xmlFor('1.1')) });
    await enqueueVerification(t.db, versionId);
    const notesBefore = (await notes()).length;
    await runVerificationWorker(t.env);
    expect((await verificationOf(versionId))?.status).toBe('compatible');
    expect(await notes()).toHaveLength(notesBefore);
  });

  it('does not queue a version twice while a job is waiting', async () => {
    const versionId = await t.addVersion({ version: '1.2', content: pluginJarContent(xmlFor('1.2')) });
    const first = await enqueueVerification(t.db, versionId);
    expect(await enqueueVerification(t.db, versionId)).toBe(first);
    await runVerificationWorker(t.env);
    expect(await enqueueVerification(t.db, versionId)).not.toBe(first);
    await runVerificationWorker(t.env);
  });

  it('takes up again a job whose worker died, once its lease has expired, and ignores the dead worker', async () => {
    const versionId = await t.addVersion({ version: '2.0', content: pluginJarContent(xmlFor('2.0')) });
    const jobId = await enqueueVerification(t.db, versionId);
    const claimed = await claimJob(t.db, 'dead-worker', 60_000);
    expect(claimed).toMatchObject({ id: jobId, attempts: 1 });
    // The lease still runs: nobody else may take the job.
    expect(await runVerificationWorker(t.env)).toBe(0);
    await t.db.execute(
      sql`UPDATE verification_jobs SET lease_expires_at = now() - interval '1 second' WHERE id = ${jobId}`,
    );
    expect(await runVerificationWorker(t.env, { worker: 'live-worker' })).toBe(1);
    expect(await jobsOf(versionId)).toEqual([expect.objectContaining({ state: 'done', attempts: 2 })]);
    // The dead worker waking up cannot complete a job it no longer holds.
    expect(await completeJob(t.db, jobId, 'dead-worker')).toBe(false);
    const [count] = await selectRows<{ count: number }>(
      t.db,
      sql`SELECT count(*)::int AS count FROM verifications WHERE version_id = ${versionId}`,
    );
    expect(count?.count).toBe(1);
  });

  it('gives a job up when its worker died on the last attempt', async () => {
    const versionId = await t.addVersion({ version: '2.1', content: pluginJarContent(xmlFor('2.1')) });
    const jobId = await enqueueVerification(t.db, versionId, { maxAttempts: 1 });
    await claimJob(t.db, 'dead-worker', 60_000);
    await t.db.execute(
      sql`UPDATE verification_jobs SET lease_expires_at = now() - interval '1 second' WHERE id = ${jobId}`,
    );
    expect(await runVerificationWorker(t.env)).toBe(0);
    const [job] = await jobsOf(versionId);
    expect(job?.state).toBe('failed');
    expect(job?.last_error).toContain('stopped before it finished');
  });

  it('fails a job at once when the archive is gone, without retrying', async () => {
    const versionId = await t.addVersion({ version: '2.2', fileHash: 'no-such-file' });
    await enqueueVerification(t.db, versionId);
    expect(await runVerificationWorker(t.env)).toBe(1);
    const [job] = await jobsOf(versionId);
    expect(job).toMatchObject({ state: 'failed', attempts: 1 });
    expect(job?.last_error).toContain('missing from the file store');
  });

  it('never hands the same job to two workers', async () => {
    const first = await t.addVersion({ version: '3.0', content: pluginJarContent(xmlFor('3.0')) });
    const second = await t.addVersion({ version: '3.1', content: pluginJarContent(xmlFor('3.1')) });
    await enqueueVerification(t.db, first);
    await enqueueVerification(t.db, second);
    const [a, b] = await Promise.all([
      claimJob(t.db, 'worker-a', 60_000),
      claimJob(t.db, 'worker-b', 60_000),
    ]);
    expect(a).toBeDefined();
    expect(b).toBeDefined();
    expect(a?.id).not.toBe(b?.id);
    await t.db.execute(
      sql`UPDATE verification_jobs SET lease_expires_at = now() - interval '1 second' WHERE state = 'running'`,
    );
    expect(await runVerificationWorker(t.env)).toBe(2);
  });

  it('queues a job when a version is uploaded, and verifies nothing in the upload request', async () => {
    const jar = await archiveBytes(pluginJarContent(pluginXml({ version: '<version>9.0</version>' })));
    const { body, headers } = multipartBody(
      { pluginId: String(t.pluginId) },
      { name: 'rainbow.jar', content: jar },
    );
    const response = await t.call(t.users.owner, {
      method: 'POST',
      url: '/api/updates/upload',
      payload: body,
      headers,
    });
    expect(response.statusCode).toBe(200);
    const versionId = (response.json() as { id: number }).id;
    expect(await jobsOf(versionId)).toEqual([expect.objectContaining({ state: 'queued', attempts: 0 })]);
    expect(await verificationOf(versionId)).toBeUndefined();
    await runVerificationWorker(t.env);
    expect((await verificationOf(versionId))?.status).toBe('compatible');
  });
});
