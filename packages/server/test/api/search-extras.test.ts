import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AuditEntryBody, PluginBody, PluginSummaryBody } from '@marketplace/api-contract';
import { createReviewsTestApp, type ReviewsTestApp } from '../reviews/reviews-test-app';
import { PLUGINS, USERS } from './catalogue-fixture';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 120_000 });

/**
 * The search state extras of spec §3 (isFeaturedSearch, shouldHaveSource, communityPrograms and the result
 * sets plugins / themes / any), the "included in" relation of an item's fullInfo, and the administrators'
 * per-IDE staff picks that isFeaturedSearch reads. The catalogue is the API tests' fixture: visible
 * IntelliJ items 1 Git Toolbox (source code URL; IDEA pick; bundle of 2), 2 Kotlin Fest, 3 Darcula Pro Theme
 * (theme; IDEA pick) and 10 Python Linter (PyCharm only); 8 is TeamCity's pick.
 */
let testApp: ReviewsTestApp;
let adminId: number;
let developerId: number;

const call = (userId: number | undefined, request: InjectOptions) => testApp.call(userId, request);

async function searchIds(query: string, userId?: number): Promise<number[]> {
  const response = await call(userId, { url: `/api/searchPlugins?${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ plugins: { id: number }[] }>().plugins.map((plugin) => plugin.id);
}

async function searchTotal(query: string): Promise<number> {
  const response = await call(undefined, { url: `/api/searchPlugins?${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ total: number }>().total;
}

/** A change made straight in the database (as `mp` or SQL would), then read by this process's index. */
async function changeDatabase(statement: ReturnType<typeof sql>): Promise<void> {
  await testApp.db.execute(statement);
  testApp.app.catalogueChanged();
}

beforeAll(async () => {
  testApp = await createReviewsTestApp();
  adminId = await testApp.addUser('extras-admin', { isAdmin: true });
  developerId = await testApp.addUser('extras-dev');
});
afterAll(async () => {
  await testApp?.close();
});

describe('shouldHaveSource', () => {
  it('keeps only items that give a source code URL, and follows a change of the URL', async () => {
    expect(await searchIds('')).toEqual([1, 3, 10, 2]);
    expect(await searchIds('shouldHaveSource=true')).toEqual([PLUGINS.gitToolbox]);
    expect(await searchIds('shouldHaveSource=false')).toEqual([1, 3, 10, 2]);
    await changeDatabase(
      sql`UPDATE plugins SET source_code_url = 'https://github.com/bob/pylint' WHERE id = ${PLUGINS.pythonLinter}`,
    );
    expect(await searchIds('shouldHaveSource=true')).toEqual([PLUGINS.gitToolbox, PLUGINS.pythonLinter]);
    // Blank is no URL.
    await changeDatabase(sql`UPDATE plugins SET source_code_url = '   ' WHERE id = ${PLUGINS.pythonLinter}`);
    expect(await searchIds('shouldHaveSource=true')).toEqual([PLUGINS.gitToolbox]);
    expect(await searchIds('shouldHaveSource=true&search=python')).toEqual([]);
    expect(await searchIds('shouldHaveSource=true&search=git')).toEqual([PLUGINS.gitToolbox]);
  });

  it('refuses a value that is not a boolean', async () => {
    const response = await call(undefined, { url: '/api/searchPlugins?shouldHaveSource=maybe' });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toContain('shouldHaveSource');
  });
});

describe('isFeaturedSearch', () => {
  it("keeps the IDE products' staff picks a visitor may see, of the chosen products when some are chosen", async () => {
    // Hidden item 4 is IDEA's first pick: never shown to a visitor.
    expect(await searchIds('isFeaturedSearch=true')).toEqual([PLUGINS.gitToolbox, PLUGINS.darculaTheme]);
    expect(await searchIds('isFeaturedSearch=true&products=IDEA')).toEqual([1, 3]);
    // The theme runs on PyCharm too, but it is not one of PyCharm's picks.
    expect(await searchIds('products=PYCHARM')).toEqual([3, 10]);
    expect(await searchIds('isFeaturedSearch=true&products=PYCHARM')).toEqual([]);
    expect(await searchIds('isFeaturedSearch=true&family=teamcity')).toEqual([PLUGINS.teamcityNotifier]);
    expect(await searchIds('isFeaturedSearch=true&shouldHaveSource=true')).toEqual([PLUGINS.gitToolbox]);
  });

  it('counts per product only that product’s picks in the product facet', async () => {
    const response = await call(undefined, {
      url: '/api/search/aggregation/products?isFeaturedSearch=true',
    });
    expect(response.statusCode).toBe(200);
    const { aggregations, total } = response.json<{ aggregations: Record<string, number>; total: number }>();
    expect(total).toBe(2);
    expect(aggregations['IDEA']).toBe(2);
    expect(aggregations['PYCHARM']).toBeUndefined();
  });
});

describe('communityPrograms', () => {
  it('keeps items that take part in any of the chosen programs', async () => {
    expect(await searchIds('communityPrograms=OPEN_SOURCE')).toEqual([]);
    await changeDatabase(sql`INSERT INTO plugin_programs (plugin_id, program, percent)
      VALUES (${PLUGINS.pythonLinter}, 'OPEN_SOURCE', 100), (${PLUGINS.kotlinFest}, 'STUDENTS', 50)`);
    expect(await searchIds('communityPrograms=OPEN_SOURCE')).toEqual([PLUGINS.pythonLinter]);
    expect(await searchIds('communityPrograms=OPEN_SOURCE&communityPrograms=STUDENTS')).toEqual([10, 2]);
    expect(await searchIds('communityPrograms=STARTUPS')).toEqual([]);
    await changeDatabase(sql`DELETE FROM plugin_programs WHERE plugin_id = ${PLUGINS.kotlinFest}`);
    expect(await searchIds('communityPrograms=STUDENTS')).toEqual([]);
  });
});

describe('result sets: kind', () => {
  it('answers plugins without themes, themes alone, or both, each with its own total', async () => {
    expect(await searchIds('kind=plugins')).toEqual([1, 10, 2]);
    expect(await searchTotal('kind=plugins')).toBe(3);
    expect(await searchIds('kind=themes')).toEqual([PLUGINS.darculaTheme]);
    expect(await searchTotal('kind=themes')).toBe(1);
    expect(await searchIds('kind=any')).toEqual([1, 3, 10, 2]);
    expect(await searchIds('kind=themes&search=git')).toEqual([]);
    expect(await searchIds('kind=themes&search=darcula')).toEqual([PLUGINS.darculaTheme]);
    expect(await searchIds('kind=any&max=2&offset=0')).toEqual([1, 3]);
    const response = await call(undefined, { url: '/api/searchPlugins?kind=widgets' });
    expect(response.statusCode).toBe(400);
  });
});

describe('fullInfo: the bundles that include an item', () => {
  async function plugin(id: number, query: string, userId?: number): Promise<PluginBody> {
    const response = await call(userId, { url: `/api/plugins/${id}${query}` });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<PluginBody>();
  }

  it('names and links the bundles a viewer may see, only with fullInfo', async () => {
    expect((await plugin(PLUGINS.kotlinFest, '?fullInfo=true')).includedIn).toEqual([
      { id: PLUGINS.gitToolbox, name: 'Git Toolbox', link: '/plugin/1-git-toolbox' },
    ]);
    expect((await plugin(PLUGINS.kotlinFest, '')).includedIn).toBeUndefined();
    // In no bundle: an empty list.
    expect((await plugin(PLUGINS.pythonLinter, '?fullInfo=true')).includedIn).toEqual([]);

    // A theme shipped by a plugin: the plugin is named on the theme. A hidden bundle is the administrators'.
    await testApp.db.execute(sql`INSERT INTO plugin_bundles (bundle_id, member_id, position)
      VALUES (${PLUGINS.pythonLinter}, ${PLUGINS.darculaTheme}, 1), (${PLUGINS.hidden}, ${PLUGINS.darculaTheme}, 1)`);
    expect((await plugin(PLUGINS.darculaTheme, '?fullInfo=true')).includedIn).toEqual([
      { id: PLUGINS.pythonLinter, name: 'Python Linter', link: '/plugin/10-python-linter' },
    ]);
    expect(
      (await plugin(PLUGINS.darculaTheme, '?fullInfo=true', adminId)).includedIn?.map((bundle) => bundle.id),
    ).toEqual([PLUGINS.pythonLinter, PLUGINS.hidden]);
  });
});

describe('per-IDE staff picks (administrators)', () => {
  const put = (userId: number | undefined, product: string, payload: unknown) =>
    call(userId, {
      method: 'PUT',
      url: `/api/admin/featured-plugins/${product}`,
      payload: payload as object,
    });

  async function picks(product: string, userId?: number): Promise<number[]> {
    const response = await call(userId, { url: `/api/featured-plugins/product?product=${product}` });
    expect(response.statusCode).toBe(200);
    return response.json<PluginSummaryBody[]>().map((item) => item.id);
  }

  it('refuses guests and non-administrators, and changes nothing', async () => {
    expect((await put(undefined, 'PYCHARM', { pluginIds: [PLUGINS.pythonLinter] })).statusCode).toBe(401);
    expect((await put(developerId, 'PYCHARM', { pluginIds: [PLUGINS.pythonLinter] })).statusCode).toBe(403);
    expect((await put(USERS.alice.id, 'PYCHARM', { pluginIds: [PLUGINS.pythonLinter] })).statusCode).toBe(
      403,
    );
    expect(await picks('PYCHARM')).toEqual([]);
  });

  it('refuses what the IDE could not show, naming it, and changes nothing', async () => {
    const cases: [string, unknown, string][] = [
      ['IDEA', { pluginIds: [PLUGINS.pythonLinter] }, 'Python Linter (10) does not run on IntelliJ IDEA'],
      ['IDEA', { pluginIds: [PLUGINS.teamcityNotifier] }, 'is of the teamcity family'],
      ['IDEA', { pluginIds: [PLUGINS.deleted] }, `Item ${PLUGINS.deleted} does not exist.`],
      ['IDEA', { pluginIds: [9999] }, 'Item 9999 does not exist.'],
      ['IDEA', { pluginIds: [1, 3, 1] }, 'Item 1 is listed twice.'],
      ['IDEA', { pluginIds: Array.from({ length: 25 }, (_, index) => index + 1) }, 'pluginIds'],
      ['NOTEPAD', { pluginIds: [1] }, 'product'],
      ['IDEA', { ids: [1] }, 'pluginIds'],
    ];
    for (const [product, body, message] of cases) {
      const response = await put(adminId, product, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json<{ message: string }>().message).toContain(message);
    }
    expect(await picks('IDEA', adminId)).toEqual([PLUGINS.hidden, PLUGINS.darculaTheme, PLUGINS.gitToolbox]);
  });

  it('sets a product’s picks in order, audited, and the featured search follows at once', async () => {
    const response = await put(adminId, 'IDEA', { pluginIds: [PLUGINS.kotlinFest, PLUGINS.gitToolbox] });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<PluginSummaryBody[]>().map((item) => item.id)).toEqual([2, 1]);
    expect(await picks('IDEA')).toEqual([PLUGINS.kotlinFest, PLUGINS.gitToolbox]);
    // The theme left IDEA's picks, Kotlin Fest joined: the search index read both.
    expect(await searchIds('isFeaturedSearch=true&products=IDEA')).toEqual([1, 2]);
    expect(await searchIds('isFeaturedSearch=true')).toEqual([1, 2]);

    expect((await put(adminId, 'PYCHARM', { pluginIds: [PLUGINS.pythonLinter] })).statusCode).toBe(200);
    expect(await searchIds('isFeaturedSearch=true&products=PYCHARM')).toEqual([PLUGINS.pythonLinter]);
    expect(await searchIds('isFeaturedSearch=true')).toEqual([1, 10, 2]);

    const audit = await call(adminId, { url: '/api/admin/audit?size=50' });
    expect(audit.statusCode).toBe(200);
    const entries = audit.json<AuditEntryBody[]>().filter((entry) => entry.action === 'featured-plugins.set');
    expect(entries).toHaveLength(2);
    expect(entries.map((entry) => entry.subject).sort()).toEqual([
      'featured-plugins:IDEA',
      'featured-plugins:PYCHARM',
    ]);
    const rows = await testApp.db.execute(sql`SELECT actor_id, details FROM plugin_audit_log
      WHERE action = 'featured-plugins.set' AND details->>'subject' = 'featured-plugins:IDEA'`);
    expect(rows.rows[0]).toMatchObject({
      actor_id: adminId,
      details: {
        before: [PLUGINS.hidden, PLUGINS.darculaTheme, PLUGINS.gitToolbox],
        after: [PLUGINS.kotlinFest, PLUGINS.gitToolbox],
      },
    });

    // An empty list empties it.
    expect((await put(adminId, 'PYCHARM', { pluginIds: [] })).statusCode).toBe(200);
    expect(await picks('PYCHARM')).toEqual([]);
    expect(await searchIds('isFeaturedSearch=true&products=PYCHARM')).toEqual([]);
  });
});
