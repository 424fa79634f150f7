import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage } from '../support/browser';
import { startSiteServer, type SiteServer } from './support/site-server';
import { signIn } from './support/site-pages';

const WAIT = { timeout: 60_000 };

describe('the scheduler’s admin screen in Chromium', () => {
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

  it('lets the administrator run a job now and see its outcome, and pause and resume one', async () => {
    const admin = await openPage(browser);
    try {
      const page = admin.page;
      await page.goto(`${server.origin}/admin/scheduler`);
      await signIn(page, 'admin', server.passwords.admin);
      await page
        .getByRole('navigation', { name: 'Administration' })
        .getByRole('link', { name: 'Scheduler' })
        .waitFor();
      const table = page.getByRole('table', { name: 'Recurring jobs' });
      await table.waitFor(WAIT);
      for (const title of [
        'Statistics roll-up',
        'Scheduled price changes',
        'Verification queue',
        'Orphan-file sweep',
        'Token expiry clean-up',
        'Search re-index',
      ]) {
        await table.getByRole('rowheader', { name: new RegExp(`^${title}`) }).waitFor();
      }

      // Run now: the row says when it ran, how long it took and how it went.
      const rollup = table.locator('tr[data-job="insight-rollup"]');
      await rollup.getByRole('button', { name: 'Run Statistics roll-up now' }).click();
      await rollup
        .getByRole('status')
        .getByText(/Run now: succeeded in/)
        .waitFor(WAIT);
      await rollup.getByText('Succeeded', { exact: true }).waitFor();
      await rollup.getByText(/Rolled up \d+ day\(s\)/).waitFor();
      expect(await rollup.locator('td').nth(1).textContent()).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
      expect(await rollup.locator('td').nth(2).textContent()).toMatch(/\d( ms| s)/);

      // Pause: no next run; Resume: scheduled again with a next run.
      const sweep = table.locator('tr[data-job="orphan-sweep"]');
      await sweep.getByRole('button', { name: 'Pause Orphan-file sweep' }).click();
      await sweep.getByText('Paused', { exact: true }).first().waitFor(WAIT);
      expect(await sweep.locator('td').nth(4).textContent()).toBe('—');
      await page.reload();
      await signInIfAsked(page);
      const sweepAfterReload = page.locator('tr[data-job="orphan-sweep"]');
      await sweepAfterReload.getByRole('button', { name: 'Resume Orphan-file sweep' }).click(WAIT);
      await sweepAfterReload.getByRole('status').getByText('Resumed.').waitFor(WAIT);
      await sweepAfterReload.getByText('Scheduled', { exact: true }).waitFor();
      expect(await sweepAfterReload.locator('td').nth(4).textContent()).toMatch(/UTC$/);
      expect(admin.errors).toEqual([]);
    } finally {
      await admin.context.close();
    }
  });
});

/** A reload keeps the session; this only waits for the page to know who is signed in. */
async function signInIfAsked(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign out' }).waitFor(WAIT);
}
