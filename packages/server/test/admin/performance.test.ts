import type { CacheActionResult, PerformanceReport } from '@marketplace/api-contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app';
import { normaliseQueryText } from '../../src/admin/performance/metrics';
import { createFileStore } from '../../src/storage';
import { createReviewsTestApp, type ReviewsTestApp } from '../reviews/reviews-test-app';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

/**
 * Checks a scrape against the Prometheus text exposition format (version 0.0.4) line by line: no parser on
 * npm is maintained, so the rules are written out here. Returns the samples by name.
 */
function parsePrometheusText(text: string): Map<string, { labels: Record<string, string>; value: number }[]> {
  const metricName = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
  const samples = new Map<string, { labels: Record<string, string>; value: number }[]>();
  const types = new Map<string, string>();
  const helps = new Set<string>();
  const finished = new Set<string>();
  let current: string | undefined;
  const familyOf = (name: string) => {
    for (const suffix of ['_bucket', '_sum', '_count']) {
      const base = name.slice(0, -suffix.length);
      if (name.endsWith(suffix) && types.get(base) === 'histogram') return base;
    }
    return name;
  };
  expect(text.endsWith('\n'), 'the scrape ends with a line feed').toBe(true);
  for (const [index, line] of text.slice(0, -1).split('\n').entries()) {
    const where = `line ${index + 1}: ${line}`;
    if (line.startsWith('#')) {
      const help = /^# HELP (\S+) (.*)$/.exec(line);
      const type = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
      if (help) {
        expect(help[1], where).toMatch(metricName);
        expect(helps.has(help[1]!), `${where}: one HELP per metric`).toBe(false);
        helps.add(help[1]!);
      } else if (type) {
        expect(types.has(type[1]!), `${where}: one TYPE per metric`).toBe(false);
        expect(samples.has(type[1]!), `${where}: TYPE before the samples`).toBe(false);
        types.set(type[1]!, type[2]!);
      } else {
        expect(line, `${where}: a comment other than HELP and TYPE`).toMatch(/^# /);
      }
      continue;
    }
    // Empty lines are allowed and ignored (prom-client puts one between families).
    if (line.trim() === '') continue;
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)( -?\d+)?$/.exec(line);
    expect(sample, where).not.toBeNull();
    const [, name, , labelText = '', valueText] = sample!;
    const labels: Record<string, string> = {};
    let rest = labelText;
    while (rest.length > 0) {
      const label = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)/.exec(rest);
      expect(label, `${where}: label syntax at ${rest}`).not.toBeNull();
      expect(labels[label![1]!], `${where}: label ${label![1]} twice`).toBeUndefined();
      labels[label![1]!] = label![2]!;
      rest = rest.slice(label![0].length);
    }
    // A value is what Go's ParseFloat takes: NaN and Inf in any case (prom-client writes "Nan").
    expect(valueText, where).toMatch(/^(nan|[+-]?inf(inity)?|[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?)$/i);
    const family = familyOf(name!);
    // A family's samples come together: once another family's began, it does not come back.
    if (family !== current) {
      expect(finished.has(family), `${where}: ${family} is split`).toBe(false);
      if (current !== undefined) finished.add(current);
      current = family;
    }
    const lower = valueText!.toLowerCase();
    const value =
      lower.endsWith('inf') || lower.endsWith('infinity')
        ? lower.startsWith('-')
          ? -Infinity
          : Infinity
        : Number(lower === 'nan' ? NaN : valueText);
    samples.set(name!, [...(samples.get(name!) ?? []), { labels, value }]);
  }
  // Histograms: cumulative buckets ending at +Inf, equal to _count.
  for (const [name, type] of types) {
    if (type !== 'histogram') continue;
    const buckets = samples.get(`${name}_bucket`) ?? [];
    const series = new Map<string, { le: string; value: number }[]>();
    for (const bucket of buckets) {
      const { le, ...rest } = bucket.labels;
      expect(le, `${name}_bucket has le`).toBeDefined();
      const key = JSON.stringify(rest);
      series.set(key, [...(series.get(key) ?? []), { le: le!, value: bucket.value }]);
    }
    for (const [key, list] of series) {
      const values = list.map((bucket) => bucket.value);
      expect(values, `${name} ${key} cumulative`).toEqual([...values].sort((a, b) => a - b));
      expect(list.at(-1)!.le).toBe('+Inf');
      const count = samples.get(`${name}_count`)!.find((sample) => JSON.stringify(sample.labels) === key);
      expect(count?.value, `${name} ${key} +Inf bucket equals _count`).toBe(values.at(-1));
    }
  }
  return samples;
}

let t: ReviewsTestApp;
let admin = 0;
let developer = 0;

beforeAll(async () => {
  t = await createReviewsTestApp();
  admin = await t.addUser('performance-admin', { isAdmin: true });
  developer = await t.addUser('performance-developer');
});
afterAll(async () => t?.close());

async function report(): Promise<PerformanceReport> {
  const response = await t.call(admin, { method: 'GET', url: '/api/performance' });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as PerformanceReport;
}

const searchRoute = (figures: PerformanceReport) =>
  figures.routes.find((route) => route.method === 'GET' && route.route === '/api/searchPlugins');

async function search(query = 'orderBy=name&max=5'): Promise<{ status: number; total: number }> {
  const response = await t.app.inject({ method: 'GET', url: `/api/searchPlugins?${query}` });
  const body = response.statusCode === 200 ? (response.json() as { total: number }) : { total: 0 };
  return { status: response.statusCode, total: body.total };
}

describe('performance figures', () => {
  it('counts requests by route pattern, with latency quantiles and errors', async () => {
    const before = searchRoute(await report())?.requests ?? 0;
    for (let index = 0; index < 3; index++) expect((await search()).status).toBe(200);
    await t.app.inject({ method: 'GET', url: '/api/plugins/987654' });
    await t.app.inject({ method: 'GET', url: '/api/plugins/987655' });
    const figures = await report();
    const route = searchRoute(figures)!;
    expect(route.requests).toBe(before + 3);
    expect(route.latency.count).toBe(route.requests);
    expect(route.latency.p50Ms).toBeGreaterThan(0);
    expect(route.latency.p50Ms).toBeLessThanOrEqual(route.latency.p95Ms);
    expect(route.latency.p95Ms).toBeLessThanOrEqual(route.latency.p99Ms);
    expect(route.latency.p99Ms).toBeLessThanOrEqual(route.latency.maxMs);
    // The pattern, not the URL: two ids are one row.
    const plugin = figures.routes.find((row) => row.route === '/api/plugins/:id');
    expect(plugin?.clientErrors).toBeGreaterThanOrEqual(2);
    expect(figures.routes.some((row) => row.route.includes('987654'))).toBe(false);
    expect(figures.histogram.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(
      figures.totals.latency.count,
    );
    expect(figures.database.queries.count).toBeGreaterThan(0);
    expect(figures.database.pool.max).toBeGreaterThanOrEqual(1);
    expect(figures.enabled).toBe(true);
  });

  it('lists slow queries with their literals taken out', async () => {
    expect(normaliseQueryText("SELECT * FROM plugins WHERE id IN (1, 2, 3) AND name = 'x''y'")).toBe(
      'SELECT * FROM plugins WHERE id IN (?, ...) AND name = ?',
    );
    await t.db.execute(sql`SELECT pg_sleep(0.12), 42 AS answer`);
    const slow = (await report()).database.slowQueries;
    expect(slow.some((query) => query.text.includes('pg_sleep(?)') && !query.text.includes('42'))).toBe(true);
  });

  it('starts over on reset, and stops counting while turned off', async () => {
    await search();
    const reset = await t.call(admin, { method: 'POST', url: '/api/performance/reset?reason=new+release' });
    expect(reset.statusCode, reset.body).toBe(200);
    let figures = await report();
    expect(searchRoute(figures)).toBeUndefined();
    expect(figures.since).toBe((reset.json() as { since: number }).since);

    const off = await t.call(admin, { method: 'POST', url: '/api/performance/enable?value=false' });
    expect(off.json()).toMatchObject({ enabled: false });
    await search();
    await search();
    figures = await report();
    expect(figures.enabled).toBe(false);
    expect(searchRoute(figures)).toBeUndefined();

    const on = await t.call(admin, { method: 'POST', url: '/api/performance/enable?value=true' });
    expect(on.json()).toMatchObject({ enabled: true });
    await search();
    expect(searchRoute(await report())?.requests).toBe(1);

    const audit = await t.db.execute<{ action: string; actor_id: number; details: { reason?: string } }>(
      sql`SELECT action, actor_id, details FROM plugin_audit_log
        WHERE action LIKE 'performance-%' ORDER BY id`,
    );
    expect(audit.rows.map((row) => row.action)).toEqual([
      'performance-reset',
      'performance-disable',
      'performance-enable',
    ]);
    expect(audit.rows[0]).toMatchObject({ actor_id: admin, details: { reason: 'new release' } });
  });

  it('answers 400 to a value other than true or false, and changes nothing', async () => {
    for (const url of [
      '/api/performance/enable?value=maybe',
      '/api/performance/enable?value=1',
      '/api/performance/enable',
    ]) {
      const response = await t.call(admin, { method: 'POST', url });
      expect(response.statusCode, url).toBe(400);
      expect((response.json() as { message: string }).message).toBeTruthy();
    }
    expect((await report()).enabled).toBe(true);
    const unknown = await t.call(admin, { method: 'POST', url: '/api/performance/cache/flush?name=nope' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ message: expect.stringContaining('search-index') });
  });

  it('refuses guests and users who are not administrators', async () => {
    const routes: InjectOptions[] = [
      { method: 'GET', url: '/api/performance' },
      { method: 'POST', url: '/api/performance/reset' },
      { method: 'POST', url: '/api/performance/enable?value=false' },
      { method: 'POST', url: '/api/performance/cache/flush' },
      { method: 'POST', url: '/api/performance/cache/reload' },
    ];
    for (const route of routes) {
      expect((await t.call(undefined, route)).statusCode, `${route.method} ${route.url}`).toBe(401);
      expect((await t.call(developer, route)).statusCode, `${route.method} ${route.url}`).toBe(403);
    }
    expect((await report()).enabled).toBe(true);
  });
});

describe('GET /metrics', () => {
  it('scrapes as valid Prometheus text with the process and marketplace figures', async () => {
    await search();
    const response = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const samples = parsePrometheusText(response.body);
    expect(samples.has('process_cpu_user_seconds_total')).toBe(true);
    expect(samples.has('nodejs_heap_size_used_bytes')).toBe(true);
    const requests = samples.get('marketplace_http_requests_total')!;
    expect(
      requests.find((sample) => sample.labels.route === '/api/searchPlugins')?.value,
    ).toBeGreaterThanOrEqual(1);
    expect(samples.get('marketplace_http_request_duration_seconds_bucket')!.length).toBeGreaterThan(10);
    expect(samples.get('marketplace_cache_entries')!.map((sample) => sample.labels.cache)).toEqual(
      expect.arrayContaining(['search-index', 'ide-feed', 'answer-cache', 'sdk-files']),
    );
    expect(samples.get('marketplace_db_pool_connections')!.length).toBe(4);
  });

  it('answers only this machine, unproxied, without a token', async () => {
    const proxied = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(proxied.statusCode).toBe(403);
    const remote = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9' });
    expect(remote.statusCode).toBe(403);
  });

  it('asks for the configured token when there is one', async () => {
    const other = await buildApp({
      database: t.testDatabase.database,
      fileStore: createFileStore(t.config.dataDir),
      config: { ...t.config, performance: { ...t.config.performance, metricsToken: 'scrape-secret' } },
    });
    try {
      expect((await other.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
      const wrong = { authorization: 'Bearer scrape-secreT' };
      expect((await other.inject({ method: 'GET', url: '/metrics', headers: wrong })).statusCode).toBe(401);
      const right = await other.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: 'Bearer scrape-secret', 'x-forwarded-for': '203.0.113.9' },
        remoteAddress: '203.0.113.9',
      });
      expect(right.statusCode).toBe(200);
      parsePrometheusText(right.body);
    } finally {
      await other.close();
    }
  });
});

describe('caches', () => {
  it('lists every cache with entries, size, age and hit rate', async () => {
    await search();
    await search();
    const caches = (await report()).caches;
    expect(caches.map((cache) => cache.name)).toEqual(
      expect.arrayContaining([
        'answer-cache',
        'search-index',
        'search-stems',
        'ide-feed',
        'download-charts',
        'sdk-files',
      ]),
    );
    const index = caches.find((cache) => cache.name === 'search-index')!;
    expect(index.entries).toBeGreaterThan(0);
    expect(index.bytes).toBeGreaterThan(index.entries * 1024);
    expect(index.builtAt).toBeGreaterThan(0);
    expect(index.hitRate).toBeGreaterThan(0);
  });

  it('flushes one cache by name: searches wait for a new read, never fail or come back empty', async () => {
    const { total } = await search();
    expect(total).toBeGreaterThan(0);
    const builtBefore = (await report()).caches.find((cache) => cache.name === 'search-index')!.builtAt!;
    const response = await t.call(admin, {
      method: 'POST',
      url: '/api/performance/cache/flush?name=search-index&reason=stale+results',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ action: 'flush', caches: ['search-index'], otherNodes: 'notified' });
    const during = await Promise.all(Array.from({ length: 10 }, () => search()));
    expect(during).toEqual(during.map(() => ({ status: 200, total })));
    const index = (await report()).caches.find((cache) => cache.name === 'search-index')!;
    expect(index.builtAt).toBeGreaterThanOrEqual(builtBefore);
    const audit = await t.db.execute<{ actor_id: number; details: Record<string, unknown> }>(
      sql`SELECT actor_id, details FROM plugin_audit_log WHERE action = 'cache-flush' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit.rows[0]).toMatchObject({
      actor_id: admin,
      details: { subject: 'cache:search-index', reason: 'stale results', caches: ['search-index'] },
    });
  });

  it('reloads in the background while searches keep answering from the old index', async () => {
    const { total } = await search();
    const builtBefore = (await report()).caches.find((cache) => cache.name === 'search-index')!.builtAt!;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const reload = t.call(admin, { method: 'POST', url: '/api/performance/cache/reload' });
    const searches: Promise<{ status: number; total: number }>[] = [];
    let reloaded = false;
    // Searches go on until the new index is in, and a few after.
    for (let round = 0; round < 400 && !reloaded; round++) {
      searches.push(...Array.from({ length: 5 }, () => search()));
      await Promise.all(searches.slice(-5));
      const index = (await report()).caches.find((cache) => cache.name === 'search-index')!;
      reloaded = index.builtAt! > builtBefore && !index.reloading;
    }
    const response = await reload;
    expect(response.statusCode, response.body).toBe(202);
    expect((response.json() as CacheActionResult).caches).toEqual(
      expect.arrayContaining(['search-index', 'ide-feed', 'answer-cache']),
    );
    expect(reloaded).toBe(true);
    const answers = await Promise.all(searches);
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.filter((answer) => answer.status !== 200 || answer.total !== total)).toEqual([]);
  });

  it('tells the other nodes, which flush and reload too', async () => {
    const other: FastifyInstance = await buildApp({
      database: t.testDatabase.database,
      fileStore: createFileStore(t.config.dataDir),
      config: t.config,
    });
    try {
      await other.ready();
      await other.caches.hearOtherNodes();
      const stateOf = (name: string) => other.caches.list().find((cache) => cache.name === name)!;
      expect(stateOf('search-index').lastReload).toBeNull();
      const flush = await t.call(admin, {
        method: 'POST',
        url: '/api/performance/cache/reload?name=search-index',
      });
      expect(flush.statusCode).toBe(202);
      await other.caches.hearOtherNodes();
      await other.caches.settle();
      expect(stateOf('search-index').lastReload).toMatchObject({ ok: true });
      expect(stateOf('search-index').builtAt).toBeGreaterThan(0);
      // The node that asked skips its own event when it reads it back.
      const ownReloads = t.app.caches.list().find((cache) => cache.name === 'search-index')!.lastReload!.at;
      await t.app.caches.hearOtherNodes();
      await t.app.caches.settle();
      expect(t.app.caches.list().find((cache) => cache.name === 'search-index')!.lastReload!.at).toBe(
        ownReloads,
      );
    } finally {
      await other.close();
    }
  });
});
