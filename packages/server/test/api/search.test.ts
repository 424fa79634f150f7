import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as schema from '../../src/db/schema';
import {
  createApiTestContext,
  INVISIBLE_PLUGINS,
  PLUGINS,
  USERS,
  type ApiTestContext,
} from './catalogue-fixture';

let context: ApiTestContext;
beforeAll(async () => {
  context = await createApiTestContext();
}, 120_000);
afterAll(async () => context?.close());

async function get(url: string) {
  const response = await context.app.inject({ method: 'GET', url });
  return { status: response.statusCode, headers: response.headers, body: response.json() };
}

async function searchIds(query: string): Promise<number[]> {
  const { status, body } = await get(`/api/searchPlugins?${query}`);
  expect(status).toBe(200);
  return body.plugins.map((plugin: { id: number }) => plugin.id);
}

describe('GET /api/searchPlugins', () => {
  it('lists every visible IntelliJ item, most downloaded first, when nothing is asked', async () => {
    const { body } = await get('/api/searchPlugins');
    expect(body.total).toBe(4);
    expect(body.plugins.map((plugin: { id: number }) => plugin.id)).toEqual([1, 3, 10, 2]);
    // The 30-day chart is tested in recent-downloads.test.ts.
    const { downloadStatistics, ...summary } = body.plugins[0];
    expect(downloadStatistics).toHaveLength(30);
    expect(summary).toEqual({
      id: 1,
      xmlId: 'com.example.gittoolbox',
      name: 'Git Toolbox',
      link: '/plugin/1-git-toolbox',
      family: 'intellij',
      preview: 'Extends the Git integration with status, blame and fetch.',
      icon: '',
      downloads: 5000,
      rating: 4.5,
      pricingModel: 'FREE',
      vendor: { name: 'Acme Tools', url: 'https://acme.example.com' },
      tags: ['Code tools', 'VCS'],
      isTheme: false,
      cdate: Date.parse('2024-03-01T12:00:00Z'),
      updateDate: Date.parse('2026-02-10T12:00:00Z'),
    });
  });

  it.each([
    ['relevance', [1, 3, 10, 2]],
    ['downloads', [1, 3, 10, 2]],
    ['downloads_asc', [2, 10, 3, 1]],
    ['update date', [1, 10, 2, 3]],
    ['publish date', [10, 2, 3, 1]],
    ['name', [3, 1, 2, 10]],
    ['rating', [1, 2, 10, 3]],
    ['rating_asc', [3, 10, 2, 1]],
  ])('sorts by %s', async (orderBy, expected) => {
    expect(await searchIds(`orderBy=${encodeURIComponent(orderBy)}`)).toEqual(expected);
  });

  it('refuses an unknown sort order with the list of known ones', async () => {
    const { status, body } = await get('/api/searchPlugins?orderBy=popularity');
    expect(status).toBe(400);
    expect(body.message).toBe(
      'The query parameter "orderBy" must be one of "relevance", "downloads", "update date", "publish date", ' +
        '"name", "rating", "downloads_asc", "rating_asc".',
    );
  });

  it('never shows hidden, blocked, unapproved, draft or deleted items, whatever the text', async () => {
    for (const text of ['git', 'Git Tool', 'secret', 'pending', 'com.example.secret']) {
      const ids = await searchIds(`search=${encodeURIComponent(text)}`);
      for (const invisible of INVISIBLE_PLUGINS) expect(ids, text).not.toContain(invisible);
    }
    expect(await searchIds('search=git')).toEqual([PLUGINS.gitToolbox]);
  });

  it('finds by name, xmlId, vendor, tag and description', async () => {
    expect(await searchIds('search=Kotlin%20Fest')).toEqual([PLUGINS.kotlinFest]);
    expect(await searchIds('search=org.kotlinfest')).toEqual([PLUGINS.kotlinFest]);
    expect(await searchIds('search=coroutines')).toEqual([PLUGINS.kotlinFest]);
    expect(await searchIds('search=vcs')).toEqual([PLUGINS.gitToolbox]);
    expect((await searchIds('search=Jet%20Fans')).at(0)).toBe(PLUGINS.kotlinFest);
    expect(new Set(await searchIds('search=acme'))).toEqual(new Set([1, 3, 10]));
    expect(await searchIds('search=acme&family=teamcity')).toEqual([8]);
  });

  it('tolerates typos and unfinished words', async () => {
    expect(await searchIds('search=kotln')).toContain(PLUGINS.kotlinFest);
    expect((await searchIds('search=gti%20toolbox')).at(0)).toBe(PLUGINS.gitToolbox);
    expect((await searchIds('search=pyth')).at(0)).toBe(PLUGINS.pythonLinter);
  });

  it('ranks a name match above a description match', async () => {
    expect((await searchIds('search=theme')).at(0)).toBe(PLUGINS.darculaTheme);
  });

  it('is safe with text that is full-text or LIKE syntax', async () => {
    for (const text of ["'", '&|!():*', '%_\\', 'a <-> b', 'x'.repeat(200)]) {
      const { status } = await get(`/api/searchPlugins?search=${encodeURIComponent(text)}`);
      expect(status, text).toBe(200);
    }
    expect((await get(`/api/searchPlugins?search=${'x'.repeat(201)}`)).status).toBe(400);
  });

  it('filters by payment, tags (all of them), products (any of them) and family', async () => {
    expect(await searchIds('payment=free')).toEqual([1, 10]);
    expect(await searchIds('payment=paid')).toEqual([3, 2]);
    expect(await searchIds('tags=Code%20tools')).toEqual([1, 2]);
    expect(await searchIds('tags=Code%20tools&tags=VCS')).toEqual([1]);
    expect(await searchIds('tags=code%20TOOLS&payment=paid')).toEqual([2]);
    // An item that names no product runs on every product of its family (the theme).
    expect(await searchIds('products=PYCHARM')).toEqual([3, 10]);
    expect(await searchIds('products=IDEA&products=PYCHARM')).toEqual([1, 3, 10, 2]);
    expect(await searchIds('family=teamcity')).toEqual([8]);
    expect(await searchIds('products=TEAMCITY')).toEqual([]);
    expect(await searchIds('products=TEAMCITY&family=teamcity')).toEqual([8]);
  });

  it('pages with max and offset and says where the other pages are', async () => {
    const { body, headers } = await get('/api/searchPlugins?max=2&offset=2');
    expect(body.plugins.map((plugin: { id: number }) => plugin.id)).toEqual([10, 2]);
    expect(body.total).toBe(4);
    expect(headers['x-total-count']).toBe('4');
    expect(headers.link).toBe(
      '</api/searchPlugins?max=2&offset=0>; rel="first", </api/searchPlugins?max=2&offset=0>; rel="prev", ' +
        '</api/searchPlugins?max=2&offset=2>; rel="last"',
    );
    const first = await get('/api/searchPlugins?max=3');
    expect(first.headers.link).toBe(
      '</api/searchPlugins?max=3&offset=0>; rel="first", </api/searchPlugins?max=3&offset=3>; rel="next", ' +
        '</api/searchPlugins?max=3&offset=3>; rel="last"',
    );
    const beyond = await get('/api/searchPlugins?max=2&offset=10');
    expect(beyond.body).toEqual({ plugins: [], total: 4 });
    expect((await get('/api/searchPlugins?max=0')).status).toBe(400);
    expect((await get('/api/searchPlugins?max=101')).status).toBe(400);
  });
});

describe('GET /api/search/aggregation/products', () => {
  it('counts the matching items per product they run on', async () => {
    const { status, body } = await get('/api/search/aggregation/products');
    expect(status).toBe(200);
    expect(body.total).toBe(4);
    expect(body.aggregations).toMatchObject({ IDEA: 3, IDEA_COMMUNITY: 2, PYCHARM: 2, PHPSTORM: 1 });
    expect(body.aggregations.TEAMCITY).toBeUndefined();
    const teamcity = (await get('/api/search/aggregation/products?family=teamcity')).body;
    expect(teamcity).toEqual({ aggregations: { TEAMCITY: 1 }, total: 1 });
  });

  it('counts under the current filters', async () => {
    expect((await get('/api/search/aggregation/products?search=git')).body).toEqual({
      aggregations: { IDEA: 1, IDEA_COMMUNITY: 1 },
      total: 1,
    });
    const paid = (await get('/api/search/aggregation/products?payment=paid')).body;
    expect(paid.total).toBe(2);
    expect(paid.aggregations.IDEA).toBe(2);
  });
});

describe('GET /api/searchSuggest', () => {
  it('suggests names that start like the term, then similar ones, and matching tags', async () => {
    const { body } = await get('/api/searchSuggest?term=Kot');
    expect(body.plugins).toEqual([
      {
        id: 2,
        name: 'Kotlin Fest',
        xmlId: 'org.kotlinfest',
        link: '/plugin/2-kotlin-fest',
        family: 'intellij',
        isTheme: false,
      },
    ]);
    const [theme] = (await get('/api/searchSuggest?term=Darcula')).body.plugins;
    expect(theme, 'a theme is said to be one').toMatchObject({ id: PLUGINS.darculaTheme, isTheme: true });
    expect((await get('/api/searchSuggest?term=cod')).body.tags).toEqual([
      { id: 1, name: 'Code tools', link: '/search?tags=Code%20tools' },
    ]);
  });

  it("says each suggested item's family, so the search box can call a course a course", async () => {
    const [course] = await context.db
      .insert(schema.plugins)
      .values({
        name: 'Kotlin Koans',
        xmlId: 'edu.kotlin.koans',
        family: 'edu',
        ownerId: USERS.alice.id,
        lifecycleState: 'published',
        approved: true,
      })
      .returning({ id: schema.plugins.id });
    try {
      const { headers, body } = await get('/api/searchSuggest?term=Kotlin');
      expect(
        body.plugins.map((plugin: { name: string; family: string }) => [plugin.name, plugin.family]),
      ).toEqual([
        ['Kotlin Fest', 'intellij'],
        ['Kotlin Koans', 'edu'],
      ]);
      // The answer is the same for every visitor, so it stays publicly cacheable.
      expect(headers['cache-control']).toMatch(/public/);
    } finally {
      await context.db.delete(schema.plugins).where(eq(schema.plugins.id, course!.id));
    }
  });

  it('never suggests items visitors cannot see', async () => {
    expect((await get('/api/searchSuggest?term=Secret')).body.plugins).toEqual([]);
    const git = (await get('/api/searchSuggest?term=Git')).body.plugins.map(
      (plugin: { id: number }) => plugin.id,
    );
    expect(git).toEqual([PLUGINS.gitToolbox]);
  });

  it('needs a term', async () => {
    expect((await get('/api/searchSuggest')).status).toBe(400);
  });
});
