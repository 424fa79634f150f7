import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage } from '../support/browser';
import { startSiteServer } from './support/site-server';
import type { SiteServer } from './support/site-server';
import { getJson, signIn } from './support/site-pages';

const POLL = { timeout: 30_000, interval: 200 };
/** How an IDE names itself when it downloads a plugin (its User-Agent), and the build it adds to the URL. */
const IDE_USER_AGENT = 'IntelliJ IDEA/241.14494.240';
const IDE_BUILD = 'IU-241.14494.240';
const DOWNLOADS = 3;
const DAY_MS = 86_400_000;

interface Summary {
  id: number;
  name: string;
  pricingModel: string;
}

interface Statistic {
  data: { name: string; value: number }[];
}

function day(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

function display(yyyyMmDd: string): string {
  const [year, month, date] = yyyyMmDd.split('-');
  return `${date}.${month}.${year}`;
}

const sum = (statistic: Statistic) => statistic.data.reduce((total, point) => total + point.value, 0);

/** Axe's serious and critical findings on the page as it is. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

describe('the vendor’s analytics tab in Chromium', () => {
  let server: SiteServer;
  let browser: Browser;
  let item: Summary & { link: string; xmlId: string };
  let developerToken: string;
  /** The tab's default range: today and the 29 days before (UTC). */
  const end = day(Date.now());
  const start = day(Date.now() - 29 * DAY_MS);
  let expectedTotal = 0;
  const rollupBefore = process.env.INSIGHT_ROLLUP_SECONDS;

  beforeAll(async () => {
    // The server's own roll-up job, every second, so the breakdowns see the downloads made below.
    process.env.INSIGHT_ROLLUP_SECONDS = '1';
    server = await startSiteServer();
    browser = await launchChromium();
    developerToken = server.createToken('developer', 'manage');
    const me = await getJson<{ id: number }>(server.origin, '/api/users/me', developerToken);
    const mine = await getJson<Summary[]>(
      server.origin,
      `/api/users/${me.id}/plugins?size=100`,
      developerToken,
    );
    const chosen = mine.find((candidate) => candidate.pricingModel === 'FREE') ?? mine[0];
    if (!chosen) throw new Error('The demo developer has no plugin.');
    const detail = await getJson<{ info: { link: string; xmlId: string } }>(
      server.origin,
      `/api/plugins/${chosen.id}`,
    );
    item = { ...chosen, link: detail.info.link, xmlId: detail.info.xmlId };
    const [version] = await getJson<{ id: number }[]>(server.origin, `/api/plugins/${item.id}/updates`);
    if (!version) throw new Error(`${item.name} has no version to download.`);

    const range = `plugin=${item.id}&startDate=${start}&endDate=${end}`;
    // Read with the vendor's token, as the tab reads it: anonymous public answers may be replayed for a few seconds.
    const before = sum(
      await getJson<Statistic>(server.origin, `/statistic/downloads-count/day?${range}`, developerToken),
    );
    const ideDownloads = async () =>
      (
        await getJson<Statistic>(server.origin, `/statistic/downloads-count/product?${range}`, developerToken)
      ).data.find((point) => point.name === 'IU')?.value ?? 0;
    // The demo has IU downloads already: the roll-up has run once the breakdown counts these on top of them
    // (waiting for any IU figure let the page read the breakdown before the roll-up, the series after it).
    const ideDownloadsBefore = await ideDownloads();
    // Downloads as the IDE makes them: its User-Agent and its build in the URL.
    for (let count = 0; count < DOWNLOADS; count += 1) {
      const response = await fetch(
        `${server.origin}/plugin/download?updateId=${version.id}&build=${IDE_BUILD}`,
        {
          headers: { 'user-agent': IDE_USER_AGENT },
        },
      );
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    expectedTotal = sum(
      await getJson<Statistic>(server.origin, `/statistic/downloads-count/day?${range}`, developerToken),
    );
    expect(expectedTotal).toBe(before + DOWNLOADS);
    // The roll-up has run once the product breakdown counts the IDE's downloads.
    const deadline = Date.now() + 60_000;
    for (;;) {
      if ((await ideDownloads()) >= ideDownloadsBefore + DOWNLOADS) break;
      if (Date.now() > deadline) throw new Error('The statistics were not rolled up within 60 s.');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  });

  afterAll(async () => {
    if (rollupBefore === undefined) delete process.env.INSIGHT_ROLLUP_SECONDS;
    else process.env.INSIGHT_ROLLUP_SECONDS = rollupBefore;
    await browser?.close();
    await server?.close();
  });

  it('shows the vendor the downloads over the last 30 days, the product breakdown, and exports them as CSV', async () => {
    const vendor = await openPage(browser);
    try {
      const page = vendor.page;
      await page.goto(`${server.origin}${item.link}`);
      await signIn(page, 'developer', server.passwords.developer);
      await page
        .getByRole('navigation', { name: /sections$/ })
        .getByRole('link', { name: 'Analytics' })
        .click();
      await page.waitForURL((url) => url.pathname === `${item.link}/analytics`);

      const range = `${display(start)}–${display(end)}`;
      await page.getByRole('img', { name: `Downloads per day, ${range}` }).waitFor(POLL);
      const totals = page.getByLabel('Totals');
      await expect
        .poll(() => totals.getByRole('definition').first().innerText(), POLL)
        .toBe(expectedTotal.toLocaleString('en-US'));
      await page.getByText(/^Figures up to \d{2}\.\d{2}\.\d{4} \d{2}:\d{2} UTC$/).waitFor(POLL);

      // A click, then the radio's state: the breakdown is in the address, and the radio shows it once the router
      // has moved (a frame later on a server-rendered, hydrated page), which check() would not wait for.
      const product = page.getByRole('radio', { name: 'Product' });
      await product.click();
      await expect.poll(() => product.isChecked(), POLL).toBe(true);
      const table = page.getByRole('table', { name: `Downloads by product, ${range}` });
      const ultimate = table.getByRole('row').filter({ hasText: 'IntelliJ IDEA Ultimate' });
      await ultimate.waitFor(POLL);
      const ultimateCount = Number((await ultimate.getByRole('cell').first().innerText()).replace(/,/g, ''));
      expect(ultimateCount).toBeGreaterThanOrEqual(DOWNLOADS);
      await page.getByRole('img', { name: `Downloads by product, ${range}` }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      // Choosing the product filters the time series by it, until the filter is cleared.
      await ultimate.getByRole('button', { name: 'IntelliJ IDEA Ultimate' }).click();
      await page.getByText('Product: IntelliJ IDEA Ultimate').waitFor(POLL);
      await expect
        .poll(() => totals.getByRole('definition').first().innerText(), POLL)
        .toBe(ultimateCount.toLocaleString('en-US'));
      await page.getByRole('button', { name: 'Clear filter' }).click();
      await expect
        .poll(() => totals.getByRole('definition').first().innerText(), POLL)
        .toBe(expectedTotal.toLocaleString('en-US'));

      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download CSV' }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe(`${item.xmlId}-downloads-count-${start}-${end}.csv`);
      const csv = await readFile(await file.path(), 'utf8');
      const lines = csv.split('\r\n');
      expect(lines[0]).toBe('section,name,label,value,compared_name,compared_label,compared_value,filters');
      const days = lines.filter((line) => line.startsWith('day,'));
      expect(days).toHaveLength(30);
      expect(days.at(-1)).toMatch(new RegExp(`^day,${end},${display(end).replace(/\./g, '\\.')},\\d+,,,,$`));
      expect(days.reduce((total, line) => total + Number(line.split(',')[3]), 0)).toBe(expectedTotal);
      expect(lines).toContain(`product,IU,IntelliJ IDEA Ultimate,${ultimateCount},,,,`);
      expect(csv.endsWith('\r\n')).toBe(true);
      expect(vendor.errors).toEqual([]);
    } finally {
      await vendor.context.close();
    }
  });

  it('is not there for a stranger: a guest is asked to sign in, a signed-in visitor finds no such page', async () => {
    const stranger = await openPage(browser);
    try {
      const page = stranger.page;
      await page.goto(`${server.origin}${item.link}/analytics`);
      await page.getByRole('heading', { name: 'Sign in to continue' }).waitFor(POLL);
      await signIn(page, 'visitor', server.passwords.visitor);
      await page.getByRole('heading', { name: 'Page not found' }).waitFor(POLL);
      await page.goto(`${server.origin}${item.link}`);
      const tabs = page.getByRole('navigation', { name: /sections$/ });
      await tabs.getByRole('link', { name: 'Reviews' }).waitFor(POLL);
      expect(await tabs.getByRole('link', { name: 'Analytics' }).count()).toBe(0);
      // The server says the same to the visitor's token: the statistics are not theirs to read.
      const visitorToken = server.createToken('visitor', 'manage');
      const refused = await fetch(
        `${server.origin}/statistic/downloads-count/product?plugin=${item.id}&startDate=${start}&endDate=${end}`,
        { headers: { accept: 'application/json', authorization: `Bearer ${visitorToken}` } },
      );
      expect([403, 404]).toContain(refused.status);
      expect(stranger.errors).toEqual([]);
    } finally {
      await stranger.context.close();
    }
  });
});
