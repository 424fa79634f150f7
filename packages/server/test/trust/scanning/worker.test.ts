import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildBoundColumns } from '../../../src/db/catalogue-queries';
import { pluginVersions } from '../../../src/db/schema';
import { selectRows } from '../../../src/search/sql';
import {
  enqueueScan,
  runScanWorker,
  scanEnvironment,
  scanOptionsFromEnv,
  type ScanEnvironment,
} from '../../../src/trust/scanning';
import { claimScanJob } from '../../../src/trust/scanning/queue';
import { archiveBytes, pluginJarContent } from '../../archive/plugin-fixtures';
import { createReviewsTestApp, type ReviewsTestApp } from '../../reviews/reviews-test-app';

// The queue and the worker on the real application's database, versions written directly (nothing nudges
// the scanner): the test decides when a worker runs, dies or comes back.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let t: ReviewsTestApp;
let env: ScanEnvironment;
let owner = 0;
let scratch = '';

async function addPlugin(xmlId: string, name: string, ownerId = owner): Promise<number> {
  const [row] = await selectRows<{ id: number }>(
    t.db,
    sql`INSERT INTO plugins (family, xml_id, name, owner_id, lifecycle_state, approved, published_at)
      VALUES ('intellij', ${xmlId}, ${name}, ${ownerId}, 'published', true, now()) RETURNING id`,
  );
  return row!.id;
}

/** An approved version of the plugin with a real stored archive, queued for its scan as the upload does. */
async function addVersion(pluginId: number, version: string): Promise<number> {
  const stored = await t.app.fileStore.put(await archiveBytes(pluginJarContent()));
  return t.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(pluginVersions)
      .values({
        pluginId,
        version,
        sinceBuild: '241',
        untilBuild: '243.*',
        ...buildBoundColumns('241', '243.*'),
        fileHash: stored.hash,
        fileSize: stored.size,
        fileName: `plugin-${version}.jar`,
        authorId: owner,
        approvalState: 'approved',
      })
      .returning({ id: pluginVersions.id });
    await enqueueScan(tx, row!.id);
    return row!.id;
  });
}

const stateOf = async (versionId: number) =>
  (
    await selectRows<{ scan_state: string }>(
      t.db,
      sql`SELECT scan_state FROM plugin_versions WHERE id = ${versionId}`,
    )
  )[0]?.scan_state;
const jobOf = async (versionId: number) =>
  (
    await selectRows<{ state: string; attempts: number; last_error: string | null }>(
      t.db,
      sql`SELECT state, attempts, last_error FROM scan_jobs WHERE version_id = ${versionId} ORDER BY id DESC LIMIT 1`,
    )
  )[0];
const visitorDownload = async (versionId: number) =>
  (await t.call(undefined, { method: 'GET', url: `/plugin/download?updateId=${versionId}` })).statusCode;
const expireLeases = () =>
  t.db.execute(
    sql`UPDATE scan_jobs SET lease_expires_at = now() - interval '1 second' WHERE state = 'running'`,
  );

beforeAll(async () => {
  t = await createReviewsTestApp({ catalogue: false });
  owner = await t.addUser('scan-worker-owner');
  env = scanEnvironment(t.app, { ...scanOptionsFromEnv({}), leaseMs: 60_000 });
  scratch = await mkdtemp(join(tmpdir(), 'scan-worker-'));
});
afterAll(async () => {
  await t?.close();
  await rm(scratch, { recursive: true, force: true });
});

describe('the scan queue', () => {
  it('holds a version back until its scan, and takes up again a job whose worker died once its lease expired', async () => {
    const pluginId = await addPlugin('com.scanned.worker', 'Worker Scanned Tool');
    const versionId = await addVersion(pluginId, '1.0.0');
    expect(await stateOf(versionId)).toBe('pending');
    expect(await visitorDownload(versionId)).toBe(404);

    // A worker claims the job and dies: while its lease runs nobody else takes the job.
    const claimed = await claimScanJob(t.db, 'worker-that-dies', 60_000);
    expect(claimed).toMatchObject({ versionId, attempts: 1 });
    expect(await runScanWorker(env, { worker: 'second-worker' })).toBe(0);
    expect(await jobOf(versionId)).toMatchObject({ state: 'running', attempts: 1 });

    // Its lease expires: the next worker scans it (second attempt), and the version is offered.
    await expireLeases();
    expect(await runScanWorker(env, { worker: 'second-worker' })).toBe(1);
    expect(await jobOf(versionId)).toMatchObject({ state: 'done', attempts: 2 });
    expect(await stateOf(versionId)).toBe('passed');
    expect(await visitorDownload(versionId)).toBe(200);
  });

  it('gives a job up when its worker died on every attempt, and the version stays held back', async () => {
    const pluginId = await addPlugin('com.scanned.doomed', 'Doomed Scanned Tool');
    const versionId = await addVersion(pluginId, '1.0.0');
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      expect(await claimScanJob(t.db, `dying-worker-${attempt}`, 60_000)).toMatchObject({
        attempts: attempt,
      });
      await expireLeases();
    }
    expect(await runScanWorker(env)).toBe(0);
    expect(await jobOf(versionId)).toMatchObject({
      state: 'failed',
      attempts: 3,
      last_error: 'The worker scanning it stopped before it finished, on every attempt.',
    });
    expect(await stateOf(versionId)).toBe('pending');
    expect(await visitorDownload(versionId)).toBe(404);
  });

  it('retries a scan ClamAV could not do, and on the last attempt quarantines the version for a person to decide', async () => {
    const clamscan = join(scratch, 'clamscan');
    await writeFile(
      clamscan,
      '#!/bin/sh\necho "ERROR: Could not connect to clamd on LocalSocket /run/clamav/clamd.ctl" >&2\nexit 2\n',
    );
    await chmod(clamscan, 0o755);
    const withClamav: ScanEnvironment = {
      ...env,
      options: { ...env.options, clamav: { command: clamscan, args: [], timeoutMs: 10_000 } },
    };
    const pluginId = await addPlugin('com.scanned.clamav', 'ClamAV Scanned Tool');
    const versionId = await addVersion(pluginId, '1.0.0');
    expect(await runScanWorker(withClamav)).toBe(1);
    expect(await jobOf(versionId)).toMatchObject({
      state: 'queued',
      attempts: 1,
      last_error:
        'ClamAV ended with exit code 2 (an error): ERROR: Could not connect to clamd on LocalSocket /run/clamav/clamd.ctl',
    });
    expect(await stateOf(versionId)).toBe('pending');
    // The back-off is the queue's; here the test makes the retries due at once.
    for (let attempt = 2; attempt <= 3; attempt += 1) {
      await t.db.execute(sql`UPDATE scan_jobs SET available_at = now() WHERE version_id = ${versionId}`);
      expect(await runScanWorker(withClamav)).toBe(1);
    }
    expect(await jobOf(versionId)).toMatchObject({ state: 'done', attempts: 3 });
    expect(await stateOf(versionId)).toBe('quarantined');
    const [scan] = await selectRows<{ findings: { kind: string; severity: string; message: string }[] }>(
      t.db,
      sql`SELECT findings FROM version_scans WHERE version_id = ${versionId}`,
    );
    expect(scan?.findings).toEqual([
      {
        kind: 'clamav-failed',
        severity: 'high',
        path: '(archive)',
        message:
          'ClamAV ended with exit code 2 (an error): ERROR: Could not connect to clamd on LocalSocket /run/clamav/clamd.ctl The archive was not scanned by ClamAV.',
      },
    ]);
  });

  it('applies the look-alike rules to an item that slipped in beside an older one, and never to the older one', async () => {
    const other = await t.addUser('scan-worker-other');
    const older = await addPlugin('com.example.lookalike', 'Lookalike Original', other);
    const newer = await addPlugin('com.ex\u0430mple.lookalike', 'Something Else Entirely');
    const olderVersion = await addVersion(older, '1.0.0');
    const newerVersion = await addVersion(newer, '1.0.0');
    expect(await runScanWorker(env)).toBe(2);
    expect(await stateOf(olderVersion)).toBe('passed');
    expect(await stateOf(newerVersion)).toBe('quarantined');
    const [scan] = await selectRows<{ findings: { kind: string; path: string; message: string }[] }>(
      t.db,
      sql`SELECT findings FROM version_scans WHERE version_id = ${newerVersion}`,
    );
    expect(scan?.findings).toEqual([
      {
        kind: 'look-alike',
        severity: 'high',
        path: '(id and name)',
        message:
          'The id com.ex\u0430mple.lookalike looks like com.example.lookalike (Lookalike Original), which already exists.',
      },
    ]);
  });
});
