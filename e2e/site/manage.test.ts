import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage } from '../support/browser';
import { startSiteServer } from './support/site-server';
import type { SiteServer } from './support/site-server';
import { getJson, signIn } from './support/site-pages';

const POLL = { timeout: 30_000, interval: 200 };

/** A 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** The documentation tab the test adds through the API and deletes on the manage page. */
const DOC_TAB = 'E2E release notes';

interface Item {
  id: number;
  name: string;
  family: string;
}

describe("an item's manage page and the order of one's items in Chromium", () => {
  let server: SiteServer;
  let browser: Browser;
  let token = '';
  let userId = 0;
  let item: Item;

  /** Sends files to a management route as a multipart form, as the site's upload does. */
  async function upload(path: string, files: { name: string; type: string; bytes: Buffer }[]) {
    const form = new FormData();
    files.forEach((file, index) =>
      form.append(`file${index}`, new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name),
    );
    const response = await fetch(new URL(path, server.origin), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  }

  beforeAll(async () => {
    server = await startSiteServer();
    browser = await launchChromium();
    token = server.createToken('developer', 'manage');
    userId = (await getJson<{ id: number }>(server.origin, '/api/users/me', token)).id;
    const mine = await getJson<Item[]>(server.origin, `/api/users/${userId}/plugins?size=100`, token);
    const first = mine.find((candidate) => candidate.family === 'intellij');
    if (!first || mine.length < 2) throw new Error('The demo developer needs two items, one a plugin.');
    item = first;
    // Three screenshots more than the demo gave, and a documentation tab, for the page to rearrange.
    await upload(
      `/api/plugins/${item.id}/screenshots`,
      [1, 2, 3].map((index) => ({ name: `shot-${index}.png`, type: 'image/png', bytes: PNG })),
    );
    await upload(`/api/plugins/${item.id}/documentation?tabName=${encodeURIComponent(DOC_TAB)}`, [
      { name: 'notes.md', type: 'text/markdown', bytes: Buffer.from('# Release notes\n\nEverything new.\n') },
    ]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** The screenshots the manage page lists, in order (their addresses). */
  async function managedScreenshots(page: Page): Promise<string[]> {
    const list = page.getByRole('list', { name: 'Current screenshots' });
    await list.waitFor(POLL);
    return list
      .locator('img')
      .evaluateAll((images) => images.map((image) => image.getAttribute('src') ?? ''));
  }

  /** Reloads the page and waits for the manage page to stand again. */
  async function reload(page: Page) {
    await page.reload();
    await page.getByRole('tablist', { name: 'Manage the plugin' }).waitFor(POLL);
  }

  it('switches sections, rearranges screenshots, sets compatible products and deletes a documentation tab', async () => {
    const { context, page, errors } = await openPage(browser);
    try {
      await page.goto(`${server.origin}/dashboard/plugin/${item.id}`);
      await signIn(page, 'developer', server.passwords.developer);
      const tabs = page.getByRole('tablist', { name: 'Manage the plugin' });
      await tabs.waitFor(POLL);
      // The status above, the section a developer comes for most (versions) open.
      await page.getByRole('region', { name: 'Status' }).waitFor(POLL);
      expect(
        await tabs.getByRole('tab', { name: 'Versions & compatibility' }).getAttribute('aria-selected'),
      ).toBe('true');

      // Sections by click; the address names the one open, and a reload keeps it.
      await tabs.getByRole('tab', { name: 'Details' }).click();
      await page.getByRole('textbox', { name: 'Name' }).waitFor(POLL);
      await tabs.getByRole('tab', { name: 'Media' }).click();
      await page.waitForURL((url) => url.searchParams.get('section') === 'media');
      expect(await page.getByRole('region', { name: 'Upload a new version' }).count()).toBe(0);
      await reload(page);
      await expect
        .poll(() => tabs.getByRole('tab', { name: 'Media' }).getAttribute('aria-selected'), POLL)
        .toBe('true');

      // Screenshots: the second moves up, then the (new) first is deleted.
      const before = await managedScreenshots(page);
      expect(before.length).toBeGreaterThanOrEqual(3);
      await page.getByRole('button', { name: 'Move screenshot 2 up' }).click();
      await page.getByText('Screenshot 2 moved up').first().waitFor(POLL);
      const moved = [before[1]!, before[0]!, ...before.slice(2)];
      await expect.poll(() => managedScreenshots(page), POLL).toEqual(moved);
      await reload(page);
      await expect.poll(() => managedScreenshots(page), POLL).toEqual(moved);

      page.once('dialog', (dialog) => {
        expect(dialog.message()).toMatch(/^Delete screenshot 1\?/);
        void dialog.accept();
      });
      await page.getByRole('button', { name: 'Delete screenshot 1' }).click();
      await page.getByText('Screenshot 1 deleted').first().waitFor(POLL);
      const kept = moved.slice(1);
      await reload(page);
      await expect.poll(() => managedScreenshots(page), POLL).toEqual(kept);

      // Documentation tab: deleted once confirmed.
      const docTabs = page.getByRole('list', { name: 'Current documentation tabs' });
      await docTabs.getByText(DOC_TAB, { exact: true }).waitFor(POLL);
      page.once('dialog', (dialog) => void dialog.accept());
      await docTabs.getByRole('button', { name: `Delete the documentation tab ${DOC_TAB}` }).click();
      await page.getByText(`Documentation tab "${DOC_TAB}" deleted`).first().waitFor(POLL);
      await reload(page);
      await page.getByRole('region', { name: 'Documentation tabs' }).waitFor(POLL);
      expect(await page.getByText(DOC_TAB, { exact: true }).count()).toBe(0);

      // Compatible products: exactly IntelliJ IDEA Ultimate and PyCharm.
      await tabs.getByRole('tab', { name: 'Versions & compatibility' }).click();
      // The first section leaves the address bare.
      await page.waitForURL((url) => !url.searchParams.has('section'));
      const products = page.getByRole('form', { name: 'Compatible products' });
      await products.waitFor(POLL);
      const boxes = products.getByRole('checkbox');
      for (let index = 0; index < (await boxes.count()); index += 1) await boxes.nth(index).uncheck();
      await products.getByRole('checkbox', { name: 'IntelliJ IDEA Ultimate', exact: true }).check();
      await products.getByRole('checkbox', { name: 'PyCharm', exact: true }).check();
      await products.getByRole('button', { name: 'Save compatible products' }).click();
      await page.getByText('Compatible products saved').first().waitFor(POLL);
      await reload(page);
      const checked = page.getByRole('form', { name: 'Compatible products' }).getByRole('checkbox', {
        checked: true,
      });
      await expect.poll(() => checked.evaluateAll((all) => all.length), POLL).toBe(2);
      expect(
        await getJson<string[]>(server.origin, `/api/plugins/${item.id}/compatible-products`, token),
      ).toEqual(['IDEA', 'PYCHARM']);

      // The item's public page: the screenshots in their new order, the products, no deleted tab.
      await page.goto(`${server.origin}/plugin/${item.id}`);
      const shown = page.getByRole('list', { name: 'Screenshots' }).locator('img');
      await shown.first().waitFor(POLL);
      expect(
        await shown.evaluateAll((images) =>
          images.map((image) => new URL(image.getAttribute('src') ?? '', location.href).pathname),
        ),
      ).toEqual(kept);
      await page.getByText('IntelliJ IDEA Ultimate, PyCharm', { exact: true }).waitFor(POLL);
      expect(await page.getByRole('link', { name: DOC_TAB }).count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('reorders my items on the dashboard, and my public page follows', async () => {
    const { context, page, errors } = await openPage(browser);
    const names = (list: ReturnType<Page['getByRole']>) =>
      list.locator('.mp-card__name').evaluateAll((all) => all.map((name) => name.textContent?.trim() ?? ''));
    try {
      await page.goto(`${server.origin}/dashboard`);
      await signIn(page, 'developer', server.passwords.developer);
      const myItems = page.getByRole('list', { name: 'My items' });
      await myItems.locator('.mp-card__name').first().waitFor(POLL);
      await page.getByRole('button', { name: 'Change the order' }).click();
      const order = page.getByRole('list', { name: 'Order of my items' });
      await order.locator('li').first().waitFor(POLL);
      const listed = await order.locator('strong').allInnerTexts();
      expect(listed.length).toBeGreaterThanOrEqual(2);
      // The last one goes first.
      const last = listed[listed.length - 1]!;
      for (let step = 0; step < listed.length - 1; step += 1) {
        await order.getByRole('button', { name: `Move ${last} up` }).click();
      }
      const wanted = [last, ...listed.slice(0, -1)];
      await expect.poll(() => order.locator('strong').allInnerTexts(), POLL).toEqual(wanted);
      await page.getByRole('button', { name: 'Save order' }).click();
      await page.getByText('Order saved').first().waitFor(POLL);

      await page.reload();
      await expect.poll(async () => (await names(myItems)).slice(0, 1), POLL).toEqual([last]);
      const dashboard = await names(myItems);
      expect(dashboard).toEqual(wanted.filter((name) => dashboard.includes(name)));

      // The public page shows the published ones in the same order.
      await page.goto(`${server.origin}/author/${userId}`);
      const grid = page.locator('section[aria-labelledby="user-plugins"] ul');
      await grid.locator('.mp-card__name').first().waitFor(POLL);
      const shown = await names(grid);
      expect(shown.length).toBeGreaterThan(0);
      expect(shown).toEqual(wanted.filter((name) => shown.includes(name)));
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
