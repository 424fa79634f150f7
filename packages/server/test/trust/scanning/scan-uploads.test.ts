import type {
  ApprovalQueueBody,
  PluginScansBody,
  ScanQueueBody,
  VersionScanStatusBody,
} from '@marketplace/api-contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { selectRows } from '../../../src/search/sql';
import { archiveBytes, pluginJarContent, pluginXml } from '../../archive/plugin-fixtures';
import { multipartBody } from '../../publishing/publishing-test-app';
import { createReviewsTestApp, type ReviewsTestApp } from '../../reviews/reviews-test-app';
import { elfHeader, privateKeyPem } from './scan-fixtures';

// The real application (buildApp): versions come through the real upload route, are scanned by the
// scanner the upload nudges, and are approved and released through the real routes.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let t: ReviewsTestApp;
const people = { vendor: 0, admin: 0, stranger: 0 };

/** A plugin jar with this id, name and version, and whatever else `extra` adds. */
async function jar(id: string, name: string, version: string, extra: Record<string, string | Buffer> = {}) {
  return archiveBytes({
    ...pluginJarContent(
      pluginXml({
        id: `<id>${id}</id>`,
        name: `<name>${name}</name>`,
        version: `<version>${version}</version>`,
        vendor: '<vendor email="dev@example.com" url="https://example.com">Scanned Ltd</vendor>',
      }),
    ),
    ...extra,
  });
}

async function uploadNew(archive: Buffer): Promise<{ pluginId: number; versionId: number }> {
  const { body, headers } = multipartBody(
    { licenseUrl: 'https://example.com/license', tags: 'Tools' },
    { name: 'plugin.jar', content: archive },
  );
  const answer = await t.call(people.vendor, {
    method: 'POST',
    url: '/api/plugins/intellij/upload',
    headers,
    payload: body,
  });
  expect(answer.statusCode, answer.body).toBe(200);
  const plugin = answer.json<{ id: number; update: { id: number } }>();
  return { pluginId: plugin.id, versionId: plugin.update.id };
}

async function uploadUpdate(xmlId: string, archive: Buffer): Promise<number> {
  const { body, headers } = multipartBody({ xmlId }, { name: 'plugin.jar', content: archive });
  const answer = await t.call(people.vendor, {
    method: 'POST',
    url: '/api/updates/upload',
    headers,
    payload: body,
  });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<{ id: number }>().id;
}

async function lifecycle(pluginId: number, action: 'publish' | 'approve') {
  const answer = await t.call(action === 'publish' ? people.vendor : people.admin, {
    method: 'POST',
    url: `/api/plugins/${pluginId}/${action}`,
  });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<{ listed: boolean }>();
}

const download = (userId: number | undefined, versionId: number) =>
  t.call(userId, { method: 'GET', url: `/plugin/download?updateId=${versionId}` });
const feed = async () =>
  (await t.call(undefined, { method: 'GET', url: '/plugins/list?build=IU-242.1' })).body;
const searchIds = async (text: string) =>
  (await t.call(undefined, { method: 'GET', url: `/api/searchPlugins?search=${encodeURIComponent(text)}` }))
    .json<{ plugins: { id: number }[] }>()
    .plugins.map((plugin) => plugin.id);

/** The version's scan as its vendor reads it, once the scan the upload started has ended. */
async function scanned(versionId: number): Promise<VersionScanStatusBody> {
  let status: VersionScanStatusBody | undefined;
  await expect
    .poll(async () => {
      const answer = await t.call(people.vendor, { method: 'GET', url: `/api/trust/scans/${versionId}` });
      status = answer.json<VersionScanStatusBody>();
      return status.state;
    })
    .not.toBe('pending');
  return status!;
}

beforeAll(async () => {
  t = await createReviewsTestApp({ catalogue: false });
  people.vendor = await t.addUser('scan-vendor');
  people.admin = await t.addUser('scan-admin', { isAdmin: true });
  people.stranger = await t.addUser('scan-stranger');
  await t.db.execute(sql`INSERT INTO tags (name) VALUES ('Tools')`);
});
afterAll(async () => t?.close());

describe('every uploaded version is scanned before it is listed', () => {
  it('lists a clean version once its scan has passed', async () => {
    const { pluginId, versionId } = await uploadNew(
      await jar('com.scanned.clean', 'Clean Scanned Tool', '1.0.0'),
    );
    const status = await scanned(versionId);
    expect(status).toMatchObject({ versionId, state: 'passed', job: { state: 'done', attempts: 1 } });
    expect(status.scan).toMatchObject({ verdict: 'passed', engines: ['built-in'], findings: [] });
    expect(status.scan!.entriesScanned).toBe(4);

    await lifecycle(pluginId, 'publish');
    expect(await lifecycle(pluginId, 'approve')).toMatchObject({ listed: true });
    expect((await download(undefined, versionId)).statusCode).toBe(200);
    expect(await feed()).toContain('<id>com.scanned.clean</id>');
    expect(await searchIds('Clean Scanned Tool')).toContain(pluginId);
  });

  it('quarantines a version holding a private key: hidden from visitors, downloadable by its vendor and administrators, until released', async () => {
    const archive = await jar('com.scanned.leaky', 'Leaky Scanned Tool', '1.0.0', {
      'config/deploy-key.pem': privateKeyPem(),
    });
    const { pluginId, versionId } = await uploadNew(archive);
    const status = await scanned(versionId);
    expect(status.state).toBe('quarantined');
    expect(status.scan!.findings).toEqual([
      {
        kind: 'secret',
        severity: 'high',
        path: 'config/deploy-key.pem',
        message:
          'A private key (RSA PRIVATE KEY) on line 1. Anyone who downloads the plugin could use it: revoke the key and upload a version without it.',
      },
    ]);
    // Vendors are not told which administrator decided anything: there is no decision yet anyway.
    expect(status.scan!.decision).toBeNull();

    // The moderators see the finding in the approval queue's flags.
    await lifecycle(pluginId, 'publish');
    const queue = await t.call(people.admin, { method: 'GET', url: '/api/admin/plugins/pending' });
    const waiting = queue.json<ApprovalQueueBody>().find((entry) => entry.id === pluginId);
    expect(waiting?.flags).toEqual([
      expect.stringContaining(
        'The scan of version 1.0.0 quarantined it: it is offered to nobody but its developers and administrators until an administrator releases or rejects it (Trust page). [high] config/deploy-key.pem: A private key (RSA PRIVATE KEY) on line 1.',
      ),
    ]);

    // Approved, but its only version is held: the item is not listed at all.
    expect(await lifecycle(pluginId, 'approve')).toMatchObject({ listed: false });
    expect((await download(undefined, versionId)).statusCode).toBe(404);
    expect((await download(people.stranger, versionId)).statusCode).toBe(404);
    expect((await t.call(undefined, { method: 'GET', url: `/api/plugins/${pluginId}` })).statusCode).toBe(
      404,
    );
    expect(await feed()).not.toContain('com.scanned.leaky');
    expect(await searchIds('Leaky Scanned Tool')).not.toContain(pluginId);
    const vendorDownload = await download(people.vendor, versionId);
    expect(vendorDownload.statusCode).toBe(200);
    // The archive as stored (countersigned by the marketplace), the key still in it.
    expect(vendorDownload.rawPayload.includes(Buffer.from('config/deploy-key.pem'))).toBe(true);
    expect((await download(people.admin, versionId)).statusCode).toBe(200);

    // The administrators' scan section lists it with its finding.
    const list = await t.call(people.admin, { method: 'GET', url: '/api/admin/trust/scans' });
    expect(list.statusCode).toBe(200);
    const body = list.json<ScanQueueBody>();
    expect(body).toMatchObject({ quarantineSeverity: 'high', engines: ['built-in'] });
    expect(body.entries.find((entry) => entry.versionId === versionId)).toMatchObject({
      version: '1.0.0',
      state: 'quarantined',
      plugin: { id: pluginId, name: 'Leaky Scanned Tool', xmlId: 'com.scanned.leaky', vendor: 'Scanned Ltd' },
      scan: { verdict: 'quarantined', findings: [{ kind: 'secret', path: 'config/deploy-key.pem' }] },
    });

    // Only administrators decide.
    const byVendor = await t.call(people.vendor, {
      method: 'POST',
      url: `/api/admin/trust/scans/${versionId}/release`,
      payload: {},
    });
    expect(byVendor.statusCode).toBe(403);
    const released = await t.call(people.admin, {
      method: 'POST',
      url: `/api/admin/trust/scans/${versionId}/release`,
      payload: { reason: 'A test key of the sample project, revoked' },
    });
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json()).toMatchObject({
      state: 'released',
      scan: {
        decision: {
          action: 'release',
          by: 'scan-admin',
          reason: 'A test key of the sample project, revoked',
        },
      },
    });

    // Listed again, everywhere.
    expect((await download(undefined, versionId)).statusCode).toBe(200);
    expect((await t.call(undefined, { method: 'GET', url: `/api/plugins/${pluginId}` })).statusCode).toBe(
      200,
    );
    expect(await feed()).toContain('<id>com.scanned.leaky</id>');
    expect(await searchIds('Leaky Scanned Tool')).toContain(pluginId);
    // The decision is audited, and the flag leaves the queue.
    const [audit] = await selectRows<{ action: string; actor_id: number; details: Record<string, unknown> }>(
      t.db,
      sql`SELECT action, actor_id, details FROM plugin_audit_log WHERE details->>'subject' = ${`version:${versionId}`}`,
    );
    expect(audit).toMatchObject({
      action: 'scan.release',
      actor_id: people.admin,
      details: { reason: 'A test key of the sample project, revoked', pluginId, stateBefore: 'quarantined' },
    });
    const [note] = await selectRows<{ resolved: boolean }>(
      t.db,
      sql`SELECT resolved_at IS NOT NULL AS resolved FROM admin_notes WHERE plugin_id = ${pluginId}`,
    );
    expect(note?.resolved).toBe(true);
    // Released once: a second decision is refused and changes nothing.
    const again = await t.call(people.admin, {
      method: 'POST',
      url: `/api/admin/trust/scans/${versionId}/reject`,
      payload: {},
    });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toBe(
      'Version 1.0.0 of Leaky Scanned Tool is released: only a quarantined version can be rejected.',
    );
  });

  it('holds back a quarantined update while the older version stays offered, and rejects it for good', async () => {
    const { pluginId, versionId: first } = await uploadNew(
      await jar('com.scanned.update', 'Updated Scanned Tool', '1.0.0'),
    );
    await lifecycle(pluginId, 'publish');
    await lifecycle(pluginId, 'approve');
    const update = await uploadUpdate(
      'com.scanned.update',
      await jar('com.scanned.update', 'Updated Scanned Tool', '1.1.0', {
        'icons/logo.png': elfHeader(2),
        'deploy.properties': 'aws.key=AKIAZ2YQ7M4BXKQ3PLMN\n',
      }),
    );
    expect(await lifecycle(pluginId, 'approve')).toMatchObject({ listed: true });
    const status = await scanned(update);
    expect(status.state).toBe('quarantined');
    expect(status.scan!.findings.map((finding) => [finding.severity, finding.kind, finding.path])).toEqual([
      ['high', 'secret', 'deploy.properties'],
      ['high', 'native-binary', 'icons/logo.png'],
    ]);
    expect((await download(undefined, update)).statusCode).toBe(404);
    expect((await download(undefined, first)).statusCode).toBe(200);
    const listing = await feed();
    expect(listing).toContain('<id>com.scanned.update</id>');
    expect(listing).not.toContain('<version>1.1.0</version>');

    const rejected = await t.call(people.admin, {
      method: 'POST',
      url: `/api/admin/trust/scans/${update}/reject`,
      payload: { reason: 'Ships a live AWS key' },
    });
    expect(rejected.json()).toMatchObject({ state: 'rejected', approvalState: 'rejected' });
    expect((await download(undefined, update)).statusCode).toBe(404);
    const releaseLater = await t.call(people.admin, {
      method: 'POST',
      url: `/api/admin/trust/scans/${update}/release`,
      payload: {},
    });
    expect(releaseLater.statusCode).toBe(409);
    const rejectedList = await t.call(people.admin, {
      method: 'GET',
      url: '/api/admin/trust/scans?state=rejected',
    });
    expect(rejectedList.json<ScanQueueBody>().entries.map((entry) => entry.versionId)).toContain(update);
  });

  it("shows a version's scan to its people and administrators only", async () => {
    const { versionId } = await uploadNew(await jar('com.scanned.private', 'Private Scanned Tool', '1.0.0'));
    await scanned(versionId);
    const stranger = await t.call(people.stranger, { method: 'GET', url: `/api/trust/scans/${versionId}` });
    expect(stranger.statusCode).toBe(403);
    const guest = await t.call(undefined, { method: 'GET', url: `/api/trust/scans/${versionId}` });
    expect(guest.statusCode).toBe(401);
    const admin = await t.call(people.admin, { method: 'GET', url: `/api/trust/scans/${versionId}` });
    expect(admin.json()).toMatchObject({ state: 'passed' });
    const missing = await t.call(people.admin, { method: 'GET', url: '/api/trust/scans/999999' });
    expect(missing.statusCode).toBe(404);
  });

  it("lists an item's held versions with their findings in one call, to its people and administrators only", async () => {
    const { pluginId, versionId: first } = await uploadNew(
      await jar('com.scanned.listed', 'Listed Scanned Tool', '1.0.0'),
    );
    await scanned(first);
    const held = await uploadUpdate(
      'com.scanned.listed',
      await jar('com.scanned.listed', 'Listed Scanned Tool', '1.1.0', {
        'config/deploy-key.pem': privateKeyPem(),
      }),
    );
    await scanned(held);
    const url = `/api/plugins/${pluginId}/scans`;

    // The version that passed is not listed: only the one scanning holds back, with what was found.
    const byVendor = await t.call(people.vendor, { method: 'GET', url });
    expect(byVendor.statusCode, byVendor.body).toBe(200);
    expect(byVendor.json<PluginScansBody>()).toEqual({
      versions: [
        {
          versionId: held,
          state: 'quarantined',
          scan: expect.objectContaining({
            verdict: 'quarantined',
            findings: [expect.objectContaining({ kind: 'secret', path: 'config/deploy-key.pem' })],
            decision: null,
          }),
          job: expect.objectContaining({ state: 'done' }),
        },
      ],
    });
    // The same answer as the version's own route.
    const single = await t.call(people.vendor, { method: 'GET', url: `/api/trust/scans/${held}` });
    expect(byVendor.json<PluginScansBody>().versions[0]).toEqual(single.json());

    const admin = await t.call(people.admin, { method: 'GET', url });
    expect(admin.json<PluginScansBody>().versions.map((version) => version.versionId)).toEqual([held]);
    expect((await t.call(people.stranger, { method: 'GET', url })).statusCode).toBe(403);
    expect((await t.call(undefined, { method: 'GET', url })).statusCode).toBe(401);
    const missing = await t.call(people.admin, { method: 'GET', url: '/api/plugins/2147483647/scans' });
    expect(missing.statusCode).toBe(404);

    // Once rejected it stays listed (held for good), the deciding administrator not named to the vendor.
    await t.call(people.admin, {
      method: 'POST',
      url: `/api/admin/trust/scans/${held}/reject`,
      payload: { reason: 'Ships a private key' },
    });
    const afterReject = (await t.call(people.vendor, { method: 'GET', url })).json<PluginScansBody>();
    expect(afterReject.versions).toMatchObject([
      { versionId: held, state: 'rejected', scan: { decision: { action: 'reject', by: null } } },
    ]);
  });
});
