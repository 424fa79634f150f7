import { formatDisplayDate, hasThemeTag, shouldShowUpdateDate } from '@marketplace/core';
import { startIdeSimulator } from '@marketplace/ide-simulator';
import type { IdeSimulator } from '@marketplace/ide-simulator';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage } from '../support/browser';
import { findDemoItems } from '../support/catalogue';
import type { DemoItems } from '../support/catalogue';
import { pluginJar } from './support/plugin-archive';
import { startSiteServer } from './support/site-server';
import type { SiteServer } from './support/site-server';
import { getJson, signIn } from './support/site-pages';

const POLL = { timeout: 30_000, interval: 200 };

/** The caption of the 30-day download chart every card shows (ui's DownloadsChart). */
const CHART_CAPTION = /^[\d,]+ downloads in the last 30 days$/;

/** The caption the chart of these points shows (en-US grouping, as the site formats numbers). */
function chartCaption(points: readonly { value: number }[]): string {
  const total = points.reduce((sum, point) => sum + point.value, 0);
  return `${total.toLocaleString('en-US')} downloads in the last 30 days`;
}

/** Every card of the list named `label` shows a 30-bar chart with its caption; answers the captions. */
async function chartsOfEveryCard(page: Page, label: string): Promise<string[]> {
  const list = page.getByRole('list', { name: label, exact: true });
  await list.locator('.mp-card .mp-chart__caption').first().waitFor(POLL);
  const cards = await list.locator(':scope > li > .mp-card').count();
  expect(cards, label).toBeGreaterThan(0);
  const captions = await list.locator('.mp-card .mp-chart__caption').allInnerTexts();
  expect(captions, label).toHaveLength(cards);
  for (const caption of captions) expect(caption, label).toMatch(CHART_CAPTION);
  const bars = await list
    .locator('.mp-card .mp-chart__bars')
    .evaluateAll((charts) => charts.map((chart) => chart.querySelectorAll('.mp-chart__bar').length));
  expect(bars, label).toEqual(Array.from({ length: cards }, () => 30));
  return captions;
}

/** The mean rating the item page shows in its reviews summary ("4.2 out of 5"). */
async function shownMeanRating(page: Page): Promise<string> {
  return (await page.locator('.site-reviews__mean').innerText()).trim();
}

describe('the marketplace site in Chromium', () => {
  let server: SiteServer;
  let browser: Browser;
  let ide: IdeSimulator;
  let items: DemoItems;

  beforeAll(async () => {
    server = await startSiteServer();
    items = await findDemoItems(server.origin);
    browser = await launchChromium();
    ide = await startIdeSimulator({ port: 63342, plugins: { [items.plugin.xmlId]: true } });
  });

  afterAll(async () => {
    await ide?.close();
    await browser?.close();
    await server?.close();
  });

  it('lets a visitor search, open an item and install it into the running IDE', async () => {
    const { context, page, errors } = await openPage(browser);
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error') warnings.push(message.text());
    });
    try {
      await page.goto(`${server.origin}/`);
      await expect.poll(() => page.title(), POLL).toBe('Plugins for your IDE | Marketplace');
      // A first load warns about nothing (React Router asked for a HydrateFallback on every one).
      expect(warnings.filter((text) => text.includes('HydrateFallback'))).toEqual([]);
      const searchBox = page.getByRole('combobox', { name: 'Search plugins' });
      await searchBox.fill(items.plugin.name);
      await page
        .getByRole('option', { name: new RegExp(items.plugin.name) })
        .first()
        .waitFor();
      await searchBox.press('Enter');
      await page.waitForURL(/\/search\?search=/);
      await page.getByRole('heading', { name: items.plugin.name, exact: true }).first().click();
      await page.waitForURL(new RegExp(`/plugin/${items.plugin.id}-`));
      await expect.poll(() => page.title(), POLL).toBe(`${items.plugin.name} | Marketplace`);

      await page.getByRole('button', { name: `Install to ${ide.name}` }).click();
      await page.getByText(`Check your IDE - ${ide.name}`).waitFor(POLL);
      await expect.poll(() => ide.installedPluginIds(), POLL).toContain(items.plugin.xmlId);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('keeps the search in the address and restores the scroll position on Back', async () => {
    const { context, page } = await openPage(browser);
    try {
      await page.setViewportSize({ width: 1280, height: 700 });
      await page.goto(`${server.origin}/search?orderBy=downloads&payment=free`);
      await page.locator('.site-grid .mp-card').nth(10).waitFor();
      expect(await page.getByLabel('Sort by').inputValue()).toBe('downloads');
      expect(await page.getByRole('radio', { name: 'Free' }).isChecked()).toBe(true);
      await page.getByLabel('Sort by').selectOption('name');
      await page.waitForURL(/orderBy=name/);
      expect(new URL(page.url()).searchParams.get('payment')).toBe('free');

      // The new order's results replace the old ones first: scroll once they are all there.
      await page.locator('.site-grid[aria-busy="false"] .mp-card').nth(12).waitFor();
      await expect
        .poll(async () => {
          await page.evaluate(() => window.scrollTo(0, 1200));
          return page.evaluate(() => window.scrollY);
        })
        .toBeGreaterThan(900);
      const scrolled = await page.evaluate(() => window.scrollY);
      const card = page.locator('.site-grid .mp-card a').nth(12);
      await card.click();
      await page.waitForURL(/\/plugin\//);
      await page.goBack();
      await page.waitForURL(/orderBy=name/);
      await expect.poll(() => page.evaluate(() => window.scrollY), POLL).toBeGreaterThan(scrolled - 50);
    } finally {
      await context.close();
    }
  });

  it('publishes a new plugin and version that an administrator approves into search and the IDE feed', async () => {
    const xmlId = `com.example.e2e.site${Date.now()}`;
    const name = `Site Flow Lens ${Date.now() % 100000}`;
    const jar = (version: string) => ({
      name: `lens-${version}.jar`,
      mimeType: 'application/java-archive',
      buffer: pluginJar({ xmlId, name, version, description: '<p>Lenses for every file you open.</p>' }),
    });
    const developer = await openPage(browser);
    const admin = await openPage(browser);
    try {
      const page = developer.page;
      const status = page.getByRole('region', { name: 'Status' });
      const statusLabel = status.locator('.site-status__label');
      await page.goto(`${server.origin}/dashboard`);
      await signIn(page, 'developer', server.passwords.developer);
      await page.getByRole('link', { name: 'Add a new item' }).click();
      await page.waitForURL(/\/dashboard\/new/);
      // Required fields are marked before anything is sent.
      expect(await page.getByLabel('License URL').getAttribute('aria-required')).toBe('true');
      await page.getByRole('button', { name: 'Upload plugin' }).click();
      await page.getByText('Choose the plugin archive (.zip or .jar).').waitFor();
      await page.getByText('Choose at least one tag.').waitFor();

      await page.getByLabel('Plugin archive').setInputFiles(jar('1.0.0'));
      await page.getByLabel('License URL').fill('https://example.com/license');
      // Tags come from the catalogue's list: unknown text is not added, a typed-ahead tag is.
      const tags = page.getByRole('combobox', { name: 'Tags' });
      await tags.fill('Nonsense');
      await tags.press('Enter');
      await page
        .getByText('“Nonsense” is not one of the catalogue’s tags: pick one from the list.')
        .waitFor();
      await tags.fill('Langu');
      await page.getByRole('option', { name: 'Languages', exact: true }).waitFor(POLL);
      await tags.press('Enter');
      await page.getByRole('button', { name: 'Remove tag Languages' }).waitFor();
      await page.getByRole('button', { name: 'Upload plugin' }).click();
      await page.getByText('Version 1.0.0 is uploaded').waitFor(POLL);
      // The first upload makes a draft, with Publish as its next step, right there.
      await statusLabel.getByText('Draft', { exact: true }).waitFor(POLL);
      await status
        .getByText(
          'Not visible to anyone else yet. Publish it to send it to the administrators for approval.',
        )
        .waitFor();
      expect(await status.getByRole('button', { name: 'Publish', exact: true }).count()).toBe(1);

      await page.getByRole('link', { name: 'Manage the plugin' }).click();
      await page.waitForURL(/\/dashboard\/plugin\/\d+/);
      const pluginId = Number(/\/dashboard\/plugin\/(\d+)/.exec(page.url())?.[1]);
      // The page is complete once its version list has loaded.
      await page.getByRole('form', { name: 'Compatibility of version 1.0.0' }).waitFor(POLL);
      await statusLabel.getByText('Draft', { exact: true }).waitFor(POLL);

      await page.getByLabel('Archive').setInputFiles(jar('1.1.0'));
      await page.getByRole('button', { name: 'Upload version' }).click();
      await page
        .getByText(
          'Version 1.1.0 is uploaded. It is part of the draft: publish the plugin to send it to the administrators for approval.',
        )
        .waitFor(POLL);
      await status.getByRole('button', { name: 'Publish', exact: true }).click();
      await page.getByText('Published: it now waits for the administrators’ approval').waitFor(POLL);
      await statusLabel.getByText('Waiting for approval', { exact: true }).waitFor(POLL);
      expect(await page.getByRole('button', { name: 'Publish', exact: true }).count()).toBe(0);

      const search = () =>
        getJson<{ plugins: { id: number }[] }>(
          server.origin,
          `/api/searchPlugins?search=${encodeURIComponent(name)}`,
        );
      expect((await search()).plugins.map((plugin) => plugin.id)).not.toContain(pluginId);

      // The published plugin is in the administrators' approval queue, as a new plugin.
      await admin.page.goto(`${server.origin}/admin`);
      await signIn(admin.page, 'admin', server.passwords.admin);
      const row = admin.page.getByRole('row', { name: new RegExp(name) });
      await row.getByText('New plugin').waitFor(POLL);
      await row.getByRole('button', { name: 'Review' }).click();
      await admin.page.getByRole('button', { name: 'Approve', exact: true }).click();
      await admin.page.getByText('Approve: done').waitFor(POLL);
      await admin.page.locator('.site-badge', { hasText: /^Approved$/ }).waitFor(POLL);

      // Live, and no Publish on a live plugin.
      await page.reload();
      await page.getByRole('form', { name: 'Compatibility of version 1.1.0' }).waitFor(POLL);
      await statusLabel.getByText('Live', { exact: true }).waitFor(POLL);
      expect(await page.getByRole('button', { name: 'Publish', exact: true }).count()).toBe(0);
      expect(await status.getByRole('button', { name: 'Request removal' }).count()).toBe(1);

      // A new version of the live plugin waits for approval, and says so.
      await page.getByLabel('Archive').setInputFiles(jar('1.2.0'));
      await page.getByRole('button', { name: 'Upload version' }).click();
      await page
        .getByText('Version 1.2.0 is uploaded. It is waiting for an administrator’s approval.')
        .waitFor(POLL);
      await statusLabel.getByText('Live — 1 version waiting for approval', { exact: true }).waitFor(POLL);

      await expect
        .poll(async () => (await search()).plugins.map((plugin) => plugin.id), POLL)
        .toContain(pluginId);
      const visitor = await openPage(browser);
      try {
        await visitor.page.goto(`${server.origin}/search?search=${encodeURIComponent(name)}`);
        await visitor.page.getByRole('heading', { name, exact: true }).waitFor(POLL);
      } finally {
        await visitor.context.close();
      }
      const feed = await fetch(`${server.origin}/plugins/list?build=IU-252.23892.409`).then((answer) =>
        answer.text(),
      );
      expect(feed).toContain(xmlId);
      expect(developer.errors).toEqual([]);
      expect(admin.errors).toEqual([]);
    } finally {
      await developer.context.close();
      await admin.context.close();
    }
  });

  it('shows the 30-day download chart on every card: home, search, themes, the dashboard and the embed card', async () => {
    const visitor = await openPage(browser);
    const developer = await openPage(browser);
    try {
      const { page } = visitor;
      await page.goto(`${server.origin}/`);
      for (const label of ['Most downloaded', 'Recently updated', 'Top rated']) {
        await chartsOfEveryCard(page, label);
      }
      // The first card's chart is the one the list answer carries.
      const mostDownloaded = await getJson<{ plugins: { downloadStatistics: { value: number }[] }[] }>(
        server.origin,
        '/api/searchPlugins?orderBy=downloads&max=6',
      );
      const homeCaptions = await chartsOfEveryCard(page, 'Most downloaded');
      expect(homeCaptions[0]).toBe(chartCaption(mostDownloaded.plugins[0]!.downloadStatistics));

      await page.goto(`${server.origin}/search?search=${encodeURIComponent(items.plugin.name)}`);
      await chartsOfEveryCard(page, 'Plugins');
      await page.goto(`${server.origin}/search?tags=Theme`);
      await page.locator('.site-grid .mp-card--theme').first().waitFor(POLL);
      await chartsOfEveryCard(page, 'Themes');
      expect(await page.locator('.site-grid .mp-card--theme .mp-chart__caption').count()).toBeGreaterThan(0);

      // The embed card is made from the item record, which carries the chart and the update date.
      const record = await getJson<{
        info: { updateDate: number };
        tags: { id: number }[];
        downloadStatistics: { value: number }[];
      }>(server.origin, `/api/plugins/${items.plugin.id}`);
      await page.goto(`${server.origin}/embeddable/card/${items.plugin.id}`);
      const embedded = page.locator('.embed-content .mp-card');
      await embedded.locator('.mp-chart__caption').waitFor(POLL);
      expect(await embedded.locator('.mp-chart__caption').innerText()).toBe(
        chartCaption(record.downloadStatistics),
      );
      expect(await embedded.locator('.mp-chart__bar').count()).toBe(30);
      // Spec §5: the update date shows once the item is more than a day old.
      const meta = await embedded.locator('.mp-card__meta').innerText();
      const isTheme = hasThemeTag(record.tags);
      const showsDate = shouldShowUpdateDate({ updatedAt: record.info.updateDate, now: Date.now(), isTheme });
      expect(meta.includes('Updated')).toBe(showsDate);
      if (showsDate) expect(meta).toContain(`Updated ${formatDisplayDate(record.info.updateDate)}`);

      await developer.page.goto(`${server.origin}/dashboard`);
      await signIn(developer.page, 'developer', server.passwords.developer);
      await chartsOfEveryCard(developer.page, 'My items');
      const manage = developer.page.getByRole('link', { name: /^Manage / }).first();
      await manage.click();
      await developer.page.waitForURL(/\/dashboard\/plugin\/\d+/);
      expect(visitor.errors).toEqual([]);
      expect(developer.errors).toEqual([]);
    } finally {
      await visitor.context.close();
      await developer.context.close();
    }
  });

  it('fills every row of the home page sections, at every width', async () => {
    const { context, page, errors } = await openPage(browser);
    try {
      for (const width of [1280, 1000, 700, 390]) {
        await page.setViewportSize({ width, height: 844 });
        await page.goto(`${server.origin}/`);
        for (const label of ['Most downloaded', 'Recently updated', 'Top rated']) {
          const list = page.getByRole('list', { name: label, exact: true });
          await list.locator('.mp-card').first().waitFor(POLL);
          // The cards of a row share their top; each row holds as many cards as the first.
          const rows = await list.evaluate((element) => {
            const perRow = new Map<number, number>();
            for (const item of element.querySelectorAll(':scope > li')) {
              const top = Math.round(item.getBoundingClientRect().top);
              perRow.set(top, (perRow.get(top) ?? 0) + 1);
            }
            return [...perRow.values()];
          });
          expect(
            rows.reduce((sum, count) => sum + count, 0),
            `${label} at ${width}px`,
          ).toBe(6);
          expect(new Set(rows).size, `${label} at ${width}px: ${rows.join(', ')} a row`).toBe(1);
        }
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows the first search result on a phone, the filters behind a button that counts them', async () => {
    const { context, page, errors } = await openPage(browser);
    try {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${server.origin}/search?payment=free`);
      const firstCard = page.locator('.site-grid[aria-busy="false"] .mp-card').first();
      await firstCard.waitFor(POLL);
      // A first visit: the consent banner is shown too, and the first result is still in the first screen.
      await page.getByRole('heading', { name: 'Cookies and statistics' }).waitFor(POLL);
      const top = await firstCard.evaluate((card) => card.getBoundingClientRect().top);
      expect(top).toBeGreaterThan(0);
      expect(top).toBeLessThan(844 - 100);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);

      const toggle = page.getByRole('button', { name: 'Filters, 1 active' });
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      const filters = page.getByRole('complementary', { name: 'Filters' });
      expect(await filters.isVisible()).toBe(false);
      await toggle.click();
      await filters.waitFor({ state: 'visible' });
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      // A click, then the address: the radio shows the choice once the router has moved (a frame later on a
      // hydrated page), which check() would not wait for.
      await page.getByRole('radio', { name: 'All', exact: true }).click();
      await page.waitForURL((url) => !url.searchParams.has('payment'));
      await page.getByRole('button', { name: 'Filters', exact: true }).waitFor(POLL);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("shows the author's item that awaits approval with its letter, not a broken image", async () => {
    const { context, page, errors } = await openPage(browser);
    try {
      // The items the developer sees on their page and a visitor does not: those awaiting approval.
      const developerToken = server.createToken('developer', 'manage');
      type Items = { id: number; name: string; icon: string }[];
      const own = await getJson<Items>(server.origin, '/api/users/2/plugins', developerToken);
      const listed = await getJson<Items>(server.origin, '/api/users/2/plugins');
      const pending = own.filter((item) => !listed.some((other) => other.id === item.id));
      expect(pending.length).toBeGreaterThan(0);
      expect(pending[0]!.icon).not.toBe('');

      await page.goto(`${server.origin}/author/2`);
      await signIn(page, 'developer', server.passwords.developer);
      const list = page.getByRole('list', { name: 'Plugins', exact: true });
      const card = list.getByRole('article', { name: pending[0]!.name, exact: true });
      await card.scrollIntoViewIfNeeded();
      await card.locator('.mp-card__icon--letter').waitFor(POLL);
      expect(await card.locator('img').count()).toBe(0);
      // Every other card's icon is a loaded image or a letter: no broken image anywhere.
      await expect
        .poll(
          () =>
            list.locator('img.mp-card__icon').evaluateAll((images) =>
              images.every((image) => {
                image.scrollIntoView();
                return (image as HTMLImageElement).complete && (image as HTMLImageElement).naturalWidth > 0;
              }),
            ),
          POLL,
        )
        .toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('lets a visitor write and edit a review, the rating changes, and the vendor replies', async () => {
    const { context, page, errors } = await openPage(browser);
    try {
      // The least-rated item moves the most when a review is added.
      const candidates = await getJson<{ plugins: { id: number; link: string }[] }>(
        server.origin,
        '/api/searchPlugins?orderBy=rating_asc&family=intellij&max=1',
      );
      const item = candidates.plugins[0]!;
      await page.goto(`${server.origin}${item.link}/reviews`);
      await signIn(page, 'visitor', server.passwords.visitor);
      const before = await shownMeanRating(page);

      await page.getByRole('button', { name: 'Post review' }).click();
      await page.getByText('Choose from 1 to 5 stars.').waitFor();
      await page.getByRole('radio', { name: '5 stars' }).first().check({ force: true });
      await page.getByLabel('Your review').fill('Works well for large projects.');
      await page.getByRole('button', { name: 'Post review' }).click();
      await page.getByText('Works well for large projects.').waitFor(POLL);
      await expect.poll(() => shownMeanRating(page), POLL).not.toBe(before);
      const afterWrite = await shownMeanRating(page);

      await page.getByRole('button', { name: 'Edit' }).click();
      await page.getByRole('radio', { name: '1 star', exact: true }).first().check({ force: true });
      await page.getByLabel('Your review').fill('Slower than I hoped on big files.');
      await page.getByRole('button', { name: 'Save review' }).click();
      await page.getByText('Slower than I hoped on big files.').waitFor(POLL);
      await expect.poll(() => shownMeanRating(page), POLL).not.toBe(afterWrite);

      // The vendor answers (an administrator passes the rule of the item's people): the reply shows under it.
      const vendor = await openPage(browser);
      try {
        await vendor.page.goto(`${server.origin}${item.link}/reviews`);
        await signIn(vendor.page, 'admin', server.passwords.admin);
        const review = vendor.page
          .getByRole('article')
          .filter({ hasText: 'Slower than I hoped on big files.' });
        await review.getByRole('button', { name: 'Reply', exact: true }).click();
        await review.getByLabel(/^Reply to /).fill('Thanks, the next version reads big files faster.');
        await review.getByRole('button', { name: 'Post reply' }).click();
        await review
          .getByRole('group', { name: /^Reply by / })
          .getByText('Thanks, the next version reads big files faster.')
          .waitFor(POLL);
        expect(vendor.errors).toEqual([]);
      } finally {
        await vendor.context.close();
      }
      await page.reload();
      await page
        .getByRole('group', { name: /^Reply by / })
        .getByText('Thanks, the next version reads big files faster.')
        .waitFor(POLL);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('keeps the sign-in in a new tab of the browser, and signing out in one tab signs out the others', async () => {
    const { context, page, errors } = await openPage(browser);
    const signOutButton = (tab: Page) => tab.getByRole('button', { name: 'Sign out' });
    try {
      // A tab open before the sign-in hears of it too.
      const waiting = await context.newPage();
      await waiting.goto(`${server.origin}/`);
      await waiting.getByRole('button', { name: 'Sign in', exact: true }).waitFor(POLL);

      await page.goto(`${server.origin}/dashboard/tokens`);
      await signIn(page, 'developer', server.passwords.developer);
      await page.getByRole('heading', { name: 'API tokens' }).waitFor(POLL);
      await signOutButton(waiting).waitFor(POLL);

      const second = await context.newPage();
      second.on('pageerror', (error) => errors.push(error.message));
      await second.goto(`${server.origin}/dashboard/tokens`);
      await second.getByRole('heading', { name: 'API tokens' }).waitFor(POLL);
      await signOutButton(second).waitFor(POLL);

      await signOutButton(second).click();
      for (const tab of [page, waiting]) {
        await tab.getByRole('button', { name: 'Sign in', exact: true }).first().waitFor(POLL);
        expect(await signOutButton(tab).count()).toBe(0);
      }
      await page.getByRole('heading', { name: 'Sign in to continue' }).waitFor(POLL);
      expect(await page.getByRole('heading', { name: 'API tokens' }).count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
