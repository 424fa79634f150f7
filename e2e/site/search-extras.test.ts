import { formatNumber } from '@marketplace/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage } from '../support/browser';
import { startSiteServer } from './support/site-server';
import type { SiteServer } from './support/site-server';
import { getJson } from './support/site-pages';

const POLL = { timeout: 30_000 };

interface SearchAnswer {
  plugins: { id: number; name: string; link: string; isTheme: boolean }[];
  total: number;
}

/**
 * Issue 18, the search state extras of spec §3 in Chromium, on the demo catalogue: the browse page's
 * staff-picks, source-code and community-program filters (in the address, counted, cleared), plugins and
 * themes as separate result sets, and an item page naming the bundle that includes the item.
 */
describe('search extras in Chromium', () => {
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

  /** The total a result set's heading shows, once it shows the number the API gives for the same query. */
  async function expectSetTotal(page: Page, set: 'Plugins' | 'Themes', query: string): Promise<number> {
    const { total } = await getJson<SearchAnswer>(server.origin, `/api/searchPlugins?${query}`);
    const heading = page.getByRole('heading', {
      level: 2,
      name: `${set} ${formatNumber(total)}`,
      exact: true,
    });
    await heading.waitFor(POLL);
    return total;
  }

  /**
   * What the page shows for a mixed search's filters (`query`, without kind): each set with the API's total, a
   * set that is empty left out, and "nothing matches" when both are.
   */
  async function expectSets(page: Page, query: string): Promise<void> {
    const [plugins, themes] = await Promise.all(
      ['plugins', 'themes'].map((kind) =>
        getJson<SearchAnswer>(server.origin, `/api/searchPlugins?kind=${kind}&${query}`),
      ),
    );
    if (plugins!.total === 0 && themes!.total === 0) {
      await page.getByText('Nothing matches these filters.').waitFor(POLL);
      return;
    }
    if (themes!.total > 0) await expectSetTotal(page, 'Themes', `kind=themes&${query}`);
    if (plugins!.total > 0 || themes!.total === 0) {
      await expectSetTotal(page, 'Plugins', `kind=plugins&${query}`);
    } else {
      expect(await page.getByRole('heading', { level: 2, name: /^Plugins/ }).count()).toBe(0);
    }
  }

  it('narrows the browse page with the new filters, kept in the address and counted, and clears them', async () => {
    const { context, page } = await openPage(browser);
    try {
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`${server.origin}/search`);
      const allPlugins = await expectSetTotal(page, 'Plugins', 'kind=plugins');
      const allThemes = await expectSetTotal(page, 'Themes', 'kind=themes');
      expect(allPlugins).toBeGreaterThan(0);
      expect(allThemes).toBeGreaterThan(0);
      // Plugins and themes are apart: no theme card among the plugins, six themes at first.
      const plugins = page.getByRole('list', { name: 'Plugins', exact: true });
      const themes = page.getByRole('list', { name: 'Themes', exact: true });
      await plugins.locator(':scope > li .mp-card').first().waitFor(POLL);
      expect(await plugins.locator('.mp-card--theme').count()).toBe(0);
      await expect.poll(() => themes.locator(':scope > li').count(), POLL).toBe(Math.min(6, allThemes));
      if (allThemes > 6) {
        await page.getByRole('button', { name: 'Show more themes' }).click();
        await expect.poll(() => themes.locator(':scope > li').count(), POLL).toBe(Math.min(12, allThemes));
      }

      const filters = page.getByRole('complementary', { name: 'Filters' });
      await filters.getByRole('checkbox', { name: 'With source code' }).click();
      await page.waitForURL(/shouldHaveSource=true/);
      const withSource = await expectSetTotal(page, 'Plugins', 'kind=plugins&shouldHaveSource=true');
      expect(withSource).toBeLessThan(allPlugins);

      await filters.getByRole('checkbox', { name: 'Staff picks' }).click();
      await page.waitForURL(/isFeaturedSearch=true/);
      await expectSets(page, 'shouldHaveSource=true&isFeaturedSearch=true');

      // Only the staff picks now: the source-code filter comes off, a community program goes on.
      await filters.getByRole('checkbox', { name: 'With source code' }).click();
      await page.waitForURL((url) => !url.searchParams.has('shouldHaveSource'));
      const picks = await expectSetTotal(page, 'Plugins', 'kind=plugins&isFeaturedSearch=true');
      expect(picks).toBeGreaterThan(0);
      expect(picks).toBeLessThan(allPlugins);

      await filters.getByRole('checkbox', { name: 'Students' }).click();
      await page.waitForURL(/communityPrograms=STUDENTS/);
      expect(new URL(page.url()).searchParams.get('isFeaturedSearch')).toBe('true');
      await expectSets(page, 'isFeaturedSearch=true&communityPrograms=STUDENTS');
      // Counted on the Filters button (shown on narrow screens; on this one it waits hidden).
      expect(await page.locator('.site-filters-toggle').getAttribute('aria-label')).toBe('Filters, 2 active');

      // The address keeps it all: a reload shows the same filters ticked.
      await page.reload();
      await expect
        .poll(() => filters.getByRole('checkbox', { name: 'Staff picks' }).isChecked(), POLL)
        .toBe(true);
      await expect
        .poll(() => filters.getByRole('checkbox', { name: 'Students' }).isChecked(), POLL)
        .toBe(true);

      await filters.getByRole('link', { name: 'Clear filters' }).click();
      await page.waitForURL((address) => address.pathname === '/search' && address.search === '');
      await expect
        .poll(() => filters.getByRole('checkbox', { name: 'Staff picks' }).isChecked(), POLL)
        .toBe(false);
      await expectSetTotal(page, 'Plugins', 'kind=plugins');

      // "See all" narrows to themes alone, paged as the plugins are.
      if (allThemes > 12) {
        await page.getByRole('link', { name: `See all ${formatNumber(allThemes)} themes` }).click();
        await page.waitForURL(/kind=themes/);
        await expect.poll(() => filters.getByRole('radio', { name: 'Themes' }).isChecked(), POLL).toBe(true);
        await expect.poll(() => page.getByRole('heading', { level: 2, name: /^Plugins/ }).count()).toBe(0);
        const list = page.getByRole('list', { name: 'Themes', exact: true });
        await expect
          .poll(() => list.locator(':scope > li .mp-card--theme').count(), POLL)
          .toBe(Math.min(20, allThemes));
      }
    } finally {
      await context.close();
    }
  });

  it('names on an item page the bundle that includes it, linked to the bundle', async () => {
    // A bundle of the demo catalogue and one of its members (ids come from the API).
    let found:
      { bundle: SearchAnswer['plugins'][number]; member: SearchAnswer['plugins'][number] } | undefined;
    for (const word of ['Essentials', 'Toolkit', 'Pack', 'Suite']) {
      const { plugins } = await getJson<SearchAnswer>(
        server.origin,
        `/api/searchPlugins?search=${word}&kind=plugins&max=20`,
      );
      for (const bundle of plugins) {
        const members = await getJson<SearchAnswer['plugins']>(
          server.origin,
          `/api/plugins/${bundle.id}/bundles`,
        );
        const member = members.find((candidate) => !candidate.isTheme) ?? members[0];
        if (member) {
          found = { bundle, member };
          break;
        }
      }
      if (found) break;
    }
    expect(found, 'the demo catalogue has a bundle').toBeDefined();
    const { bundle, member } = found!;

    const { context, page } = await openPage(browser);
    try {
      await page.goto(`${server.origin}${member.link}`);
      await page.getByRole('heading', { level: 1, name: member.name }).waitFor(POLL);
      const region = page.getByRole('region', { name: member.isTheme ? 'Provided by' : 'Included in' });
      await region.waitFor(POLL);
      const link = region.getByRole('link', { name: bundle.name, exact: true });
      expect(await link.getAttribute('href')).toBe(bundle.link);
      await link.click();
      await page.waitForURL((url) => url.pathname === bundle.link);
      await page.getByRole('heading', { level: 1, name: bundle.name }).waitFor(POLL);
      // And the bundle lists it back.
      const members = page.locator('section[aria-labelledby="bundle-heading"]');
      await members.getByRole('link', { name: member.name, exact: true }).waitFor(POLL);
    } finally {
      await context.close();
    }
  });
});
