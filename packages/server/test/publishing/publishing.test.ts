import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { UserRow } from '../../src/auth/users';
import { pluginVersions } from '../../src/db/schema';
import { unsignedZip, verifySignatures } from '../../src/trust/signatures';
import { pluginJar, TINY_PNG } from './fixtures';
import {
  accessTokenFor,
  addUser,
  buildPublishingTestApp,
  insertPlugin,
  insertTags,
  multipartBody,
  permanentToken,
  storedHashes,
  type PublishingTestApp,
} from './publishing-test-app';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

describe('publishing a plugin', () => {
  let testApp: PublishingTestApp;
  let owner: UserRow;
  let stranger: UserRow;
  let admin: UserRow;
  let ownerUpload: string;
  let ownerManage: string;
  let strangerToken: string;
  let adminToken: string;
  let pluginId: number;

  beforeAll(async () => {
    testApp = await buildPublishingTestApp();
    owner = await addUser(testApp.db, 'owner');
    stranger = await addUser(testApp.db, 'stranger');
    admin = await addUser(testApp.db, 'admin', true);
    ownerUpload = await permanentToken(testApp.db, owner.id, ['upload']);
    ownerManage = await accessTokenFor(testApp, owner.id);
    strangerToken = await accessTokenFor(testApp, stranger.id);
    adminToken = await accessTokenFor(testApp, admin.id);
    pluginId = await insertPlugin(testApp.db, { xmlId: 'com.example.rainbow', ownerId: owner.id });
    await insertTags(testApp.db, ['Editor', 'Theme']);
  });
  afterAll(async () => {
    await testApp.close();
  });

  async function upload(
    token: string,
    fields: Record<string, string>,
    jar: Buffer,
    url = '/api/updates/upload',
  ) {
    const { body, headers } = multipartBody(fields, { name: 'rainbow.jar', content: jar });
    return testApp.app.inject({
      method: 'POST',
      url,
      headers: { ...headers, authorization: `Bearer ${token}` },
      body,
    });
  }

  function as(token: string | undefined) {
    return token ? { authorization: `Bearer ${token}` } : {};
  }

  it('takes a new version by xmlId with an upload token and answers as the vendor API does', async () => {
    const jar = await pluginJar();
    const response = await upload(
      ownerUpload,
      { xmlId: 'com.example.rainbow', notes: '<b>Fixed</b><script>x()</script>' },
      jar,
    );
    expect(response.statusCode).toBe(200);
    const version = response.json<Record<string, unknown>>();
    expect(version).toMatchObject({
      pluginId,
      version: '2.1.0',
      since: '241',
      until: '243.*',
      channel: '',
      downloads: 0,
      hidden: false,
      notes: '<b>Fixed</b>',
    });
    expect(version.downloadUrl).toBe(
      `https://plugins.example.com/plugin/download?updateId=${String(version.id)}`,
    );
    expect(typeof version.cdate).toBe('number');
    expect(await storedHashes(testApp.fileStore)).toHaveLength(1);

    // Waiting for approval: the owner can download it, a visitor cannot.
    const ownerDownload = await testApp.app.inject({
      url: `/plugin/download?updateId=${String(version.id)}`,
      headers: as(ownerManage),
    });
    expect(ownerDownload.statusCode).toBe(200);
    // The archive sent, with the marketplace's countersignature added.
    expect(unsignedZip(ownerDownload.rawPayload).equals(jar)).toBe(true);
    expect(verifySignatures(ownerDownload.rawPayload).signers.map((signer) => signer.valid)).toEqual([true]);
    const visitorDownload = await testApp.app.inject({
      url: `/plugin/download?updateId=${String(version.id)}`,
    });
    expect(visitorDownload.statusCode).toBe(404);
  });

  it('refuses the same version again, an unknown plugin, a stranger and a token without the upload scope', async () => {
    const again = await upload(ownerUpload, { pluginId: String(pluginId) }, await pluginJar());
    expect(again.statusCode).toBe(400);
    expect(again.json<{ errors: string[] }>().errors[0]).toMatch(/Version 2\.1\.0 has already been uploaded/);

    const unknown = await upload(
      ownerUpload,
      { xmlId: 'com.example.unknown' },
      await pluginJar({ id: 'com.example.unknown' }),
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<{ message: string; msg: string }>()).toMatchObject({
      message: expect.stringMatching(/upload the plugin manually at least once/) as unknown,
      msg: expect.stringMatching(/upload the plugin manually at least once/) as unknown,
    });

    const foreign = await upload(
      strangerToken,
      { xmlId: 'com.example.rainbow' },
      await pluginJar({ version: '2.2.0' }),
    );
    expect(foreign.statusCode).toBe(403);

    const manageOnly = await permanentToken(testApp.db, owner.id, ['manage']);
    const wrongScope = await upload(
      manageOnly,
      { xmlId: 'com.example.rainbow' },
      await pluginJar({ version: '2.2.0' }),
    );
    expect(wrongScope.statusCode).toBe(403);
    expect(wrongScope.json<{ message: string }>().message).toMatch(/upload/);

    const noFile = await testApp.app.inject({
      method: 'POST',
      url: '/api/updates/upload',
      headers: { ...as(ownerUpload), 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(noFile.statusCode).toBe(400);
    expect(await storedHashes(testApp.fileStore)).toHaveLength(1);
  });

  it('takes one of two concurrent uploads of the same version and refuses the other', async () => {
    const racePlugin = await insertPlugin(testApp.db, { xmlId: 'com.example.race', ownerId: owner.id });
    const jars = [
      await pluginJar({ id: 'com.example.race', version: '9.0.0' }),
      await pluginJar({ id: 'com.example.race', version: '9.0.0', until: '251.*' }),
    ];
    const answers = await Promise.all(
      jars.map((jar) => upload(ownerUpload, { xmlId: 'com.example.race' }, jar)),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400]);
    const refused = answers.find((answer) => answer.statusCode === 400)!;
    expect(refused.json<{ errors: string[] }>().errors).toHaveLength(1);
    const rows = await testApp.db
      .select({ id: pluginVersions.id })
      .from(pluginVersions)
      .where(sql`${pluginVersions.pluginId} = ${racePlugin}`);
    expect(rows).toHaveLength(1);
    const claims = await testApp.db.execute<{ count: number }>(
      sql`SELECT count(*)::int AS count FROM file_claims`,
    );
    expect(claims.rows[0]?.count).toBe(0);
  });

  it('creates a new plugin from its first archive, as a draft owned by the uploader', async () => {
    const response = await upload(
      ownerUpload,
      { licenseUrl: 'https://www.apache.org/licenses/LICENSE-2.0', tags: 'Editor' },
      await pluginJar({ id: 'com.example.fresh' }),
      '/api/plugins/intellij/upload',
    );
    expect(response.statusCode).toBe(200);
    const created = response.json<{ id: number }>();
    const [row] = (
      await testApp.db.execute<{ lifecycle_state: string; owner_id: number; license_url: string }>(
        sql`SELECT lifecycle_state, owner_id, license_url FROM plugins WHERE id = ${created.id}`,
      )
    ).rows;
    expect(row).toEqual({
      lifecycle_state: 'draft',
      owner_id: owner.id,
      license_url: 'https://www.apache.org/licenses/LICENSE-2.0',
    });

    const duplicate = await upload(
      ownerUpload,
      { licenseUrl: 'https://example.com/license', tags: 'Editor' },
      await pluginJar({ id: 'com.example.fresh', version: '3.0.0' }),
      '/api/plugins/intellij/upload',
    );
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json<{ message: string }>().message).toMatch(/already exists/);

    const badTag = await upload(
      ownerUpload,
      { licenseUrl: 'https://example.com/license', tags: 'Nonsense' },
      await pluginJar({ id: 'com.example.other' }),
      '/api/plugins/intellij/upload',
    );
    expect(badTag.statusCode).toBe(400);
    expect(badTag.json<{ message: string }>().message).toBe('Unknown tags: Nonsense.');
  });

  it('follows the lifecycle: publish, approve, listed in the IDE feed; refused transitions answer 409', async () => {
    const post = (action: string, token: string | undefined, payload?: unknown) =>
      testApp.app.inject({
        method: 'POST',
        url: `/api/plugins/${pluginId}/${action}`,
        headers: as(token),
        ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
      });
    const feed = async () => (await testApp.app.inject({ url: '/plugins/list?build=IU-241.14494.240' })).body;

    expect(await feed()).not.toContain('com.example.rainbow');
    expect((await post('approve', ownerManage)).statusCode).toBe(403);
    const published = await post('publish', ownerManage);
    expect(published.statusCode).toBe(200);
    expect(published.json()).toMatchObject({ lifecycleState: 'published', approved: false, listed: false });
    const again = await post('publish', ownerManage);
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toBe(
      'Only a draft can be published; the plugin is published.',
    );

    const approved = await post('approve', adminToken);
    expect(approved.json()).toMatchObject({ approved: true, listed: true, hasUnapprovedUpdate: false });
    expect(await feed()).toContain('<id>com.example.rainbow</id>');
    expect((await testApp.app.inject({ url: `/api/plugins/${pluginId}` })).statusCode).toBe(200);

    // Blocked: gone for visitors and from the feed, still there for the owner; the owner cannot upload.
    expect((await post('block', adminToken, { statement: 'Malware found in 2.1.0' })).statusCode).toBe(200);
    expect(await feed()).not.toContain('com.example.rainbow');
    expect((await testApp.app.inject({ url: `/api/plugins/${pluginId}` })).statusCode).toBe(404);
    expect(
      (await testApp.app.inject({ url: `/api/plugins/${pluginId}`, headers: as(ownerManage) })).statusCode,
    ).toBe(200);
    const blockedUpload = await upload(
      ownerUpload,
      { xmlId: 'com.example.rainbow' },
      await pluginJar({ version: '2.2.0' }),
    );
    expect(blockedUpload.statusCode).toBe(409);
    expect((await post('request-removal', ownerManage)).statusCode).toBe(409);
    expect((await post('partial-block', adminToken)).statusCode).toBe(409);
    expect((await post('unblock', adminToken)).json()).toMatchObject({ blockState: 'none', listed: true });

    // A new version waits for approval; unapprove-updates rejects it; the approved one stays in the feed.
    const update = await upload(
      ownerUpload,
      { xmlId: 'com.example.rainbow' },
      await pluginJar({ version: '2.2.0' }),
    );
    expect(update.statusCode).toBe(200);
    expect(await feed()).toContain('<version>2.1.0</version>');
    expect((await post('unapprove-updates', adminToken)).json()).toMatchObject({
      hasUnapprovedUpdate: false,
    });
    expect((await post('unapprove-updates', adminToken)).statusCode).toBe(409);
    const states = await testApp.db
      .select({ version: pluginVersions.version, state: pluginVersions.approvalState })
      .from(pluginVersions)
      .where(sql`${pluginVersions.pluginId} = ${pluginId}`)
      .orderBy(pluginVersions.version);
    expect(states).toEqual([
      { version: '2.1.0', state: 'approved' },
      { version: '2.2.0', state: 'rejected' },
    ]);

    // Access disallowed: the owner's changes are refused until allowed again.
    expect((await post('disallow-access', adminToken)).statusCode).toBe(200);
    const refusedChange = await testApp.app.inject({
      method: 'PUT',
      url: `/api/plugins/${pluginId}`,
      headers: as(ownerManage),
      payload: { name: 'Renamed' },
    });
    expect(refusedChange.statusCode).toBe(409);
    expect((await post('allow-access', adminToken)).statusCode).toBe(200);

    // Removal requested, restored; deleted, restored by an administrator only.
    expect((await post('request-removal', ownerManage)).json()).toMatchObject({
      lifecycleState: 'removal_requested',
      listed: false,
    });
    expect((await post('restore', ownerManage)).json()).toMatchObject({
      lifecycleState: 'published',
      listed: true,
    });
    const deleted = await testApp.app.inject({
      method: 'DELETE',
      url: `/api/plugins/${pluginId}`,
      headers: as(ownerManage),
    });
    expect(deleted.json()).toMatchObject({ lifecycleState: 'deleted' });
    // A deleted item is gone for visitors and its owner; the administrator who may restore it still sees it.
    const viewDeleted = (token: string | undefined) =>
      testApp.app.inject({ url: `/api/plugins/${pluginId}`, headers: as(token) });
    expect((await viewDeleted(undefined)).statusCode).toBe(404);
    expect((await viewDeleted(ownerManage)).statusCode).toBe(404);
    expect((await viewDeleted(adminToken)).statusCode).toBe(200);
    expect((await post('restore', ownerManage)).statusCode).toBe(403);
    expect((await post('restore', adminToken)).json()).toMatchObject({
      lifecycleState: 'draft',
      approved: false,
    });
    expect((await post('publish', ownerManage)).statusCode).toBe(200);
    expect((await post('approve', adminToken)).statusCode).toBe(200);

    const log = await testApp.app.inject({
      url: `/api/plugins/${pluginId}/audit-log?max=100`,
      headers: as(ownerManage),
    });
    const actions = log
      .json<{ action: string; details: Record<string, unknown> }[]>()
      .map((entry) => entry.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'upload-version',
        'publish',
        'approve',
        'block',
        'unblock',
        'unapprove-updates',
        'delete',
        'restore',
      ]),
    );
    const block = log
      .json<{ action: string; details: Record<string, unknown> }[]>()
      .find((entry) => entry.action === 'block');
    expect(block?.details.dsaReport).toEqual({ statement: 'Malware found in 2.1.0' });
    expect(
      (await testApp.app.inject({ url: `/api/plugins/${pluginId}/audit-log`, headers: as(strangerToken) }))
        .statusCode,
    ).toBe(403);
  });

  it('keeps admin notes for administrators and takes reports from visitors', async () => {
    const notes = `/api/plugins/${pluginId}/admin-notes`;
    expect((await testApp.app.inject({ url: notes, headers: as(ownerManage) })).statusCode).toBe(403);
    const added = await testApp.app.inject({
      method: 'POST',
      url: notes,
      headers: as(adminToken),
      payload: { text: 'Check the licence' },
    });
    expect(added.statusCode).toBe(201);
    const note = added.json<{ id: number; resolved: boolean }>();
    expect(note.resolved).toBe(false);
    const resolve = () =>
      testApp.app.inject({ method: 'POST', url: `${notes}/${note.id}/resolve`, headers: as(adminToken) });
    expect((await resolve()).json()).toMatchObject({ resolved: true, resolvedBy: admin.id });
    expect((await resolve()).statusCode).toBe(409);
    expect((await testApp.app.inject({ url: notes, headers: as(adminToken) })).json()).toEqual([
      expect.objectContaining({ text: 'Check the licence', resolved: true }),
    ]);

    const report = await testApp.app.inject({
      method: 'POST',
      url: `/api/plugins/${pluginId}/reports`,
      payload: { reason: 'Spam', message: 'Copies another plugin' },
    });
    expect(report.statusCode).toBe(201);
    expect(
      // The administrators' queue of every report (/api/admin/reports) is tested in test/admin.
      (await testApp.app.inject({ url: `/api/plugins/${pluginId}/reports`, headers: as(strangerToken) }))
        .statusCode,
    ).toBe(403);
    const reports = await testApp.app.inject({
      url: `/api/plugins/${pluginId}/reports`,
      headers: as(adminToken),
    });
    expect(reports.json()).toEqual([expect.objectContaining({ pluginId, reason: 'Spam', reporterId: null })]);
    const hidden = await insertPlugin(testApp.db, { xmlId: 'com.example.hidden', ownerId: owner.id });
    const reportHidden = await testApp.app.inject({
      method: 'POST',
      url: `/api/plugins/${hidden}/reports`,
      payload: { reason: 'Spam' },
    });
    expect(reportHidden.statusCode).toBe(404);
  });

  it('lets the owner manage fields, links, tags, developers, compatibility, build ranges and order', async () => {
    const put = (url: string, payload: unknown, token = ownerManage) =>
      testApp.app.inject({
        method: 'PUT',
        url,
        headers: as(token),
        payload: payload as Record<string, unknown>,
      });
    const post = (url: string, payload: unknown, token = ownerManage) =>
      testApp.app.inject({
        method: 'POST',
        url,
        headers: as(token),
        payload: payload as Record<string, unknown>,
      });

    const fields = await put(`/api/plugins/${pluginId}`, {
      name: 'Rainbow Brackets Pro',
      description: '<p>Colours <img src=x onerror=alert(1)></p>',
      sourceCodeUrl: 'github.com/example/rainbow',
    });
    expect(fields.statusCode).toBe(200);
    const plugin = (await testApp.app.inject({ url: `/api/plugins/${pluginId}` })).json<{
      info: { name: string; description: string };
      urls: { sourceCodeUrl: string; donationLinks: unknown[] };
      tags: { name: string }[];
    }>();
    expect(plugin.info.name).toBe('Rainbow Brackets Pro');
    expect(plugin.info.description).toBe('<p>Colours <img src="x" /></p>');
    expect(plugin.urls.sourceCodeUrl).toBe('https://github.com/example/rainbow');
    expect((await put(`/api/plugins/${pluginId}`, { docUrl: 'not a url at all' })).statusCode).toBe(400);
    expect((await put(`/api/plugins/${pluginId}`, { name: 'Stolen' }, strangerToken)).statusCode).toBe(403);

    const urls = await put(`/api/plugins/${pluginId}/urls`, {
      donationLinks: [{ name: 'Open Collective', url: 'https://opencollective.com/rainbow' }],
    });
    expect(urls.statusCode).toBe(200);
    const withLinks = (await testApp.app.inject({ url: `/api/plugins/${pluginId}` })).json<typeof plugin>();
    expect(withLinks.urls.donationLinks).toEqual([
      { name: 'Open Collective', url: 'https://opencollective.com/rainbow' },
    ]);

    expect((await post(`/api/plugins/${pluginId}/tags`, ['Editor', 'Theme'])).statusCode).toBe(200);
    const tagged = (await testApp.app.inject({ url: `/api/plugins/${pluginId}` })).json<typeof plugin>();
    expect(tagged.tags.map((tag) => tag.name).sort()).toEqual(['Editor', 'Theme']);
    expect((await post(`/api/plugins/${pluginId}/tags`, { tags: ['Unknown'] })).statusCode).toBe(400);

    expect((await post(`/api/plugins/${pluginId}/developers`, ['stranger'])).json()).toEqual([
      { id: stranger.id, login: 'stranger', name: 'stranger' },
    ]);
    // Now a developer, the stranger may change the plugin.
    expect(
      (await put(`/api/plugins/${pluginId}`, { copyright: '2026 Example' }, strangerToken)).statusCode,
    ).toBe(200);
    expect((await post(`/api/plugins/${pluginId}/developers`, [])).statusCode).toBe(200);

    expect((await post(`/api/plugins/${pluginId}/compatibility`, ['IDEA', 'PYCHARM'])).statusCode).toBe(200);
    expect((await post(`/api/plugins/${pluginId}/compatibility`, ['NOTEPAD'])).json()).toMatchObject({
      message: 'Unknown IDE products: NOTEPAD.',
    });

    const [first] = await testApp.db
      .select({ id: pluginVersions.id })
      .from(pluginVersions)
      .where(sql`${pluginVersions.pluginId} = ${pluginId} AND ${pluginVersions.version} = '2.1.0'`);
    const until = await put(`/api/updates/${first!.id}/until?value=241.*`, {
      reason: 'COMPATIBILITY_ERRORS',
    });
    expect(until.json()).toEqual({ id: first!.id, since: '241', until: '241.*' });
    const feed = await testApp.app.inject({ url: '/plugins/list?build=IU-242.1' });
    expect(feed.body).not.toContain('com.example.rainbow');
    expect((await put(`/api/updates/${first!.id}/until?value=240`, { reason: 'OTHER' })).statusCode).toBe(
      400,
    );
    expect((await put(`/api/updates/${first!.id}/since?value=242`, { reason: 'BECAUSE' })).statusCode).toBe(
      400,
    );

    const order = await put('/api/plugins/order', [pluginId]);
    expect(order.statusCode).toBe(204);
    expect((await put('/api/plugins/order', [pluginId], strangerToken)).statusCode).toBe(400);
  });

  it('takes an icon and screenshots as images only, sanitising SVG', async () => {
    const send = (
      method: 'PUT' | 'POST',
      url: string,
      files: { name: string; content: Buffer }[],
      token = ownerManage,
    ) => {
      const boundary = '----mp-media';
      const body = Buffer.concat([
        ...files.flatMap((file, index) => [
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="file${index}"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
          ),
          file.content,
          Buffer.from('\r\n'),
        ]),
        Buffer.from(`--${boundary}--\r\n`),
      ]);
      return testApp.app.inject({
        method,
        url,
        headers: { ...as(token), 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
      });
    };
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" onload="alert(1)"><script>alert(2)</script><rect width="10" height="10" fill="red"/><image href="https://evil.example/x.png"/></svg>',
    );
    const icon = await send('PUT', `/api/plugins/${pluginId}/icon`, [{ name: 'icon.svg', content: svg }]);
    expect(icon.statusCode).toBe(200);
    const served = await testApp.app.inject({ url: `/api/plugins/${pluginId}/icon` });
    expect(served.body).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="red"></rect></svg>',
    );
    const notImage = await send('PUT', `/api/plugins/${pluginId}/icon`, [
      { name: 'icon.png', content: Buffer.from('GIF89a....') },
    ]);
    expect(notImage.statusCode).toBe(400);
    expect(notImage.json<{ message: string }>().message).toBe(
      '"icon.png" is not a PNG or SVG image, so it cannot be the icon.',
    );

    const added = await send('POST', `/api/plugins/${pluginId}/screenshots`, [
      { name: 'a.png', content: TINY_PNG },
      { name: 'b.svg', content: svg },
    ]);
    const list = added.json<{ id: number; url: string }[]>();
    expect(list).toHaveLength(2);
    const reordered = await testApp.app.inject({
      method: 'PUT',
      url: `/api/plugins/${pluginId}/screenshots`,
      headers: as(ownerManage),
      payload: [list[1]!.url],
    });
    expect(reordered.json()).toEqual([list[1]]);
    expect((await testApp.app.inject({ url: `/api/plugins/${pluginId}/screenshots` })).json()).toEqual([
      list[1],
    ]);
    const foreign = await testApp.app.inject({
      method: 'PUT',
      url: `/api/plugins/${pluginId}/screenshots`,
      headers: as(ownerManage),
      payload: ['/api/plugins/1/screenshots/999'],
    });
    expect(foreign.statusCode).toBe(400);
  });

  it('renders documentation tabs from Markdown and HTML, sanitised', async () => {
    const boundary = '----mp-doc';
    const body = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="guide.md"\r\n\r\n# Getting started\n\nPress **Ctrl+R**.<script>steal()</script>\n\r\n--${boundary}--\r\n`,
    );
    const response = await testApp.app.inject({
      method: 'POST',
      url: `/api/plugins/${pluginId}/documentation?tabName=Getting%20Started&path=Getting%20Started.md`,
      headers: { ...as(ownerManage), 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(response.json()).toEqual({
      tabName: 'Getting Started',
      urlSuffix: 'getting-started',
      contentUrl: `/api/plugins/${pluginId}/documentation/getting-started`,
    });
    const page = await testApp.app.inject({ url: `/api/plugins/${pluginId}/documentation/getting-started` });
    expect(page.body).toContain('<h1>Getting started</h1>');
    expect(page.body).toContain('<strong>Ctrl+R</strong>');
    expect(page.body).not.toContain('script');
    expect(page.headers['content-security-policy']).toContain('sandbox');
    const plugin = (await testApp.app.inject({ url: `/api/plugins/${pluginId}` })).json<{
      customTabs: unknown[];
    }>();
    expect(plugin.customTabs).toEqual([
      expect.objectContaining({ tabName: 'Getting Started', urlSuffix: 'getting-started' }),
    ]);
  });
});
