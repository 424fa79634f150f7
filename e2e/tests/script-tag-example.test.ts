import { installFailureToast, installSuccessToast } from '@marketplace/core';
import { startIdeSimulator, TRUST_ANSWER_REMEMBERED_MS } from '@marketplace/ide-simulator';
import type { IdeSimulator } from '@marketplace/ide-simulator';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HOST_PAGE_HOST, launchChromium, openPage } from '../support/browser';
import { findDemoItems } from '../support/catalogue';
import type { DemoItems } from '../support/catalogue';
import { startTestHttpServer } from '../support/http-server';
import type { RunningHttpServer } from '../support/http-server';
import { startMarketplace } from '../support/marketplace-server';
import type { RunningMarketplace } from '../support/marketplace-server';
import { examplesDir } from '../support/paths';

/**
 * The script-tag example (examples/script-tag) in Chromium, on a third-party host name, with the SDK served
 * from next to the marketplace and the real server behind it, and the IDE simulator as the visitor's IDE.
 */

/** What the install buttons say while the IDE asks its user whether to trust the page (ui's CONFIRM_IN_IDE). */
const CONFIRM_IN_IDE = 'Confirm in your IDE';
describe('the script-tag example page', () => {
  let marketplace: RunningMarketplace;
  let examples: RunningHttpServer;
  let browser: Browser;
  let items: DemoItems;
  let ide: IdeSimulator | undefined;

  beforeAll(async () => {
    marketplace = await startMarketplace();
    examples = await startTestHttpServer({ mounts: [{ prefix: '/examples/', dir: examplesDir }] });
    browser = await launchChromium();
    items = await findDemoItems(marketplace.origin);
  });

  afterAll(async () => {
    await browser?.close();
    await examples?.close();
    await marketplace?.close();
  });

  afterEach(async () => {
    await ide?.close();
    ide = undefined;
  });

  function exampleUrl(): string {
    // The page names the marketplace this test started, as a visitor names theirs (the default is `pnpm start`'s).
    const query = new URLSearchParams({
      marketplace: marketplace.origin,
      plugin: String(items.plugin.id),
      ai: String(items.ai.id),
    });
    return `http://${HOST_PAGE_HOST}:${examples.port}/examples/script-tag/?${query}`;
  }

  async function openExample(): Promise<{ page: Page; errors: string[] }> {
    const { page, errors } = await openPage(browser);
    await page.goto(exampleUrl());
    return { page, errors };
  }

  it('renders the plugin card with the item the marketplace serves', async () => {
    ide = await startIdeSimulator({ port: 63342 });
    const served = (await (await fetch(`${marketplace.origin}/api/plugins/${items.plugin.id}`)).json()) as {
      info: { name: string; link: string; downloads: number; icon: string };
      vendor: { name: string };
      downloadStatistics: { name: string; value: number }[];
    };
    const { page, errors } = await openExample();
    const card = page.locator('mp-plugin-card[data-item="plugin"]');
    await card.locator('.mp-card__name').waitFor();
    expect(await card.locator('.mp-card__name').textContent()).toBe(served.info.name);
    expect(await card.locator('.mp-card__vendor').textContent()).toBe(served.vendor.name);
    const link = card.locator('.mp-card__name a');
    expect(await link.getAttribute('href')).toBe(new URL(served.info.link, marketplace.origin).href);
    expect(await link.getAttribute('target')).toBe('_blank');
    // The icon loads from the marketplace although the page is elsewhere (the demo items all have icons).
    expect(served.info.icon).not.toBe('');
    const icon = card.locator('img.mp-card__icon');
    await expect
      .poll(() => icon.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth), {
        timeout: 10_000,
      })
      .toBeGreaterThan(0);
    // The 30-day download chart comes with the item record: 30 bars and the total in words.
    const caption = card.locator('.mp-chart__caption');
    await caption.waitFor();
    const total = served.downloadStatistics.reduce((sum, point) => sum + point.value, 0);
    expect(served.downloadStatistics).toHaveLength(30);
    expect(await caption.textContent()).toBe(
      `${total.toLocaleString('en-US')} downloads in the last 30 days`,
    );
    expect(await card.locator('.mp-chart__bar').count()).toBe(30);
    // The vendor's documented call renders the same card.
    const vendorCardName = page.locator('#vendor-card mp-plugin-card .mp-card__name');
    await vendorCardName.waitFor();
    expect(await vendorCardName.textContent()).toBe(served.info.name);
    // The SDK came from the marketplace named in the page's address.
    expect(
      await page.evaluate(() =>
        [...document.scripts].map((script) => script.src).filter((src) => src.includes('/sdk/')),
      ),
    ).toEqual([`${marketplace.origin}/sdk/mp-widget.js`]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("tells the page the card's rendered size, as an embed page tells its frame", async () => {
    const { page, errors } = await openPage(browser);
    await page.addInitScript(() => {
      const sizes: unknown[] = [];
      (window as unknown as { cardSizes: unknown[] }).cardSizes = sizes;
      document.addEventListener('embed:size', (event) => {
        if ((event.target as Element).matches('mp-plugin-card[data-item="plugin"]'))
          sizes.push((event as CustomEvent<{ width: number; height: number }>).detail);
      });
    });
    await page.goto(exampleUrl());
    const card = page.locator('mp-plugin-card[data-item="plugin"]');
    await card.locator('.mp-card__name').waitFor();
    // The last size reported is the card's size on the page (rounded up), whenever the chart has loaded.
    const sizes = () =>
      card.evaluate((element) => {
        const rect = element.getBoundingClientRect();
        const last = (window as unknown as { cardSizes: { width: number; height: number }[] }).cardSizes.at(
          -1,
        );
        return {
          reported: last && { width: last.width, height: last.height },
          actual: { width: Math.ceil(rect.width), height: Math.ceil(rect.height) },
        };
      });
    await expect
      .poll(sizes, { timeout: 15_000 })
      .toSatisfy(
        ({ reported, actual }) => actual.height > 0 && JSON.stringify(reported) === JSON.stringify(actual),
      );
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('says "Confirm in your IDE" while the IDE asks whether to trust the page, then installs with the success toast', async () => {
    ide = await startIdeSimulator({
      port: 63342,
      name: 'IntelliJ IDEA 2025.2',
      plugins: { [items.plugin.xmlId]: true },
    });
    const { page, errors } = await openExample();
    // The page is not on localhost: the IDE holds its answers while it asks its user about the page.
    await page.locator('mp-install-button').getByRole('button', { name: CONFIRM_IN_IDE }).waitFor();
    expect(ide.pendingConfirmations()).toMatchObject([{ host: HOST_PAGE_HOST }]);
    ide.confirmPending(true);
    const button = page.locator('mp-install-button').getByRole('button', { name: `Install to ${ide.name}` });
    await button.click();
    const toast = page.locator('mp-install-button').getByRole('status');
    const expected = installSuccessToast(ide.name);
    await toast.filter({ hasText: expected.message }).waitFor();
    expect(await toast.textContent()).toContain(expected.title);
    const installs = ide.requests.filter((request) => request.query.action === 'install');
    expect(installs).toHaveLength(1);
    expect(installs[0]).toMatchObject({ status: 200, query: { pluginId: items.plugin.xmlId } });
    expect(installs[0]?.origin).toBe(`http://${HOST_PAGE_HOST}:${examples.port}`);
    expect(await page.locator('#event-log [data-type="install-button:install-success"]').count()).toBe(1);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('shows the failure toast when the visitor refuses the page in the IDE', async () => {
    // The simulator's clock alone, to let the IDE forget an answer.
    let now = Date.now();
    ide = await startIdeSimulator({
      port: 63342,
      name: 'PyCharm 2025.2',
      buildNumber: 'PY-252.23892.415',
      plugins: { [items.plugin.xmlId]: true },
      now: () => now,
    });
    const { page } = await openExample();
    const installButton = page.locator('mp-install-button');
    await installButton.getByRole('button', { name: CONFIRM_IN_IDE }).waitFor();
    ide.confirmPending(true);
    const button = installButton.getByRole('button', { name: `Install to ${ide.name}` });
    await button.waitFor();
    // A day later the IDE has forgotten that answer and asks again when the install comes; the visitor says no.
    now += TRUST_ANSWER_REMEMBERED_MS;
    await button.click();
    await installButton.getByRole('button', { name: CONFIRM_IN_IDE }).waitFor();
    ide.confirmPending(false);
    // The failure toast: an error toast (it stays until closed) with the spec's title and sentence, then why.
    const alert = page.locator('mp-install-button').getByRole('alert');
    await alert.waitFor();
    const failure = installFailureToast(ide.name);
    expect(await alert.locator('.mp-toast__title').textContent()).toBe(failure.title);
    expect(await alert.locator('.mp-toast__message').textContent()).toContain(
      `${failure.message} ${ide.name} refused the request.`,
    );
    expect(ide.requests.find((request) => request.query.action === 'install')?.status).toBe(403);
    expect(ide.installedPluginIds()).not.toContain(items.plugin.xmlId);
    await page.context().close();
  });
});
