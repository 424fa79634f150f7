import { startIdeSimulator } from '@marketplace/ide-simulator';
import type { IdeSimulator } from '@marketplace/ide-simulator';
import { createMessage } from '@marketplace/protocol';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HOST_PAGE_HOST, OTHER_SITE_HOST, launchChromium, openPage } from '../support/browser';
import { findDemoItems } from '../support/catalogue';
import type { DemoItems } from '../support/catalogue';
import { startTestHttpServer } from '../support/http-server';
import type { RunningHttpServer } from '../support/http-server';
import { startMarketplace } from '../support/marketplace-server';
import type { RunningMarketplace } from '../support/marketplace-server';

/** A route answering a small HTML page; `body` may depend on the port the request came in on. */
function html(body: string | ((port: number) => string)) {
  return (request: IncomingMessage, response: ServerResponse) => {
    const content = typeof body === 'string' ? body : body(request.socket.localPort ?? 0);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    response.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test page</title></head><body>${content}</body></html>`,
    );
  };
}

const FOREIGN_HEIGHT = 700;
/** Waiting for the browser: the embed loads the SDK, the item and the IDE list first. */
const POLL = { timeout: 30_000, interval: 100 };

/**
 * The loader's iframe mode with the AI button: a host page on one site frames the marketplace's AI embed page
 * and receives its protocol messages. The embed page itself is built later with the site; here a test double
 * stands in for it: a minimal page with the real <mp-ai-button post-to-parent> from the real bundle.
 */
describe('the AI button in iframe mode', () => {
  let marketplace: RunningMarketplace;
  let embedHost: RunningHttpServer;
  let hostPages: RunningHttpServer;
  let browser: Browser;
  let items: DemoItems;
  let ide: IdeSimulator | undefined;

  beforeAll(async () => {
    marketplace = await startMarketplace();
    items = await findDemoItems(marketplace.origin);
    // The marketplace as a host page sees it: this test's embed page, and the real server (its /sdk/ too).
    embedHost = await startTestHttpServer({
      mounts: [],
      proxyTo: marketplace.origin,
      routes: {
        // Test double of the site's /embeddable/ai/{id} page.
        [`/embeddable/ai/${items.ai.id}`]: html(
          `<script src="/sdk/mp-widget.js"></script>` +
            `<mp-ai-button plugin-id="${items.ai.id}" api-base="${marketplace.origin}" post-to-parent></mp-ai-button>`,
        ),
      },
    });
    hostPages = await startTestHttpServer({
      mounts: [],
      routes: {
        '/host.html': html(
          (port) =>
            `<div id="widget"></div><iframe id="foreign" title="Another site" src="http://${OTHER_SITE_HOST}:${port}/foreign.html"></iframe>` +
            `<script src="${embedHost.origin}/sdk/mp-loader.js"></script>` +
            `<script>
              window.received = [];
              const frame = MarketplaceWidget.setupMarketplaceWidget('ai', ${items.ai.id}, '#widget', { mode: 'iframe' });
              for (const type of ['ai-button:mounted', 'ai-button:size', 'ai-button:running-ides',
                'ai-button:install-success', 'ai-button:install-error', 'embed:item-data', 'embed:size']) {
                frame.addEventListener(type, (event) => window.received.push(event.detail));
              }
            </script>`,
        ),
        // Another site in a frame of the same page, posting well-formed protocol messages at the host
        // again and again (so some certainly arrive after the widget listens).
        '/foreign.html': html(
          `<script>
            const size = ${JSON.stringify(createMessage('ai-button:size', { width: 900, height: FOREIGN_HEIGHT }))};
            const success = ${JSON.stringify(createMessage('ai-button:install-success', { ide: { name: 'Forged IDE', buildNumber: 'IU-252.1', port: 63342 } }))};
            let sent = 0;
            setInterval(() => {
              window.parent.postMessage(size, '*');
              window.parent.postMessage(success, '*');
              document.body.dataset.sent = String(++sent);
            }, 50);
          </script>`,
        ),
      },
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await hostPages?.close();
    await embedHost?.close();
    await marketplace?.close();
  });

  afterEach(async () => {
    await ide?.close();
    ide = undefined;
  });

  it('creates the frame with the embed address, the local-network delegation and a sandbox', async () => {
    const { page } = await openPage(browser);
    await page.goto(`http://${HOST_PAGE_HOST}:${hostPages.port}/host.html`);
    const frame = page.locator('#widget iframe');
    // The loader's iframe gets its address once its message chunk has arrived and listens (deferred-iframe.ts).
    await expect
      .poll(() => frame.getAttribute('src'), POLL)
      .toBe(`${embedHost.origin}/embeddable/ai/${items.ai.id}`);
    expect(await frame.getAttribute('allow')).toBe('loopback-network; local-network-access');
    expect(await frame.getAttribute('sandbox')).toBe(
      'allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox',
    );
    await page.context().close();
  });

  it('posts its messages to the parent in order, and the frame follows the reported size', async () => {
    ide = await startIdeSimulator({ port: 63342, plugins: { [items.ai.xmlId]: true } });
    const { page, errors } = await openPage(browser);
    await page.goto(`http://${HOST_PAGE_HOST}:${hostPages.port}/host.html`);
    const embed = page.frameLocator('#widget iframe');
    await embed.locator('mp-ai-button').getByRole('button').click();
    await expect
      .poll(
        () =>
          page.evaluate(() =>
            (window as unknown as { received: { type: string }[] }).received.map((m) => m.type),
          ),
        POLL,
      )
      .toContain('ai-button:install-success');

    const types = await page.evaluate(() =>
      (window as unknown as { received: { type: string }[] }).received.map((message) => message.type),
    );
    const aiTypes = types.filter((type) => type.startsWith('ai-button:'));
    expect(aiTypes[0]).toBe('ai-button:mounted');
    expect(aiTypes.filter((type) => type === 'ai-button:mounted')).toHaveLength(1);
    // Sizes come whenever the button's size changes (also when its spinner comes and goes); the first one after mounting.
    expect(aiTypes.indexOf('ai-button:size')).toBeGreaterThan(0);
    expect(aiTypes.indexOf('ai-button:running-ides')).toBeGreaterThan(0);
    expect(aiTypes.indexOf('ai-button:running-ides')).toBeLessThan(
      aiTypes.indexOf('ai-button:install-success'),
    );
    expect(types).toContain('embed:item-data');

    const received = await page.evaluate(() => (window as unknown as { received: unknown[] }).received);
    expect(
      received.find((message) => (message as { type: string }).type === 'ai-button:install-success'),
    ).toMatchObject({
      ide: { name: ide.name, port: 63342 },
    });
    // The frame takes the size the button reported last (the spinner changes it while installing).
    const frameMatchesLastSize = async () => {
      const sizes = await page.evaluate(() =>
        (
          window as unknown as { received: { type: string; width?: number; height?: number }[] }
        ).received.filter((message) => message.type === 'ai-button:size'),
      );
      const last = sizes.at(-1);
      const box = await page.locator('#widget iframe').boundingBox();
      return last !== undefined && box?.width === last.width && box?.height === last.height;
    };
    await expect.poll(frameMatchesLastSize, POLL).toBe(true);
    expect(ide.requests.some((request) => request.query.action === 'install')).toBe(true);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('ignores protocol messages from a frame of another origin', async () => {
    const { page } = await openPage(browser);
    await page.goto(`http://${HOST_PAGE_HOST}:${hostPages.port}/host.html`);
    // The real embed has spoken (so the listener is up) and the foreign frame has posted many times since.
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { received: unknown[] }).received.length), POLL)
      .toBeGreaterThan(0);
    const foreignSent = page.frameLocator('#foreign').locator('body');
    const sentBefore = Number(await foreignSent.getAttribute('data-sent'));
    await expect
      .poll(async () => Number(await foreignSent.getAttribute('data-sent')), POLL)
      .toBeGreaterThan(sentBefore + 5);

    const received = (await page.evaluate(() => (window as unknown as { received: unknown[] }).received)) as {
      type: string;
      height?: number;
      ide?: { name: string };
    }[];
    expect(received.filter((message) => message.height === FOREIGN_HEIGHT)).toEqual([]);
    expect(received.filter((message) => message.ide?.name === 'Forged IDE')).toEqual([]);
    const box = await page.locator('#widget iframe').boundingBox();
    expect(box?.height).not.toBe(FOREIGN_HEIGHT);
    await page.context().close();
  });
});
