import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AuditEntryBody, PluginSummaryBody } from '@marketplace/api-contract';
import { THEME_TAG_ID } from '@marketplace/core';
import { insertPlugin } from '../publishing/publishing-test-app';
import { createReviewsTestApp, type ReviewsTestApp } from '../reviews/reviews-test-app';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });

describe('featured items per product family', () => {
  let testApp: ReviewsTestApp;
  let adminId: number;
  let developerId: number;
  let first: number;
  let second: number;
  let hidden: number;
  let theme: number;
  let teamcityItem: number;

  const call = (userId: number | undefined, request: InjectOptions) => testApp.call(userId, request);
  const listed = { lifecycleState: 'published', approved: true } as const;

  async function featuredIds(family: string, userId?: number): Promise<number[]> {
    const response = await call(userId, { url: `/api/featured/${family}` });
    expect(response.statusCode).toBe(200);
    return response.json<PluginSummaryBody[]>().map((item) => item.id);
  }

  function put(userId: number | undefined, family: string, payload: unknown) {
    return call(userId, { method: 'PUT', url: `/api/admin/featured/${family}`, payload: payload as object });
  }

  beforeAll(async () => {
    testApp = await createReviewsTestApp({ catalogue: false });
    adminId = await testApp.addUser('featured-admin', { isAdmin: true });
    developerId = await testApp.addUser('featured-dev');
    const db = testApp.db;
    first = await insertPlugin(db, { xmlId: 'com.example.first', ownerId: developerId, ...listed });
    second = await insertPlugin(db, { xmlId: 'com.example.second', ownerId: developerId, ...listed });
    hidden = await insertPlugin(db, {
      xmlId: 'com.example.hidden',
      ownerId: developerId,
      ...listed,
      hidden: true,
    });
    theme = await insertPlugin(db, {
      xmlId: 'com.example.night',
      ownerId: developerId,
      name: 'Night',
      ...listed,
    });
    teamcityItem = await insertPlugin(db, {
      xmlId: 'com.example.tc',
      ownerId: developerId,
      family: 'teamcity',
      ...listed,
    });
    await db.execute(sql`INSERT INTO tags (id, name) VALUES (${THEME_TAG_ID}, 'Theme')`);
    await db.execute(sql`INSERT INTO plugin_tags (plugin_id, tag_id) VALUES (${theme}, ${THEME_TAG_ID})`);
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('is empty until an administrator sets it', async () => {
    expect(await featuredIds('intellij')).toEqual([]);
    expect((await call(undefined, { url: '/api/featured/nothing' })).statusCode).toBe(400);
  });

  it('refuses guests and non-administrators, and changes nothing', async () => {
    const guest = await put(undefined, 'intellij', { pluginIds: [first] });
    expect(guest.statusCode).toBe(401);
    const developer = await put(developerId, 'intellij', { pluginIds: [first] });
    expect(developer.statusCode).toBe(403);
    expect(await featuredIds('intellij')).toEqual([]);
  });

  it('lets an administrator set a family’s list in order, shown to visitors without what they may not see', async () => {
    const response = await put(adminId, 'intellij', { pluginIds: [second, hidden, first] });
    expect(response.statusCode).toBe(200);
    expect(response.json<PluginSummaryBody[]>().map((item) => item.id)).toEqual([second, hidden, first]);
    expect(response.json<PluginSummaryBody[]>()[0]?.downloadStatistics).toHaveLength(30);
    expect(await featuredIds('intellij')).toEqual([second, first]);
    expect(await featuredIds('intellij', adminId)).toEqual([second, hidden, first]);
    expect(await featuredIds('teamcity')).toEqual([]);

    const reordered = await put(adminId, 'intellij', { pluginIds: [first, second] });
    expect(reordered.statusCode).toBe(200);
    expect(await featuredIds('intellij')).toEqual([first, second]);

    const audit = await call(adminId, { url: '/api/admin/audit?size=50' });
    expect(audit.statusCode).toBe(200);
    const entries = audit.json<AuditEntryBody[]>().filter((entry) => entry.action === 'featured.set');
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ subject: 'featured:intellij' });
  });

  it.each([
    ['an unknown item', () => ({ pluginIds: [first, 999_999] }), /999999 does not exist/],
    ['an item of another family', () => ({ pluginIds: [teamcityItem] }), /teamcity family/],
    ['an item twice', () => ({ pluginIds: [second, second] }), /twice/],
    ['too many items', () => ({ pluginIds: Array.from({ length: 25 }, (_, i) => i + 1) }), /./],
    ['no list', () => ({}), /./],
    ['a list of words', () => ({ pluginIds: ['first'] }), /./],
  ])('answers 400 for %s and changes nothing', async (_case, body, message) => {
    const response = await put(adminId, 'intellij', body());
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toMatch(message);
    expect(await featuredIds('intellij')).toEqual([first, second]);
  });

  it('empties a list', async () => {
    expect((await put(adminId, 'teamcity', { pluginIds: [teamcityItem] })).statusCode).toBe(200);
    expect(await featuredIds('teamcity')).toEqual([teamcityItem]);
    expect((await put(adminId, 'teamcity', { pluginIds: [] })).statusCode).toBe(200);
    expect(await featuredIds('teamcity')).toEqual([]);
  });

  it('gives a theme its first screenshot as card image in lists and search, plugins none', async () => {
    expect((await put(adminId, 'intellij', { pluginIds: [theme, first] })).statusCode).toBe(200);
    const before = (await call(undefined, { url: '/api/featured/intellij' })).json<PluginSummaryBody[]>();
    expect(before[0]).toMatchObject({ id: theme, isTheme: true });
    expect(before[0]?.image).toBeUndefined();
    const searched = async () =>
      (await call(undefined, { url: '/api/searchPlugins?search=Night' }))
        .json<{ plugins: PluginSummaryBody[] }>()
        .plugins.find((item) => item.id === theme);
    expect(await searched()).toMatchObject({ id: theme, isTheme: true });

    const [dark, light] = await testApp.db
      .execute<{ id: number }>(
        sql`
      INSERT INTO plugin_screenshots (plugin_id, position, file_hash, content_type)
      VALUES (${theme}, 2, 'light', 'image/png'), (${theme}, 1, 'dark', 'image/png')
      RETURNING id`,
      )
      .then((result) => result.rows.toReversed());
    expect(dark && light).toBeTruthy();
    await testApp.db.execute(sql`INSERT INTO plugin_screenshots (plugin_id, position, file_hash, content_type)
      VALUES (${first}, 1, 'plugin', 'image/png')`);
    const after = (await call(undefined, { url: '/api/featured/intellij' })).json<PluginSummaryBody[]>();
    expect(after[0]?.image).toBe(`/api/plugins/${theme}/screenshots/${dark!.id}`);
    expect(after[1]?.image).toBeUndefined();
    // The search index re-reads a plugin whose screenshots changed (another process's change, here SQL).
    await expect
      .poll(async () => (await searched())?.image, { timeout: 10_000 })
      .toBe(`/api/plugins/${theme}/screenshots/${dark!.id}`);
  });
});
