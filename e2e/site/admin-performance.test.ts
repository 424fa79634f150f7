import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage } from '../support/browser';
import { startSiteServer } from './support/site-server';
import type { SiteServer } from './support/site-server';
import { getJson, signIn } from './support/site-pages';

const POLL = { timeout: 60_000, interval: 250 };

interface SearchOutcome {
  status: number;
  total: number;
}

describe('the performance screen in Chromium', () => {
  let server: SiteServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startSiteServer();
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A search a visitor makes, from Node; its status and total (0 when it failed). */
  async function search(query: string): Promise<SearchOutcome> {
    try {
      const response = await fetch(new URL(`/api/searchPlugins?${query}`, server.origin));
      const body = response.ok ? ((await response.json()) as { total: number }) : { total: 0 };
      return { status: response.status, total: body.total };
    } catch {
      return { status: 0, total: 0 };
    }
  }

  it('shows live numbers that grow, and flushes and reloads the search cache while searches answer', async () => {
    const admin = await openPage(browser);
    try {
      const page = admin.page;
      await page.goto(`${server.origin}/admin/performance`);
      await signIn(page, 'admin', server.passwords.admin);
      const requests = page.getByTestId('performance-requests');
      await requests.waitFor(POLL);
      const readRequests = async () => Number((await requests.textContent())!.replace(/,/g, ''));
      const first = await readRequests();

      // Visitors search meanwhile: the screen's numbers grow at its next refresh.
      for (let index = 0; index < 10; index++)
        expect((await search(`search=git&max=5&offset=${index}`)).status).toBe(200);
      await expect.poll(readRequests, { timeout: 30_000, interval: 500 }).toBeGreaterThanOrEqual(first + 10);
      const routes = page.getByRole('table', { name: 'Busiest routes' });
      await routes.getByRole('row').filter({ hasText: 'GET /api/searchPlugins' }).waitFor(POLL);
      await page.getByRole('img', { name: /Request latency/ }).waitFor(POLL);

      // Searches keep going while the search index is flushed and then reloaded from the screen.
      const baseline = await search('orderBy=name&max=5');
      expect(baseline.total).toBeGreaterThan(0);
      const outcomes: SearchOutcome[] = [];
      let searching = true;
      const searchers = Array.from({ length: 3 }, async () => {
        while (searching) outcomes.push(await search('orderBy=name&max=5'));
      });
      try {
        const caches = page.getByRole('table', { name: 'Caches' });
        const indexRow = caches.getByRole('row').filter({ hasText: 'search-index' });
        await indexRow.waitFor(POLL);
        await indexRow.getByRole('button', { name: 'Flush search-index' }).click();
        await page.getByText('search-index flushed').waitFor(POLL);
        await indexRow.getByRole('button', { name: 'Reload search-index' }).click();
        await page.getByText('search-index reloading in the background').waitFor(POLL);
        // The reload is done once the row no longer says so and its built time is fresh.
        await expect
          .poll(
            async () => {
              const report = await getJson<{
                caches: { name: string; reloading: boolean; lastReload: unknown }[];
              }>(server.origin, '/api/performance', server.createToken('admin', 'manage'));
              const index = report.caches.find((cache) => cache.name === 'search-index');
              return index !== undefined && !index.reloading && index.lastReload !== null;
            },
            { timeout: 60_000, interval: 1000 },
          )
          .toBe(true);
      } finally {
        searching = false;
        await Promise.all(searchers);
      }
      expect(outcomes.length).toBeGreaterThan(0);
      expect(
        outcomes.filter((outcome) => outcome.status !== 200 || outcome.total !== baseline.total),
      ).toEqual([]);
      expect(admin.errors).toEqual([]);
    } finally {
      await admin.context.close();
    }
  });
});
