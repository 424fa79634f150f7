import { STATISTICS_MAX_DAYS } from '@marketplace/core';
import type { SQL } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { recordDownload } from '../../src/db/catalogue-queries';
import { RecentDownloads } from '../../src/search/recent-downloads';
import { createApiTestContext, PLUGINS, VERSIONS, type ApiTestContext } from './catalogue-fixture';

/*
 * The 30-day download chart every card shows (spec §2, §9), as the lists and the item record answer it. The
 * fixture counts Git Toolbox's downloads on 2026-11-18 (3) and 2026-11-20 (2 + 1 of another version); the
 * tests count more through the download path's own function and move the clock the answers are made at.
 */

interface Point {
  name: string;
  value: number;
}
interface Summary {
  id: number;
  downloadStatistics: Point[];
}

let context: ApiTestContext;
beforeAll(async () => {
  context = await createApiTestContext();
  await recordDownload(context.db, VERSIONS.gitToolbox242Open, new Date('2026-12-01T09:00:00Z'));
  await recordDownload(context.db, VERSIONS.gitToolbox242Open, new Date('2026-12-01T23:59:59Z'));
  await recordDownload(context.db, VERSIONS.gitToolbox241, new Date('2026-11-26T00:00:00Z'));
  // The day before the window of 2026-12-01: never in its chart.
  await recordDownload(context.db, VERSIONS.gitToolbox241, new Date('2026-11-01T12:00:00Z'));
  await recordDownload(context.db, VERSIONS.kotlinFestExact241, new Date('2026-11-15T12:00:00Z'));
}, 120_000);
afterAll(async () => context?.close());
afterEach(() => {
  vi.useRealTimers();
});

/** Answers are made at `moment` (only the clock is faked; timers run as usual). */
function answerAt(moment: string): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(moment));
}

async function get<Body>(url: string): Promise<Body> {
  const response = await context.app.inject({ method: 'GET', url });
  expect(response.statusCode, url).toBe(200);
  return response.json() as Body;
}

/** The counted days of a chart, as `{ day: downloads }`. */
function countedDays(points: readonly Point[]): Record<string, number> {
  return Object.fromEntries(
    points.filter((point) => point.value > 0).map((point) => [point.name, point.value]),
  );
}

function expectThirtyDaysEndingOn(points: readonly Point[], first: string, last: string): void {
  expect(points).toHaveLength(STATISTICS_MAX_DAYS);
  expect(points[0]?.name).toBe(first);
  expect(points.at(-1)?.name).toBe(last);
  // Consecutive days, none missing or repeated.
  for (let index = 1; index < points.length; index++) {
    const step = Date.parse(points[index]!.name) - Date.parse(points[index - 1]!.name);
    expect(step).toBe(24 * 60 * 60 * 1000);
  }
}

describe('the download chart of search results', () => {
  it('gives every item 30 days ending today (UTC), with the downloads counted on each day', async () => {
    answerAt('2026-12-01T15:00:00Z');
    const { plugins } = await get<{ plugins: Summary[] }>('/api/searchPlugins');
    expect(plugins.map((plugin) => plugin.id)).toEqual([1, 3, 10, 2]);
    for (const plugin of plugins)
      expectThirtyDaysEndingOn(plugin.downloadStatistics, '2026-11-02', '2026-12-01');

    const gitToolbox = plugins.find((plugin) => plugin.id === PLUGINS.gitToolbox)!;
    expect(countedDays(gitToolbox.downloadStatistics)).toEqual({
      '2026-11-18': 3,
      // Two versions' downloads of one day are added up.
      '2026-11-20': 3,
      '2026-11-26': 1,
      '2026-12-01': 2,
    });
    // A day without downloads is there, as 0.
    expect(gitToolbox.downloadStatistics.find((point) => point.name === '2026-11-19')).toEqual({
      name: '2026-11-19',
      value: 0,
    });
    const kotlinFest = plugins.find((plugin) => plugin.id === PLUGINS.kotlinFest)!;
    expect(countedDays(kotlinFest.downloadStatistics)).toEqual({ '2026-11-15': 1 });
    // An item nobody downloaded has 30 days of 0.
    const theme = plugins.find((plugin) => plugin.id === PLUGINS.darculaTheme)!;
    expect(theme.downloadStatistics.every((point) => point.value === 0)).toBe(true);
  });

  it('ends on the new day after midnight, although the index has not changed', async () => {
    answerAt('2026-12-01T23:59:00Z');
    const before = await get<{ plugins: Summary[] }>('/api/searchPlugins?search=git');
    expect(before.plugins[0]?.downloadStatistics.at(-1)).toEqual({ name: '2026-12-01', value: 2 });

    answerAt('2026-12-02T00:00:01Z');
    const after = await get<{ plugins: Summary[] }>('/api/searchPlugins?search=git');
    const points = after.plugins[0]!.downloadStatistics;
    expectThirtyDaysEndingOn(points, '2026-11-03', '2026-12-02');
    expect(points.at(-1)).toEqual({ name: '2026-12-02', value: 0 });
    expect(points.at(-2)).toEqual({ name: '2026-12-01', value: 2 });
  });

  it('reads the charts of a page with one query, whatever the number of items', async () => {
    // Later than the answers above: the charts they read are no longer kept.
    answerAt('2026-12-01T16:00:00Z');
    const dialect = (context.db as unknown as { dialect: { sqlToQuery(statement: SQL): { sql: string } } })
      .dialect;
    const execute = vi.spyOn(context.db, 'execute');
    let statements: string[];
    try {
      const { plugins } = await get<{ plugins: Summary[] }>('/api/searchPlugins?max=4');
      expect(plugins).toHaveLength(4);
      statements = execute.mock.calls.map(([statement]) => dialect.sqlToQuery(statement as SQL).sql);
    } finally {
      execute.mockRestore();
    }
    expect(statements.filter((text) => text.includes('download_counts'))).toHaveLength(1);
  });
});

describe('the download chart of other lists', () => {
  it("comes with a user's items, featured items and bundle members", async () => {
    answerAt('2026-12-01T15:00:00Z');
    const lists = await Promise.all([
      get<Summary[]>('/api/users/1/plugins'),
      get<Summary[]>('/api/featured-plugins/product?product=IDEA'),
      get<Summary[]>(`/api/plugins/${PLUGINS.gitToolbox}/bundles`),
    ]);
    for (const list of lists) {
      expect(list.length).toBeGreaterThan(0);
      for (const item of list) expectThirtyDaysEndingOn(item.downloadStatistics, '2026-11-02', '2026-12-01');
    }
    const [owned] = lists;
    expect(countedDays(owned.find((item) => item.id === PLUGINS.gitToolbox)!.downloadStatistics)).toEqual({
      '2026-11-18': 3,
      '2026-11-20': 3,
      '2026-11-26': 1,
      '2026-12-01': 2,
    });
  });
});

describe('the item record, for cards made from it', () => {
  it('carries the update date of the search summary and the same 30-day chart', async () => {
    answerAt('2026-12-01T15:00:00Z');
    const record = await get<{ info: { updateDate: number }; downloadStatistics: Point[] }>(
      `/api/plugins/${PLUGINS.gitToolbox}`,
    );
    const { plugins } = await get<{ plugins: (Summary & { updateDate: number })[] }>(
      '/api/searchPlugins?search=git',
    );
    // The same date as the search summary's (the plugin's last_updated_at, moved by its versions).
    expect(record.info.updateDate).toBe(plugins[0]?.updateDate);
    expect(record.info.updateDate).toBe(Date.parse('2026-02-10T12:00:00Z'));
    expect(record.downloadStatistics).toEqual(plugins[0]?.downloadStatistics);

    const theme = await get<{ downloadStatistics: Point[] }>(`/api/plugins/${PLUGINS.darculaTheme}`);
    expectThirtyDaysEndingOn(theme.downloadStatistics, '2026-11-02', '2026-12-01');
    expect(theme.downloadStatistics.every((point) => point.value === 0)).toBe(true);
  });

  it('is described in the OpenAPI document', async () => {
    const document = await get<{
      components?: { schemas?: Record<string, unknown> };
      paths: Record<string, { get?: { responses?: Record<string, unknown> } }>;
    }>('/api/openapi.json');
    const text = JSON.stringify(document.paths['/api/searchPlugins']?.get?.responses?.['200']);
    expect(text).toContain('downloadStatistics');
    const record = JSON.stringify(document.paths['/api/plugins/{id}']?.get?.responses?.['200']);
    expect(record).toContain('downloadStatistics');
    expect(record).toContain('updateDate');
  });
});

describe('charts kept for a moment', () => {
  /** The statements of `run` that read download_counts. */
  async function chartReads(run: () => Promise<unknown>): Promise<string[]> {
    const dialect = (context.db as unknown as { dialect: { sqlToQuery(statement: SQL): { sql: string } } })
      .dialect;
    const execute = vi.spyOn(context.db, 'execute');
    try {
      await run();
      return execute.mock.calls
        .map(([statement]) => dialect.sqlToQuery(statement as SQL).sql)
        .filter((text) => text.includes('download_counts'));
    } finally {
      execute.mockRestore();
    }
  }

  it('reads only the items it does not hold, and again once they are older than it keeps them', async () => {
    const charts = new RecentDownloads(context.db, 5000);
    const at = Date.parse('2026-12-03T10:00:00Z');
    const page = [{ id: PLUGINS.kotlinFest }, { id: PLUGINS.darculaTheme }];
    expect(await chartReads(() => charts.attach(page, at))).toHaveLength(1);
    // Another page sharing an item: one query, for the other item only.
    const shared = [{ id: PLUGINS.kotlinFest }, { id: PLUGINS.pythonLinter }];
    expect(await chartReads(() => charts.attach(shared, at + 1000))).toHaveLength(1);
    expect(await chartReads(() => charts.attach(shared, at + 2000))).toEqual([]);

    // A download shows once the kept chart is older than the 5 seconds this one keeps them.
    await recordDownload(context.db, VERSIONS.darculaLargeUntil, new Date(at));
    const soon = await charts.attach(page, at + 4000);
    expect(soon[1]?.downloadStatistics.at(-1)).toEqual({ name: '2026-12-03', value: 0 });
    const later = await charts.attach(page, at + 5000);
    expect(later[1]?.downloadStatistics.at(-1)).toEqual({ name: '2026-12-03', value: 1 });
  });

  it('never keeps a chart past midnight, and keeps nothing when answers are not kept', async () => {
    const charts = new RecentDownloads(context.db, 60_000);
    const page = [{ id: PLUGINS.gitToolbox }];
    await charts.attach(page, Date.parse('2026-12-01T23:59:59Z'));
    const [next] = await charts.attach(page, Date.parse('2026-12-02T00:00:01Z'));
    expect(next?.downloadStatistics.at(-1)).toEqual({ name: '2026-12-02', value: 0 });
    expect(next?.downloadStatistics.at(-2)).toEqual({ name: '2026-12-01', value: 2 });

    const uncached = new RecentDownloads(context.db, 0);
    await uncached.attach(page);
    expect(await chartReads(() => uncached.attach(page))).toHaveLength(1);
  });
});
