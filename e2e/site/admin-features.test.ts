import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage } from '../support/browser';
import { startSiteServer } from './support/site-server';
import type { SiteServer } from './support/site-server';
import { signIn } from './support/site-pages';

const POLL = { timeout: 30_000 };
const NEW_SECTION = 'New on the marketplace';

async function consentCookie(page: Page): Promise<string | undefined> {
  const cookies = await page.context().cookies();
  return cookies.find((cookie) => cookie.name === 'mp_consent')?.value;
}

/** Opens the home page and waits for the visitor's flags to be read, so an absent section is really absent. */
async function openHome(page: Page, origin: string, reload = false): Promise<void> {
  const flags = page.waitForResponse((response) => response.url().includes('/api/features/mine'));
  if (reload) await page.reload();
  else await page.goto(`${origin}/`);
  expect((await flags).status()).toBe(200);
  await page.getByRole('heading', { name: 'Most downloaded' }).waitFor(POLL);
}

describe('feature flags and consent in Chromium', () => {
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

  it('asks a first-time visitor on a phone without covering the page; the choice sticks and can change', async () => {
    const visitor = await openPage(browser);
    try {
      const page = visitor.page;
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${server.origin}/`);
      const banner = page.getByRole('region', { name: 'Cookies and statistics' });
      await banner.waitFor(POLL);
      // The server draws the banner into the page; its buttons answer once the page has hydrated, which the
      // account button (never drawn by the server) shows.
      await page
        .getByRole('button', { name: /^Sign (in|out)$/ })
        .first()
        .waitFor(POLL);
      // In the page's flow under the header: the main content starts below it, nothing is covered.
      const bannerBox = (await banner.boundingBox())!;
      const mainBox = (await page.locator('main#main').boundingBox())!;
      expect(bannerBox.y + bannerBox.height).toBeLessThanOrEqual(mainBox.y + 1);
      expect(bannerBox.width).toBeLessThanOrEqual(390);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

      // Keyboard only: Tab reaches the choice, Enter makes it.
      const decline = banner.getByRole('button', { name: 'Decline' });
      for (let step = 0; step < 40; step += 1) {
        await page.keyboard.press('Tab');
        if (await decline.evaluate((element) => element === document.activeElement)) break;
      }
      expect(await decline.evaluate((element) => element === document.activeElement)).toBe(true);
      await page.keyboard.press('Enter');
      await banner.waitFor({ state: 'detached', ...POLL });
      expect(await consentCookie(page)).toBe('denied');

      await page.reload();
      await page.getByRole('heading', { name: 'Most downloaded' }).waitFor(POLL);
      await page.waitForTimeout(500);
      expect(await banner.count()).toBe(0);

      // Changed later from the footer: the banner comes back with the focus and the current choice.
      await page.getByRole('button', { name: 'Cookie settings' }).click();
      await banner.waitFor(POLL);
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.textContent ?? ''))
        .toBe('Cookies and statistics');
      expect(await banner.textContent()).toContain('Your current choice: declined');
      await banner.getByRole('button', { name: 'Accept' }).click();
      await banner.waitFor({ state: 'detached', ...POLL });
      expect(await consentCookie(page)).toBe('granted');
      await page.reload();
      await page.getByRole('heading', { name: 'Most downloaded' }).waitFor(POLL);
      await page.waitForTimeout(500);
      expect(await banner.count()).toBe(0);
      expect(visitor.errors).toEqual([]);
    } finally {
      await visitor.context.close();
    }
  });

  it('an administrator flips a flag and a visitor sees the home page change', async () => {
    const visitor = await openPage(browser);
    const admin = await openPage(browser);
    try {
      await openHome(visitor.page, server.origin);
      expect(await visitor.page.getByRole('heading', { name: NEW_SECTION }).count()).toBe(0);

      const page = admin.page;
      await page.goto(`${server.origin}/admin/features`);
      await signIn(page, 'admin', server.passwords.admin);
      const flags = page.getByRole('table', { name: 'Flags' });
      const row = flags.getByRole('row').filter({ hasText: 'home-new-items' });
      await row.waitFor(POLL);
      expect(await row.textContent()).toContain('Off');
      await row.getByRole('button', { name: 'Turn on home-new-items' }).click();
      await row.getByRole('button', { name: 'Turn off home-new-items' }).waitFor(POLL);

      await openHome(visitor.page, server.origin, true);
      const section = visitor.page.getByRole('region', { name: NEW_SECTION });
      await section.waitFor(POLL);
      await section.getByRole('link').first().waitFor(POLL);

      // The usage statistic counts the visitor's two looks at the flag (this process flushes on read).
      const usage = page.getByRole('table', { name: 'Usage of each flag' });
      await page.getByRole('button', { name: 'Refresh' }).click();
      await expect
        .poll(
          async () =>
            (await usage.getByRole('row').filter({ hasText: 'home-new-items' }).textContent()) ?? '',
          {
            timeout: 10_000,
          },
        )
        .toMatch(/home-new-items\s*1\s*1\s*0\s*100%/);

      // Bad input is refused with the server's message, and nothing is created.
      await page.getByRole('button', { name: 'New flag' }).click();
      const form = page.getByRole('form', { name: 'New flag' });
      await form.getByLabel('Name').fill('beta-testers');
      await form.getByLabel('Type').selectOption('users');
      await form.getByPlaceholder('Add a login').fill('nobody-of-that-name');
      await form.getByRole('button', { name: 'Add', exact: true }).click();
      await form.getByRole('button', { name: 'Create flag' }).click();
      await form
        .getByRole('alert')
        .filter({ hasText: 'No user has the login "nobody-of-that-name"' })
        .waitFor(POLL);
      await form.getByRole('button', { name: 'Remove nobody-of-that-name' }).click();
      await form.getByPlaceholder('Add a login').fill('developer');
      await form.getByRole('button', { name: 'Add', exact: true }).click();
      await form.getByRole('button', { name: 'Create flag' }).click();
      await flags.getByRole('row').filter({ hasText: 'beta-testers' }).waitFor(POLL);
      expect(await flags.getByRole('row').filter({ hasText: 'beta-testers' }).textContent()).toContain(
        'developer',
      );

      // Grouped by type, each type under its own heading.
      await page.getByLabel('Group by type').check();
      await page
        .getByRole('table', { name: 'Listed users' })
        .getByRole('row')
        .filter({ hasText: 'beta-testers' })
        .waitFor(POLL);
      await page
        .getByRole('table', { name: 'Share of visitors' })
        .getByRole('row')
        .filter({ hasText: 'home-search-hint' })
        .waitFor(POLL);
      expect(visitor.errors).toEqual([]);
      expect(admin.errors).toEqual([]);
    } finally {
      await visitor.context.close();
      await admin.context.close();
    }
  });
});
