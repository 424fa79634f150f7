import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installSuccessToast } from '@marketplace/core';
import { startIdeSimulator } from '@marketplace/ide-simulator';
import type { IdeSimulator } from '@marketplace/ide-simulator';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HOST_PAGE_HOST, launchChromium, openPage } from '../support/browser';
import { findDemoItems } from '../support/catalogue';
import type { DemoItems } from '../support/catalogue';
import { startTestHttpServer } from '../support/http-server';
import type { RunningHttpServer } from '../support/http-server';
import { startMarketplace } from '../support/marketplace-server';
import type { RunningMarketplace } from '../support/marketplace-server';
import { buildReactHostExample } from '../support/react-host';

/**
 * The React host example (examples/react-host), built with Vite against the SDK's React build: the elements
 * render with the app's own React 19.
 */
describe('the React host example', () => {
  let marketplace: RunningMarketplace;
  let appBuild: string;
  let app: RunningHttpServer;
  let browser: Browser;
  let items: DemoItems;
  let ide: IdeSimulator | undefined;

  beforeAll(async () => {
    marketplace = await startMarketplace();
    items = await findDemoItems(marketplace.origin);
    appBuild = await mkdtemp(join(tmpdir(), 'react-host-'));
    buildReactHostExample(appBuild, marketplace.origin);
    app = await startTestHttpServer({ mounts: [{ prefix: '/', dir: appBuild }] });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await marketplace?.close();
    if (appBuild) await rm(appBuild, { recursive: true, force: true });
  });

  afterEach(async () => {
    await ide?.close();
    ide = undefined;
  });

  it('renders the card and installs through the elements, and the app hears the outcome', async () => {
    // The host page is not on localhost: the IDE asks its user about it, who says yes at once here.
    ide = await startIdeSimulator({
      port: 63342,
      plugins: { [items.plugin.xmlId]: true },
      untrustedOrigins: 'accept',
    });
    const { page, errors } = await openPage(browser);
    await page.goto(`http://${HOST_PAGE_HOST}:${app.port}/?plugin=${items.plugin.id}`);
    const name = page.locator('mp-plugin-card .mp-card__name');
    await name.waitFor();
    expect(await name.textContent()).toBe(items.plugin.name);

    await page
      .locator('mp-install-button')
      .getByRole('button', { name: `Install to ${ide.name}` })
      .click();
    await page
      .locator('mp-install-button')
      .getByRole('status')
      .filter({ hasText: installSuccessToast(ide.name).message })
      .waitFor();
    // The app's own React state, updated from the element's DOM event.
    await page
      .locator('main > p[role="status"]')
      .filter({ hasText: `Installed into ${ide.name}` })
      .waitFor();
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
