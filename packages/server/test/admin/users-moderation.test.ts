import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type {
  AdminPluginStateBody,
  AdminReportBody,
  AdminUserBody,
  AuditEntryBody,
} from '@marketplace/api-contract';
import { AdminRequestError, parseAdminRequest, runAdminRequest } from '../../src/auth/admin-operations';
import { BANNED_MESSAGE } from '../../src/auth/authorization';
import { addUser, insertPlugin, multipartBody, permanentToken } from '../publishing/publishing-test-app';
import { pluginJar } from '../publishing/fixtures';
import { createReviewsTestApp, type ReviewsTestApp } from '../reviews/reviews-test-app';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });

describe('users and moderation of the admin area', () => {
  let testApp: ReviewsTestApp;
  let adminId: number;
  let ownerId: number;
  let visitorId: number;
  let pluginId: number;
  let otherPluginId: number;
  const versionIds: number[] = [];
  let otherVersionId: number;

  const call = (userId: number | undefined, request: InjectOptions) => testApp.call(userId, request);

  async function upload(token: string, xmlId: string, version: string) {
    const { body, headers } = multipartBody(
      { xmlId },
      { name: `${xmlId}.jar`, content: await pluginJar({ id: xmlId, version }) },
    );
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/updates/upload',
      headers: { ...headers, authorization: `Bearer ${token}` },
      body,
    });
    expect(response.statusCode).toBe(200);
    return response.json<{ id: number }>().id;
  }

  async function pluginIdOf(xmlId: string): Promise<number> {
    const result = await testApp.db.execute(sql`SELECT id FROM plugins WHERE xml_id = ${xmlId}`);
    return (result.rows[0] as { id: number }).id;
  }

  async function auditOf(query: string): Promise<AuditEntryBody[]> {
    const response = await call(adminId, { url: `/api/admin/audit?${query}` });
    expect(response.statusCode).toBe(200);
    return response.json<AuditEntryBody[]>();
  }

  beforeAll(async () => {
    testApp = await createReviewsTestApp({ catalogue: false });
    adminId = (await addUser(testApp.db, 'root-admin', true)).id;
    ownerId = (await addUser(testApp.db, 'owner-dev')).id;
    visitorId = (await addUser(testApp.db, 'visitor-vic')).id;
    await testApp.db.execute(
      sql`UPDATE users SET name = 'Victoria Visitor', email = 'vic@example.com' WHERE id = ${visitorId}`,
    );
    pluginId = await insertPlugin(testApp.db, { xmlId: 'com.example.moderated', ownerId, name: 'Moderated' });
    otherPluginId = await insertPlugin(testApp.db, { xmlId: 'com.example.other', ownerId, name: 'Other' });
    const token = await permanentToken(testApp.db, ownerId, ['upload']);
    versionIds.push(await upload(token, 'com.example.moderated', '1.0.0'));
    versionIds.push(await upload(token, 'com.example.moderated', '1.1.0'));
    otherVersionId = await upload(token, 'com.example.other', '3.0.0');
    for (const id of [pluginId, otherPluginId]) {
      expect(
        (await call(ownerId, { method: 'POST', url: `/api/plugins/${id}/publish`, payload: {} })).statusCode,
      ).toBe(200);
      expect(
        (await call(adminId, { method: 'POST', url: `/api/plugins/${id}/approve`, payload: {} })).statusCode,
      ).toBe(200);
    }
  });
  afterAll(async () => {
    await testApp?.close();
  });

  describe('users', () => {
    it('lists and searches users for administrators only, with roles, ban state and item counts', async () => {
      expect((await call(undefined, { url: '/api/users' })).statusCode).toBe(401);
      expect((await call(ownerId, { url: '/api/users' })).statusCode).toBe(403);
      const all = await call(adminId, { url: '/api/users?size=2' });
      expect(all.statusCode).toBe(200);
      expect(all.json<{ total: number; data: AdminUserBody[] }>().total).toBe(3);
      expect(all.json<{ data: AdminUserBody[] }>().data).toHaveLength(2);
      expect(all.headers.link).toContain('rel="next"');
      const found = await call(adminId, { url: '/api/users?search=VIC%40example' });
      expect(found.json<{ data: AdminUserBody[] }>().data.map((user) => user.login)).toEqual(['visitor-vic']);
      const owner = (await call(adminId, { url: '/api/users?search=owner' })).json<{
        data: AdminUserBody[];
      }>().data[0];
      expect(owner).toMatchObject({ login: 'owner-dev', itemCount: 2, roles: ['developer'], banned: false });
      const admins = (await call(adminId, { url: '/api/users?filter=admin' })).json<{
        data: AdminUserBody[];
      }>();
      expect(admins.data.map((user) => user.login)).toEqual(['root-admin']);
      expect(admins.data[0]?.roles).toEqual(['developer', 'administrator']);
    });

    it('suggests users by login or name to any signed-in user, without emails', async () => {
      expect((await call(undefined, { url: '/api/users/suggestions?q=vic' })).statusCode).toBe(401);
      const byName = await call(ownerId, { url: '/api/users/suggestions?q=victoria' });
      expect(byName.statusCode).toBe(200);
      expect(byName.json()).toEqual([{ id: visitorId, login: 'visitor-vic', name: 'Victoria Visitor' }]);
      expect((await call(ownerId, { url: '/api/users/suggestions?q=%25' })).json()).toEqual([]);
      expect((await call(ownerId, { url: '/api/users/suggestions' })).statusCode).toBe(400);
    });

    it('refuses a ban without reason, of an unknown user or of oneself, and changes nothing', async () => {
      const noReason = await call(adminId, {
        method: 'POST',
        url: `/api/users/${visitorId}/ban`,
        payload: {},
      });
      expect(noReason.statusCode).toBe(400);
      expect(noReason.json<{ message: string }>().message).toMatch(/reason is required/);
      const blank = await call(adminId, {
        method: 'POST',
        url: `/api/users/${visitorId}/ban`,
        payload: { reason: '  ' },
      });
      expect(blank.statusCode).toBe(400);
      const unknown = await call(adminId, {
        method: 'POST',
        url: '/api/users/999999/ban',
        payload: { reason: 'spam' },
      });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json<{ message: string }>().message).toBe('There is no user 999999.');
      const self = await call(adminId, {
        method: 'POST',
        url: `/api/users/${adminId}/ban`,
        payload: { reason: 'x' },
      });
      expect(self.statusCode).toBe(400);
      expect(
        (await call(adminId, { method: 'POST', url: `/api/users/${visitorId}/frobnicate`, payload: {} }))
          .statusCode,
      ).toBe(400);
      expect(
        (
          await call(ownerId, {
            method: 'POST',
            url: `/api/users/${visitorId}/ban`,
            payload: { reason: 'x' },
          })
        ).statusCode,
      ).toBe(403);
      const [row] = (await testApp.db.execute(sql`SELECT banned FROM users WHERE id = ${visitorId}`))
        .rows as { banned: boolean }[];
      expect(row?.banned).toBe(false);
      expect(await auditOf('action=ban-user')).toEqual([]);
    });

    it('bans with a reason: the user still reads but every write is refused; unban lets them write again', async () => {
      const banned = await call(adminId, {
        method: 'POST',
        url: `/api/users/${visitorId}/ban`,
        payload: { reason: 'Spam reviews' },
      });
      expect(banned.statusCode).toBe(200);
      expect(banned.json<AdminUserBody>()).toMatchObject({
        banned: true,
        banReason: 'Spam reviews',
        bannedBy: adminId,
      });
      expect(typeof banned.json<AdminUserBody>().bannedAt).toBe('number');
      expect(
        (
          await call(adminId, {
            method: 'POST',
            url: `/api/users/${visitorId}/ban`,
            payload: { reason: 'again' },
          })
        ).statusCode,
      ).toBe(409);

      expect((await call(visitorId, { url: '/api/users/me' })).json()).toMatchObject({ banned: true });
      expect((await call(visitorId, { url: `/api/plugins/${pluginId}` })).statusCode).toBe(200);
      const write = await call(visitorId, {
        method: 'POST',
        url: '/api/comments',
        payload: { pluginId, rating: 5, comment: 'Great' },
      });
      expect(write.statusCode).toBe(403);
      expect(write.json<{ message: string }>().message).toBe(BANNED_MESSAGE);
      // Banned users are not offered as developers.
      expect((await call(ownerId, { url: '/api/users/suggestions?q=vic' })).json()).toEqual([]);

      const [entry] = await auditOf('action=ban-user');
      expect(entry).toMatchObject({
        pluginId: null,
        subject: `user:${visitorId}`,
        actorId: adminId,
        actorLogin: 'root-admin',
        reason: 'Spam reviews',
      });

      const unbanned = await call(adminId, {
        method: 'POST',
        url: `/api/users/${visitorId}/unban`,
        payload: { reason: 'Appealed' },
      });
      expect(unbanned.json<AdminUserBody>()).toMatchObject({
        banned: false,
        banReason: null,
        bannedAt: null,
      });
      const review = await call(visitorId, {
        method: 'POST',
        url: '/api/comments',
        payload: { pluginId, rating: 2, comment: 'Crashes on start' },
      });
      expect(review.statusCode).toBeLessThan(300);
    });

    it('stops a banned developer’s existing API tokens and sign-ins from changing anything, until unbanned', async () => {
      const developer = await addUser(testApp.db, 'gradle-dev');
      await insertPlugin(testApp.db, { xmlId: 'com.example.gradle', ownerId: developer.id });
      const uploadToken = await permanentToken(testApp.db, developer.id, ['upload']);
      const manageToken = await permanentToken(testApp.db, developer.id, ['manage']);
      const uploadWith = async (url: string, token: string, version: string) => {
        const { body, headers } = multipartBody(
          { xmlId: 'com.example.gradle' },
          { name: 'gradle.jar', content: await pluginJar({ id: 'com.example.gradle', version }) },
        );
        return testApp.app.inject({
          method: 'POST',
          url,
          headers: { ...headers, authorization: `Bearer ${token}` },
          body,
        });
      };
      // The tokens work before the ban.
      expect((await uploadWith('/api/updates/upload', uploadToken, '1.0.0')).statusCode).toBe(200);

      const banned = await call(adminId, {
        method: 'POST',
        url: `/api/users/${developer.id}/ban`,
        payload: { reason: 'Published malware' },
      });
      expect(banned.statusCode, banned.body).toBe(200);

      // Gradle's and the IDE tooling's upload routes, with the token made before the ban.
      for (const url of ['/api/updates/upload', '/plugin/uploadPlugin']) {
        const refused = await uploadWith(url, uploadToken, '1.1.0');
        expect(refused.statusCode, url).toBe(403);
        expect(refused.json<{ message: string }>().message).toBe(BANNED_MESSAGE);
      }
      // A management token and a sign-in change nothing either, a new token included.
      const viaManage = await testApp.app.inject({
        method: 'POST',
        url: `/api/plugins/${await pluginIdOf('com.example.gradle')}/publish`,
        headers: { authorization: `Bearer ${manageToken}` },
        payload: {},
      });
      expect(viaManage.statusCode).toBe(403);
      expect(viaManage.json<{ message: string }>().message).toBe(BANNED_MESSAGE);
      const newToken = await call(developer.id, {
        method: 'POST',
        url: '/api/users/me/tokens',
        payload: { name: 'another', scopes: ['upload'] },
      });
      expect(newToken.statusCode).toBe(403);
      expect(newToken.json<{ message: string }>().message).toBe(BANNED_MESSAGE);
      const versions = await testApp.db.execute(
        sql`SELECT pv.version FROM plugin_versions pv JOIN plugins p ON p.id = pv.plugin_id
          WHERE p.xml_id = 'com.example.gradle'`,
      );
      expect(versions.rows.map((row) => (row as { version: string }).version)).toEqual(['1.0.0']);

      // The ban is a flag read at every request: lifted, the same token uploads again.
      const unbanned = await call(adminId, {
        method: 'POST',
        url: `/api/users/${developer.id}/unban`,
        payload: { reason: 'Cleared' },
      });
      expect(unbanned.statusCode, unbanned.body).toBe(200);
      expect((await uploadWith('/plugin/uploadPlugin', uploadToken, '1.1.0')).statusCode).toBe(200);
    });

    it('grants and revokes the administrator role, never one’s own', async () => {
      const granted = await call(adminId, {
        method: 'POST',
        url: `/api/users/${ownerId}/grant-admin`,
        payload: {},
      });
      expect(granted.json<AdminUserBody>()).toMatchObject({
        isAdmin: true,
        roles: ['developer', 'administrator'],
      });
      expect((await call(ownerId, { url: '/api/users' })).statusCode).toBe(200);
      const own = await call(adminId, {
        method: 'POST',
        url: `/api/users/${adminId}/revoke-admin`,
        payload: {},
      });
      expect(own.statusCode).toBe(400);
      expect(own.json<{ message: string }>().message).toBe('You cannot remove your own administrator role.');
      const revoked = await call(adminId, {
        method: 'POST',
        url: `/api/users/${ownerId}/revoke-admin`,
        payload: { reason: 'Temporary' },
      });
      expect(revoked.json<AdminUserBody>().isAdmin).toBe(false);
      expect((await call(ownerId, { url: '/api/users' })).statusCode).toBe(403);
      expect((await auditOf('action=revoke-admin'))[0]).toMatchObject({
        reason: 'Temporary',
        subject: `user:${ownerId}`,
      });
    });

    it('gives `mp users ban` the same rules: a reason is required and the ban is audited', async () => {
      expect(() =>
        parseAdminRequest({ operation: 'users.set-banned', login: 'visitor-vic', banned: true }),
      ).toThrow(AdminRequestError);
      const request = parseAdminRequest({
        operation: 'users.set-banned',
        login: 'visitor-vic',
        banned: true,
        reason: 'From the shell',
      });
      expect(await runAdminRequest(testApp.db, request)).toMatchObject({ kind: 'user', banned: true });
      const [entry] = await auditOf('action=ban-user');
      expect(entry).toMatchObject({
        actorId: null,
        reason: 'From the shell',
        details: { via: 'mp', login: 'visitor-vic' },
      });
      await runAdminRequest(
        testApp.db,
        parseAdminRequest({ operation: 'users.set-banned', login: 'visitor-vic', banned: false }),
      );
      const user = (await call(adminId, { url: '/api/users?search=visitor-vic' })).json<{
        data: AdminUserBody[];
      }>().data[0];
      expect(user?.banned).toBe(false);
    });
  });

  describe('moderation', () => {
    const download = (userId: number | undefined, updateId: number) =>
      call(userId, { url: `/plugin/download?updateId=${updateId}` });

    it('shows an administrator the item’s state, the actions that apply and every version', async () => {
      expect((await call(ownerId, { url: `/api/admin/plugins/${pluginId}/state` })).statusCode).toBe(403);
      const state = (
        await call(adminId, { url: `/api/admin/plugins/${pluginId}/state` })
      ).json<AdminPluginStateBody>();
      expect(state.state).toMatchObject({
        lifecycleState: 'published',
        approved: true,
        blockState: 'none',
        listed: true,
      });
      expect(state.actions).toEqual(
        expect.arrayContaining(['unapprove', 'block', 'partial-block', 'delete', 'disallow-access']),
      );
      expect(state.actions).not.toContain('unblock');
      expect(state.actions).not.toContain('restore');
      expect(state.versions.map((version) => version.version)).toEqual(['1.1.0', '1.0.0']);
      expect((await call(adminId, { url: '/api/admin/plugins/999999/state' })).statusCode).toBe(404);
    });

    it('refuses a partial block without versions or with another item’s versions, changing nothing', async () => {
      const none = await call(adminId, {
        method: 'POST',
        url: `/api/plugins/${pluginId}/partial-block`,
        payload: { versions: [] },
      });
      expect(none.statusCode).toBe(400);
      expect(none.json<{ message: string }>().message).toBe('Choose the versions to block.');
      const foreign = await call(adminId, {
        method: 'POST',
        url: `/api/plugins/${pluginId}/partial-block`,
        payload: { versions: [versionIds[0], otherVersionId] },
      });
      expect(foreign.statusCode).toBe(400);
      expect(foreign.json<{ message: string }>().message).toContain(`no version ${otherVersionId}`);
      const state = (
        await call(adminId, { url: `/api/admin/plugins/${pluginId}/state` })
      ).json<AdminPluginStateBody>();
      expect(state.state.blockState).toBe('none');
      expect(state.versions.every((version) => version.approvalState === 'approved')).toBe(true);
      expect(await auditOf(`action=partial-block&pluginId=${pluginId}`)).toEqual([]);
    });

    it('partially blocks one version: it disappears for visitors, the item and the other version stay', async () => {
      const blocked = await call(adminId, {
        method: 'POST',
        url: `/api/plugins/${pluginId}/partial-block`,
        payload: {
          versions: [versionIds[0]],
          report: { decisionGround: 'ILLEGAL_CONTENT', facts: 'Bundles a miner' },
        },
      });
      expect(blocked.statusCode).toBe(200);
      expect(blocked.json()).toMatchObject({ blockState: 'partial', listed: true });
      expect((await download(undefined, versionIds[0]!)).statusCode).toBe(404);
      expect((await download(undefined, versionIds[1]!)).statusCode).toBe(200);
      expect((await call(undefined, { url: `/api/plugins/${pluginId}` })).json()).toMatchObject({
        info: { isBlocked: false },
      });
      // The admin install URL still gives the blocked version, to administrators only.
      const adminCopy = await call(adminId, {
        url: `/api/admin/install?pluginId=${pluginId}&updateId=${versionIds[0]}`,
      });
      expect(adminCopy.statusCode).toBe(200);
      expect(adminCopy.headers['content-disposition']).toContain('com.example.moderated-1.0.0');
      expect(
        (await call(ownerId, { url: `/api/admin/install?pluginId=${pluginId}&updateId=${versionIds[0]}` }))
          .statusCode,
      ).toBe(403);
      expect(
        (
          await call(adminId, {
            url: `/api/admin/install?pluginId=${otherPluginId}&updateId=${versionIds[0]}`,
          })
        ).statusCode,
      ).toBe(404);

      const versions = (await call(adminId, { url: `/api/admin/plugins/${pluginId}/versions` })).json<
        { id: number; approvalState: string }[]
      >();
      expect(versions.find((version) => version.id === versionIds[0])?.approvalState).toBe('blocked');
      const [entry] = await auditOf(`action=partial-block&pluginId=${pluginId}`);
      expect(entry).toMatchObject({
        actorLogin: 'root-admin',
        reason: 'Bundles a miner',
        details: { versions: [versionIds[0]] },
      });

      const state = (
        await call(adminId, { url: `/api/admin/plugins/${pluginId}/state` })
      ).json<AdminPluginStateBody>();
      expect(state.actions).toContain('unblock');
      const unblocked = await call(adminId, {
        method: 'POST',
        url: `/api/plugins/${pluginId}/unblock`,
        payload: {},
      });
      expect(unblocked.json()).toMatchObject({ blockState: 'none', listed: true });
      expect((await download(undefined, versionIds[0]!)).statusCode).toBe(200);
    });

    it('deletes an item with a DSA statement of reasons and restores it', async () => {
      const report = {
        decisionGround: 'INCOMPATIBLE_WITH_TERMS',
        facts: 'Impersonates another vendor',
        territorialScope: 'EU',
      };
      const deleted = await call(adminId, {
        method: 'DELETE',
        url: `/api/plugins/${otherPluginId}`,
        payload: report,
      });
      expect(deleted.json()).toMatchObject({ lifecycleState: 'deleted', listed: false });
      expect((await call(undefined, { url: `/api/plugins/${otherPluginId}` })).statusCode).toBe(404);
      const state = (
        await call(adminId, { url: `/api/admin/plugins/${otherPluginId}/state` })
      ).json<AdminPluginStateBody>();
      expect(state.actions).toEqual(['restore']);
      const [entry] = await auditOf(`pluginId=${otherPluginId}&action=delete`);
      expect(entry).toMatchObject({ reason: 'Impersonates another vendor', details: { dsaReport: report } });
      const restored = await call(adminId, {
        method: 'POST',
        url: `/api/plugins/${otherPluginId}/restore`,
        payload: {},
      });
      expect(restored.json()).toMatchObject({ lifecycleState: 'draft' });
      const itemLog = await call(adminId, { url: `/api/admin/plugins/${otherPluginId}/audit` });
      expect(
        itemLog
          .json<AuditEntryBody[]>()
          .map((row) => row.action)
          .slice(0, 2),
      ).toEqual(['restore', 'delete']);
    });

    it('takes visitors’ reports of items and reviews into a queue administrators resolve with a note', async () => {
      const reviews = await testApp.db.execute(sql`SELECT id FROM reviews WHERE plugin_id = ${pluginId}`);
      const reviewId = (reviews.rows[0] as { id: number }).id;
      const itemReport = await call(undefined, {
        method: 'POST',
        url: `/api/plugins/${pluginId}/reports`,
        payload: { reason: 'Malware', message: 'It mines coins' },
      });
      expect(itemReport.statusCode).toBe(201);
      const reviewReport = await call(undefined, {
        method: 'POST',
        url: `/api/comments/${reviewId}/reports`,
        payload: { reason: 'Abusive' },
      });
      expect(reviewReport.statusCode).toBe(201);
      expect(
        (
          await call(undefined, {
            method: 'POST',
            url: '/api/comments/999999/reports',
            payload: { reason: 'x' },
          })
        ).statusCode,
      ).toBe(404);

      expect((await call(ownerId, { url: '/api/admin/reports' })).statusCode).toBe(403);
      const open = (await call(adminId, { url: '/api/admin/reports' })).json<AdminReportBody[]>();
      expect(open.map((report) => report.reason)).toEqual(['Abusive', 'Malware']);
      expect(open[0]).toMatchObject({
        reviewId,
        reviewText: 'Crashes on start',
        pluginName: 'Moderated',
        resolved: false,
      });

      const target = open[1]!.id;
      expect(
        (
          await call(adminId, {
            method: 'POST',
            url: `/api/admin/reports/${target}/resolve`,
            payload: { note: ' ' },
          })
        ).statusCode,
      ).toBe(400);
      const resolved = await call(adminId, {
        method: 'POST',
        url: `/api/admin/reports/${target}/resolve`,
        payload: { note: 'Blocked 1.0.0' },
      });
      expect(resolved.json<AdminReportBody>()).toMatchObject({
        resolved: true,
        resolution: 'Blocked 1.0.0',
        resolvedBy: adminId,
      });
      expect(
        (
          await call(adminId, {
            method: 'POST',
            url: `/api/admin/reports/${target}/resolve`,
            payload: { note: 'again' },
          })
        ).statusCode,
      ).toBe(409);
      expect(
        (
          await call(adminId, {
            method: 'POST',
            url: '/api/admin/reports/999999/resolve',
            payload: { note: 'x' },
          })
        ).statusCode,
      ).toBe(404);
      expect(
        (await call(adminId, { url: '/api/admin/reports' }))
          .json<AdminReportBody[]>()
          .map((report) => report.reason),
      ).toEqual(['Abusive']);
      expect(
        (await call(adminId, { url: '/api/admin/reports?state=resolved' }))
          .json<AdminReportBody[]>()
          .map((report) => report.id),
      ).toEqual([target]);
      expect((await auditOf('action=resolve-report'))[0]).toMatchObject({
        subject: `report:${target}`,
        reason: 'Blocked 1.0.0',
      });
      const state = (
        await call(adminId, { url: `/api/admin/plugins/${pluginId}/state` })
      ).json<AdminPluginStateBody>();
      expect(state.openReports).toBe(1);
    });

    it('filters the audit log by item, actor and action, for administrators only', async () => {
      expect((await call(ownerId, { url: '/api/admin/audit' })).statusCode).toBe(403);
      const byActor = await auditOf('actor=owner-dev');
      expect(byActor.length).toBeGreaterThan(0);
      expect(byActor.every((entry) => entry.actorLogin === 'owner-dev')).toBe(true);
      const byItem = await auditOf(`pluginId=${pluginId}`);
      expect(byItem.every((entry) => entry.pluginId === pluginId)).toBe(true);
      expect(byItem.map((entry) => entry.action)).toEqual(
        expect.arrayContaining(['upload-version', 'publish', 'approve']),
      );
      const page = await call(adminId, { url: '/api/admin/audit?max=1' });
      expect(page.json<AuditEntryBody[]>()).toHaveLength(1);
      expect(page.headers['x-total-count']).toBeDefined();
    });

    it('tells the item’s people what the last upload contained', async () => {
      const details = await call(ownerId, { url: `/api/plugins/${pluginId}/upload/details` });
      expect(details.statusCode).toBe(200);
      expect(details.json()).toMatchObject({
        versionId: versionIds[1],
        version: '1.1.0',
        channel: '',
        since: '241',
        until: '243.*',
        uploaderLogin: 'owner-dev',
        warnings: [],
      });
      expect((await call(visitorId, { url: `/api/plugins/${pluginId}/upload/details` })).statusCode).toBe(
        403,
      );
      expect((await call(undefined, { url: `/api/plugins/${pluginId}/upload/details` })).statusCode).toBe(
        401,
      );
    });

    it('serves app packages at the apps URL and sends plugins to /plugin/download', async () => {
      const plugin = await call(undefined, { url: `/apps/download?pluginId=${pluginId}` });
      expect(plugin.statusCode).toBe(400);
      expect(plugin.json<{ message: string }>().message).toContain('/plugin/download?updateId=');
      await testApp.db.execute(sql`UPDATE plugins SET family = 'youtrack' WHERE id = ${pluginId}`);
      const app = await call(undefined, { url: `/apps/download?pluginId=${pluginId}` });
      expect(app.statusCode).toBe(200);
      expect(app.headers['content-disposition']).toContain('1.1.0');
      await testApp.db.execute(sql`UPDATE plugins SET family = 'intellij' WHERE id = ${pluginId}`);
    });
  });
});
