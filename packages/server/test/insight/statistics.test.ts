import { formatStatisticsDate } from '@marketplace/core';
import type { StatisticResult } from '@marketplace/api-contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rollUpInsight } from '../../src/insight';
import { selectRows } from '../../src/search/sql';
import { PLUGINS, USERS, VERSIONS } from '../api/catalogue-fixture';
import { DATABASE_KINDS } from '../db/test-database';
import { createReviewsTestApp, type ReviewsTestApp } from '../reviews/reviews-test-app';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

/*
 * Statistics through the real application: downloads and update checks made over HTTP by IDEs and browsers
 * from addresses in known countries, rolled up by the job, read back by measure and dimension by the item's
 * people; strangers and guests see none of it.
 */

const IDE_AGENT = 'IntelliJ IDEA/241.14494.240';
const BROWSER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/150.0 Safari/537.36';
const GB = '81.2.69.160';
const US = '8.8.8.8';
const today = formatStatisticsDate(Date.now());

describe.each(DATABASE_KINDS)('statistics on %s', (kind) => {
  let t: ReviewsTestApp;
  let admin = 0;

  /** As Alice, the item's owner, unless another user (or `null`, a guest) is given. */
  const statistic = async (path: string, userId: number | null = USERS.alice.id) =>
    t.call(userId ?? undefined, { method: 'GET', url: `/statistic/${path}` });
  const data = async (path: string) => {
    const response = await statistic(path);
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as StatisticResult).data;
  };
  const range = `plugin=${PLUGINS.gitToolbox}&startDate=${today}&endDate=${today}`;

  beforeAll(async () => {
    t = await createReviewsTestApp({ kind });
    admin = await t.addUser('insight-admin', { isAdmin: true });
    const download = (updateId: number, agent: string, address: string, build?: string) =>
      t.app.inject({
        method: 'GET',
        url: `/plugin/download?updateId=${updateId}${build ? `&build=${build}` : ''}`,
        headers: { 'user-agent': agent },
        remoteAddress: address,
      });
    // Three IDE installs from Britain (two by the same IDE: one unique downloader), one from the US, one
    // browser download from the US, and an EAP download by a PyCharm of branch 242.
    for (const response of [
      await download(VERSIONS.gitToolbox241, IDE_AGENT, GB, 'IU-241.14494.240'),
      await download(VERSIONS.gitToolbox241, IDE_AGENT, GB, 'IU-241.14494.240'),
      await download(VERSIONS.gitToolbox241, 'PhpStorm/241.1', US),
      await download(VERSIONS.gitToolbox241, BROWSER_AGENT, US),
      await download(VERSIONS.gitToolboxEap, 'PyCharm/242.2.3', GB, 'PY-242.2.3'),
    ])
      expect(response.statusCode).toBe(200);
    const check = await t.app.inject({
      method: 'POST',
      url: '/api/search/updates/compatible',
      headers: { 'user-agent': IDE_AGENT },
      remoteAddress: GB,
      payload: { build: 'IU-241.14494.240', pluginXMLIds: ['com.example.gittoolbox', 'no.such.plugin'] },
    });
    expect(check.statusCode).toBe(200);
    await rollUpInsight(t.db);
  });

  afterAll(async () => t?.close());

  it('counts every download by day, as the public count does', async () => {
    expect(await data(`downloads-count/day?${range}`)).toEqual([{ name: today, value: 5 }]);
    const publicCount = await t.app.inject({ method: 'GET', url: `/statistic/downloads-count/day?${range}` });
    expect(publicCount.json()).toMatchObject({ data: [{ name: today, value: 5 }] });
  });

  it('tells IDE installs, unique downloaders and update checks apart', async () => {
    expect(await data(`installs/day?${range}`)).toEqual([{ name: today, value: 4 }]);
    expect(await data(`downloads-unique/day?${range}`)).toEqual([{ name: today, value: 4 }]);
    expect(await data(`update-checks/day?${range}`)).toEqual([{ name: today, value: 1 }]);
  });

  it('breaks downloads down by product, branch, version, channel and country, largest first', async () => {
    expect(await data(`downloads-count/product?${range}`)).toEqual([
      { name: 'IU', value: 2 },
      { name: '', value: 1 },
      { name: 'PS', value: 1 },
      { name: 'PY', value: 1 },
    ]);
    expect(await data(`downloads-count/branch?${range}`)).toEqual([
      { name: '241', value: 3 },
      { name: '', value: 1 },
      { name: '242', value: 1 },
    ]);
    expect(await data(`downloads-count/country?${range}`)).toEqual([
      { name: 'GB', value: 3 },
      { name: 'US', value: 2 },
    ]);
    expect(await data(`downloads-count/channel?${range}`)).toEqual([
      { name: '', value: 4 },
      { name: 'eap', value: 1 },
    ]);
    const versions = await data(`downloads-count/version?${range}`);
    expect(versions.map((point) => point.value)).toEqual([4, 1]);
  });

  it('filters by the other dimensions', async () => {
    expect(await data(`downloads-count/product?${range}&country=gb`)).toEqual([
      { name: 'IU', value: 2 },
      { name: 'PY', value: 1 },
    ]);
    expect(await data(`downloads-unique/day?${range}&country=GB&product=IU`)).toEqual([
      { name: today, value: 1 },
    ]);
    expect(await data(`installs/country?${range}&channel=eap`)).toEqual([{ name: 'GB', value: 1 }]);
    expect(await data(`downloads-count/day?${range}&branch=`)).toEqual([{ name: today, value: 1 }]);
  });

  it('groups days into ISO weeks and months named by their first day, every period listed with fill=full', async () => {
    const monday = formatStatisticsDate(Date.now() - ((new Date().getUTCDay() + 6) % 7) * 86_400_000);
    expect(await data(`downloads-count/week?${range}`)).toEqual([{ name: monday, value: 5 }]);
    const month = `${today.slice(0, 8)}01`;
    expect(await data(`downloads-count/month?${range}`)).toEqual([{ name: month, value: 5 }]);
    const days = await data(
      `downloads-count/day?plugin=${PLUGINS.gitToolbox}&startDate=2026-01-01&endDate=2026-01-31&fill=full`,
    );
    expect(days).toHaveLength(31);
    expect(days.every((point) => point.value === 0)).toBe(true);
  });

  it('keeps no client address, only the day’s hash', async () => {
    const rows = await selectRows<Record<string, unknown>>(t.db, sql`SELECT * FROM insight_events`);
    // Five downloads and one update check (the unknown plugin of the check is not counted).
    expect(rows).toHaveLength(6);
    const text = JSON.stringify(rows, (_key, value: unknown) =>
      typeof value === 'bigint' ? value.toString() : value,
    );
    expect(text).not.toContain(GB);
    expect(text).not.toContain(US);
  });

  it('answers its developers and administrators, and no one else', async () => {
    expect((await statistic(`downloads-count/country?${range}`, USERS.alice.id)).statusCode).toBe(200);
    expect((await statistic(`downloads-count/country?${range}`, admin)).statusCode).toBe(200);
    expect((await statistic(`downloads-count/country?${range}`, USERS.carol.id)).statusCode).toBe(403);
    expect((await statistic(`downloads-count/country?${range}`, null)).statusCode).toBe(401);
    const missing = await statistic(
      `downloads-count/country?plugin=999999&startDate=${today}&endDate=${today}`,
    );
    expect(missing.statusCode).toBe(404);
    // The public daily downloads stay public; filtering them is for the same people.
    expect((await statistic(`downloads-count/day?${range}`, null)).statusCode).toBe(200);
    expect((await statistic(`downloads-count/day?${range}&country=GB`, null)).statusCode).toBe(401);
    expect((await statistic(`downloads-count/day?${range}&country=GB`, USERS.carol.id)).statusCode).toBe(403);
  });

  it('refuses what cannot be answered with a message that says why', async () => {
    const cases: [string, RegExp][] = [
      [`trials/country?${range}`, /trials cannot be broken down by country/],
      [`sales/version?${range}`, /sales cannot be broken down by version/],
      [`sales/day?${range}&product=IU`, /sales cannot be filtered by product/],
      [`downloads-count/day?plugin=1&startDate=2026-02-30&endDate=2026-03-01`, /not a day of the calendar/],
      [`downloads-count/day?plugin=1&startDate=2026-03-02&endDate=2026-03-01`, /must not be before/],
      [`downloads-count/day?plugin=1&startDate=2000-01-01&endDate=2026-03-01`, /at most 3660 days/],
      [`downloads-count/day?${range}&branch=abc`, /not a build branch/],
      [`downloads-count/planet?${range}`, /dimension/],
      [`downloads-total/day?${range}`, /measure/],
    ];
    for (const [path, message] of cases) {
      const response = await statistic(path);
      expect(response.statusCode, path).toBe(400);
      expect((response.json() as { message: string }).message, path).toMatch(message);
    }
  });

  it('reads sales and revenue from selling, in the one currency', async () => {
    await t.db.execute(sql`INSERT INTO sales (plugin_id, sold_at, license_kind, billing_period, quantity,
        country_code, currency, gross_minor, discount_minor, commission_minor, net_minor)
      VALUES (${PLUGINS.gitToolbox}, now(), 'PERSONAL', 'YEARLY', 1, 'DE', 'USD', 10000, 0, 1500, 8500),
             (${PLUGINS.gitToolbox}, now(), 'PERSONAL', 'YEARLY', 1, 'FR', 'USD', 10000, 1000, 1350, 7650)`);
    const revenue = await statistic(`revenue/country?${range}`);
    expect(revenue.json()).toMatchObject({
      currency: 'USD',
      data: [
        { name: 'DE', value: 8500 },
        { name: 'FR', value: 7650 },
      ],
    });
    expect(await data(`sales/day?${range}&country=FR`)).toEqual([{ name: today, value: 1 }]);
  });
});

describe('the country of a download behind a proxy', () => {
  let t: ReviewsTestApp;
  beforeAll(async () => {
    t = await createReviewsTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
  });
  afterAll(async () => t?.close());

  it('believes X-Forwarded-For from the configured proxy only', async () => {
    const download = (remoteAddress: string) =>
      t.app.inject({
        method: 'GET',
        url: `/plugin/download?updateId=${VERSIONS.gitToolbox241}`,
        headers: { 'user-agent': IDE_AGENT, 'x-forwarded-for': GB },
        remoteAddress,
      });
    expect((await download('127.0.0.1')).statusCode).toBe(200);
    // Anyone else sending the header is counted at their own address.
    expect((await download(US)).statusCode).toBe(200);
    await rollUpInsight(t.db);
    const response = await t.call(USERS.alice.id, {
      method: 'GET',
      url: `/statistic/downloads-count/country?plugin=${PLUGINS.gitToolbox}&startDate=${today}&endDate=${today}`,
    });
    expect((response.json() as StatisticResult).data).toEqual([
      { name: 'GB', value: 1 },
      { name: 'US', value: 1 },
    ]);
  });
});
