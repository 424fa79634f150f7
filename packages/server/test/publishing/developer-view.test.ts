import { developerStatus, MAX_PLUGIN_TAGS } from '@marketplace/core';
import type { ApprovalQueueBody, PluginBody, UserPluginSummaryBody } from '@marketplace/api-contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { UserRow } from '../../src/auth/users';
import { tags } from '../../src/db/schema';
import { pluginJar } from './fixtures';
import {
  accessTokenFor,
  addUser,
  buildPublishingTestApp,
  multipartBody,
  type PublishingTestApp,
} from './publishing-test-app';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

/*
 * What the site's pages tell developers about their items comes from the item's lifecycle, which the server
 * answers to the item's developers and administrators only; and the forms pick tags from GET /api/tags.
 */
describe("developers' view of their items", () => {
  let testApp: PublishingTestApp;
  let owner: UserRow;
  let ownerToken: string;
  let strangerToken: string;
  let adminToken: string;

  beforeAll(async () => {
    testApp = await buildPublishingTestApp();
    owner = await addUser(testApp.db, 'owner');
    const stranger = await addUser(testApp.db, 'stranger');
    const admin = await addUser(testApp.db, 'admin', true);
    ownerToken = await accessTokenFor(testApp, owner.id);
    strangerToken = await accessTokenFor(testApp, stranger.id);
    adminToken = await accessTokenFor(testApp, admin.id);
    await testApp.db
      .insert(tags)
      .values([
        { name: 'Editor' },
        { name: 'Languages', families: ['intellij'] },
        { name: 'Build agents', families: ['teamcity'] },
        { name: 'Staff Picks', privileged: true },
        { name: 'Obsolete', privileged: true, searchable: false },
      ]);
  });
  afterAll(async () => {
    await testApp.close();
  });

  const as = (token: string | undefined) => (token ? { authorization: `Bearer ${token}` } : {});

  async function upload(url: string, fields: Record<string, string>, jar: Buffer) {
    const { body, headers } = multipartBody(fields, { name: 'plugin.jar', content: jar });
    return testApp.app.inject({ method: 'POST', url, headers: { ...headers, ...as(ownerToken) }, body });
  }

  async function plugin(id: number, token: string | undefined) {
    const answer = await testApp.app.inject({ url: `/api/plugins/${id}`, headers: as(token) });
    return { status: answer.statusCode, body: answer.json<PluginBody>() };
  }

  async function ownersList(token: string | undefined) {
    const answer = await testApp.app.inject({ url: `/api/users/${owner.id}/plugins`, headers: as(token) });
    return answer.json<UserPluginSummaryBody[]>();
  }

  const post = (id: number, action: string, token: string) =>
    testApp.app.inject({ method: 'POST', url: `/api/plugins/${id}/${action}`, headers: as(token) });

  it("shows a plugin's lifecycle to its developers and administrators only, from draft to live", async () => {
    const created = await upload(
      '/api/plugins/intellij/upload',
      { licenseUrl: 'https://example.com/license', tags: 'Editor,Languages' },
      await pluginJar({ id: 'com.example.lifecycle', version: '1.0.0' }),
    );
    expect(created.statusCode).toBe(200);
    const id = created.json<{ id: number }>().id;

    // A first upload makes a draft: its owner and the administrators see it, and where it is.
    const draft = {
      lifecycleState: 'draft',
      approved: false,
      blockState: 'none',
      modificationAllowed: true,
      hidden: false,
      pendingVersions: 1,
      versions: 1,
    } as const;
    expect((await plugin(id, ownerToken)).body.lifecycle).toEqual(draft);
    expect((await plugin(id, adminToken)).body.lifecycle).toEqual(draft);
    expect(developerStatus(draft)).toMatchObject({ label: 'Draft', actions: ['publish', 'request-removal'] });
    // Nobody else learns that the draft exists.
    expect((await plugin(id, undefined)).status).toBe(404);
    expect((await plugin(id, strangerToken)).status).toBe(404);
    expect((await ownersList(ownerToken)).map((item) => [item.id, item.lifecycle?.lifecycleState])).toEqual([
      [id, 'draft'],
    ]);
    expect(await ownersList(undefined)).toEqual([]);

    // Published: it waits in the administrators' queue.
    expect((await post(id, 'publish', ownerToken)).statusCode).toBe(200);
    const published = (await plugin(id, ownerToken)).body.lifecycle!;
    expect(published).toEqual({ ...draft, lifecycleState: 'published' });
    expect(developerStatus(published).label).toBe('Waiting for approval');
    const queue = await testApp.app.inject({ url: '/api/admin/plugins/pending', headers: as(adminToken) });
    expect(queue.json<ApprovalQueueBody>().map((entry) => [entry.id, entry.kind])).toEqual([[id, 'new']]);

    // Approved: live for everyone, and only its developers and administrators are told its lifecycle.
    expect((await post(id, 'approve', adminToken)).statusCode).toBe(200);
    const live = (await plugin(id, ownerToken)).body.lifecycle!;
    expect(developerStatus(live).label).toBe('Live');
    for (const token of [undefined, strangerToken]) {
      const seen = await plugin(id, token);
      expect(seen.status).toBe(200);
      expect(seen.body).not.toHaveProperty('lifecycle');
    }
    const publicList = await ownersList(undefined);
    expect(publicList.map((item) => item.id)).toEqual([id]);
    expect(publicList[0]).not.toHaveProperty('lifecycle');
    expect((await ownersList(strangerToken))[0]).not.toHaveProperty('lifecycle');

    // A new version of a live plugin waits for approval, and is in the queue as an update.
    const update = await upload(
      '/api/updates/upload',
      { pluginId: String(id) },
      await pluginJar({ id: 'com.example.lifecycle', version: '1.1.0' }),
    );
    expect(update.statusCode).toBe(200);
    const updated = (await plugin(id, ownerToken)).body.lifecycle!;
    expect(updated).toMatchObject({ approved: true, pendingVersions: 1, versions: 2 });
    expect(developerStatus(updated).label).toBe('Live — 1 version waiting for approval');
    expect((await ownersList(ownerToken))[0]?.lifecycle).toEqual(updated);
    const updates = await testApp.app.inject({ url: '/api/admin/plugins/pending', headers: as(adminToken) });
    expect(updates.json<ApprovalQueueBody>().map((entry) => [entry.id, entry.kind])).toEqual([
      [id, 'update'],
    ]);
  });

  it("lists the catalogue's tags, of one family when asked", async () => {
    const names = async (query: string) => {
      const answer = await testApp.app.inject({ url: `/api/tags${query}` });
      expect(answer.statusCode).toBe(200);
      return answer.json<{ name: string }[]>().map((tag) => tag.name);
    };
    expect(await names('')).toEqual(['Build agents', 'Editor', 'Languages', 'Obsolete', 'Staff Picks']);
    // A tag that names no family is in every family.
    expect(await names('?family=intellij')).toEqual(['Editor', 'Languages', 'Obsolete', 'Staff Picks']);
    expect(await names('?family=teamcity')).toEqual(['Build agents', 'Editor', 'Obsolete', 'Staff Picks']);
    const answer = await testApp.app.inject({ url: '/api/tags?family=intellij' });
    expect(answer.json<unknown[]>()[3]).toEqual({
      id: expect.any(Number) as unknown,
      name: 'Staff Picks',
      link: '/search?tags=Staff%20Picks',
      privileged: true,
      searchable: true,
      families: [],
    });
    expect((await testApp.app.inject({ url: '/api/tags?family=eclipse' })).statusCode).toBe(400);
  });

  it('lets developers keep the privileged tags an administrator gave, but not give them', async () => {
    const created = await upload(
      '/api/plugins/intellij/upload',
      { licenseUrl: 'https://example.com/license', tags: 'Editor' },
      await pluginJar({ id: 'com.example.picked' }),
    );
    const id = created.json<{ id: number }>().id;
    const setTags = (token: string, names: string[]) =>
      testApp.app.inject({
        method: 'POST',
        url: `/api/plugins/${id}/tags`,
        headers: as(token),
        payload: names,
      });
    expect((await setTags(ownerToken, ['Editor', 'Staff Picks'])).statusCode).toBe(403);
    expect((await setTags(adminToken, ['Editor', 'Staff Picks'])).statusCode).toBe(200);
    // The manage form sends every chosen tag, the administrator's among them.
    expect((await setTags(ownerToken, ['Staff Picks', 'Languages'])).statusCode).toBe(200);
    const refused = await setTags(ownerToken, ['Staff Picks', 'Obsolete']);
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ message: string }>().message).toBe(
      'Only administrators can give the tags Obsolete.',
    );
    const shown = (await plugin(id, ownerToken)).body.tags.map((tag) => tag.name);
    expect(shown).toEqual(['Languages', 'Staff Picks']);
  });

  it('refuses a first upload with more tags than an item may carry', async () => {
    await testApp.db
      .insert(tags)
      .values(Array.from({ length: MAX_PLUGIN_TAGS }, (_, index) => ({ name: `Extra ${index}` })));
    const names = Array.from({ length: MAX_PLUGIN_TAGS }, (_, index) => `Extra ${index}`);
    const tooMany = await upload(
      '/api/plugins/intellij/upload',
      { licenseUrl: 'https://example.com/license', tags: [...names, 'Editor'].join(',') },
      await pluginJar({ id: 'com.example.tagged' }),
    );
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json<{ message: string }>().message).toBe(
      `Choose at most ${MAX_PLUGIN_TAGS} tags for the plugin.`,
    );
    const enough = await upload(
      '/api/plugins/intellij/upload',
      { licenseUrl: 'https://example.com/license', tags: names.join(',') },
      await pluginJar({ id: 'com.example.tagged' }),
    );
    expect(enough.statusCode).toBe(200);
  });
});
