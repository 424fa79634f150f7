import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AI_BUTTON_DEFAULT_TEXT, GET_FROM_MARKETPLACE, OPEN_COURSE } from '@marketplace/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOST_PAGE_HOST, launchChromium, openPage } from '../support/browser';
import { findDemoItems } from '../support/catalogue';
import type { DemoItems } from '../support/catalogue';
import { startTestHttpServer } from '../support/http-server';
import type { RunningHttpServer } from '../support/http-server';
import { startMarketplace } from '../support/marketplace-server';
import type { RunningMarketplace } from '../support/marketplace-server';
import { SDK_CHUNK_MANIFEST } from '../support/paths';

/**
 * mp-loader.js in Chromium, on a third-party host name, with the SDK served by the real server: a page gets
 * the code of the elements it uses and nothing else, as cross-origin ES modules, and every element works.
 * The single file mp-widget.js still works on its own. No IDE runs: the elements show their no-IDE state.
 */

const ELEMENTS = ['mp-plugin-card', 'mp-install-button', 'mp-ai-button', 'mp-open-course', 'mp-course-lti'];

/** Host pages collect the item each element announces (element name -> plugin id). */
const RECORD_ITEMS = `<script>
  window.announced = {};
  document.addEventListener('embed:item-data', (event) => {
    window.announced[event.target.localName] = event.detail.item.id;
  });
</script>`;

function html(body: string) {
  return (_request: IncomingMessage, response: ServerResponse) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    response.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>SDK host page</title>${RECORD_ITEMS}</head><body>${body}</body></html>`,
    );
  };
}

interface SdkResponse {
  path: string;
  status: number;
  headers: Record<string, string>;
}

describe('mp-loader.js', () => {
  let marketplace: RunningMarketplace;
  let hostPages: RunningHttpServer;
  let browser: Browser;
  let items: DemoItems;
  let chunks: Record<string, string[]>;

  /** The five elements' markup; the course ones get a course, the others a plugin. */
  const markup = (names: readonly string[]) =>
    names
      .map((name) => {
        if (name === 'mp-course-lti')
          return `<mp-course-lti plugin-id="${items.course.id}" launch-id="lti-launch-1" study-item-id="task-1"></mp-course-lti>`;
        if (name === 'mp-open-course')
          return `<mp-open-course plugin-id="${items.course.id}"></mp-open-course>`;
        if (name === 'mp-ai-button') return `<mp-ai-button plugin-id="${items.ai.id}"></mp-ai-button>`;
        return `<${name} plugin-id="${items.plugin.id}"></${name}>`;
      })
      .join('\n');

  const expectedItem = (name: string) =>
    name === 'mp-course-lti' || name === 'mp-open-course'
      ? items.course.id
      : name === 'mp-ai-button'
        ? items.ai.id
        : items.plugin.id;

  beforeAll(async () => {
    marketplace = await startMarketplace();
    items = await findDemoItems(marketplace.origin);
    chunks = (JSON.parse(readFileSync(SDK_CHUNK_MANIFEST, 'utf8')) as { elements: Record<string, string[]> })
      .elements;
    const loader = `<script src="${marketplace.origin}/sdk/mp-loader.js"></script>`;
    hostPages = await startTestHttpServer({
      mounts: [],
      routes: {
        '/install-button.html': html(`${markup(['mp-install-button'])}${loader}`),
        // Four elements in the markup, the card added by a script once the page has loaded.
        '/all-five.html': html(
          `${markup(ELEMENTS.filter((name) => name !== 'mp-plugin-card'))}${loader}
          <div id="later"></div>
          <script>
            addEventListener('load', () => setTimeout(() => {
              document.querySelector('#later').innerHTML = '<section>${markup(['mp-plugin-card'])}</section>';
            }, 300));
          </script>`,
        ),
        '/single-file.html': html(
          `${markup(ELEMENTS)}<script src="${marketplace.origin}/sdk/mp-widget.js"></script>`,
        ),
      },
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await hostPages?.close();
    await marketplace?.close();
  });

  /** Opens a host page, recording every answer from the marketplace's /sdk/. */
  async function openHostPage(path: string): Promise<{ page: Page; errors: string[]; sdk: SdkResponse[] }> {
    const { page, errors } = await openPage(browser);
    const sdk: SdkResponse[] = [];
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.origin === marketplace.origin && url.pathname.startsWith('/sdk/'))
        sdk.push({
          path: url.pathname.slice('/sdk/'.length),
          status: response.status(),
          headers: response.headers(),
        });
    });
    await page.goto(`http://${HOST_PAGE_HOST}:${hostPages.port}${path}`);
    return { page, errors, sdk };
  }

  /** Waits until each element has announced its item, the sign that it is defined, loaded and rendered. */
  async function waitForItems(page: Page, names: readonly string[]): Promise<void> {
    await expect
      .poll(
        () => page.evaluate(() => (window as unknown as { announced: Record<string, number> }).announced),
        {
          timeout: 30_000,
        },
      )
      .toEqual(Object.fromEntries(names.map((name) => [name, expectedItem(name)])));
  }

  it('gives a page with one install button the loader, the shared chunks and its chunk, nothing more', async () => {
    const { page, errors, sdk } = await openHostPage('/install-button.html');
    await waitForItems(page, ['mp-install-button']);
    // With no IDE running, the button offers the marketplace page (an IDE the CI run started may answer instead).
    await page
      .locator('mp-install-button')
      .getByRole('link', { name: GET_FROM_MARKETPLACE })
      .or(page.locator('mp-install-button').getByRole('button'))
      .first()
      .waitFor();
    expect(sdk.map((response) => response.path).sort()).toEqual(
      ['mp-loader.js', ...(chunks['mp-install-button'] ?? [])].sort(),
    );
    expect(chunks['mp-install-button']).toHaveLength(3);
    expect(await page.evaluate(() => customElements.get('mp-plugin-card'))).toBeUndefined();
    for (const response of sdk) {
      expect(response.status, response.path).toBe(200);
      // ES modules from another origin load only with this header.
      expect(response.headers['access-control-allow-origin'], response.path).toBe('*');
      expect(response.headers['content-encoding'], response.path).toMatch(/^(br|gzip)$/);
      expect(response.headers['cache-control'], response.path).toBe(
        response.path === 'mp-loader.js'
          ? 'public, max-age=300, must-revalidate'
          : 'public, max-age=31536000, immutable',
      );
    }
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('loads all five elements on a page that has them, including one added later', async () => {
    const { page, errors, sdk } = await openHostPage('/all-five.html');
    await waitForItems(page, ELEMENTS);
    const card = page.locator('#later mp-plugin-card');
    await expect.poll(() => card.locator('.mp-card__name').textContent()).toBe(items.plugin.name);
    // With no IDE: the AI button links to the plugin's page, the course buttons wait for an IDE.
    const aiButton = page.locator('mp-ai-button');
    await aiButton
      .getByRole('link', { name: AI_BUTTON_DEFAULT_TEXT })
      .or(aiButton.getByRole('button', { name: AI_BUTTON_DEFAULT_TEXT }))
      .waitFor();
    await page.locator('mp-open-course').getByRole('button', { name: OPEN_COURSE }).waitFor();
    await page.locator('mp-course-lti').getByRole('button', { name: OPEN_COURSE }).waitFor();
    // Each file once: the shared chunks are not fetched again for every element.
    const paths = sdk.map((response) => response.path);
    expect([...paths].sort()).toEqual(
      [...new Set(['mp-loader.js', ...ELEMENTS.flatMap((name) => chunks[name] ?? [])])].sort(),
    );
    expect(paths).not.toContain('mp-widget.js');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('leaves mp-widget.js, the single file, working on its own', async () => {
    const { page, errors, sdk } = await openHostPage('/single-file.html');
    await waitForItems(page, ELEMENTS);
    expect(await page.locator('mp-plugin-card .mp-card__name').textContent()).toBe(items.plugin.name);
    expect(sdk.map((response) => response.path)).toEqual(['mp-widget.js']);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
