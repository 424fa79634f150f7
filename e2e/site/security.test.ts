import AxeBuilder from '@axe-core/playwright';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOST_PAGE_HOST, launchChromium, openPage } from '../support/browser';
import { findDemoItems } from '../support/catalogue';
import type { DemoItems } from '../support/catalogue';
import { startTestHttpServer } from '../support/http-server';
import type { RunningHttpServer } from '../support/http-server';
import { startSiteServer } from './support/site-server';
import type { SiteServer } from './support/site-server';
import { getJson, signIn } from './support/site-pages';

const POLL = { timeout: 30_000, interval: 200 };

/** Every payload sets a mark or opens a dialog if it ever runs. */
const XSS_CORPUS = [
  '<script>window.__xss = 1</script>',
  '<img src=x onerror="window.__xss = 2">',
  '<svg onload="window.__xss = 3"></svg>',
  '<svg><script>window.__xss = 4</script></svg>',
  '<a href="javascript:window.__xss = 5">click me</a>',
  '<iframe src="javascript:parent.__xss = 6"></iframe>',
  '<iframe srcdoc="<script>parent.__xss = 7</script>"></iframe>',
  '<body onload="window.__xss = 8">',
  '<details open ontoggle="window.__xss = 9">x</details>',
  '<math><mtext><table><mglyph><style><img src=x onerror="window.__xss = 10">',
  '<form><button formaction="javascript:window.__xss = 11">go</button></form>',
  '<object data="javascript:window.__xss = 12"></object>',
  '<embed src="javascript:window.__xss = 13">',
  '<div style="background:url(javascript:window.__xss = 14)">styled</div>',
  '<input autofocus onfocus="window.__xss = 15">',
  '<video><source onerror="window.__xss = 16"></video>',
  '<noscript><p title="</noscript><img src=x onerror=window.__xss=17>">',
  '<a href="jav&#x09;ascript:window.__xss = 18">tab</a>',
  '"><script>window.__xss = 19</script>',
  '<meta http-equiv="refresh" content="0;url=javascript:window.__xss = 20">',
  '[click](javascript:window.__xss=21) <img src=x onerror=window.__xss=22>',
].join('\n');

async function expectNoScriptRan(page: Page, dialogs: string[]): Promise<void> {
  // Give late handlers (image errors, focus, toggles) their chance to fire.
  await page.waitForTimeout(1000);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
}

/**
 * Buttons whose text and background contrast less than WCAG AA asks (4.5:1), links styled as buttons
 * included. axe leaves a button whose text has the colour of its own background "incomplete", not violated,
 * so each is measured here from its computed colours.
 */
async function lowContrastButtons(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const channels = (colour: string) => (colour.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = ([r = 0, g = 0, b = 0]: number[]) => {
      const linear = (value: number) => {
        const c = value / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
    };
    const problems: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>(
      '.mp-button, .site-button-secondary, .site-button-danger',
    )) {
      if (element.offsetParent === null) continue;
      const style = getComputedStyle(element);
      const background = channels(style.backgroundColor);
      // A transparent button shows the page behind it: the page's own checks cover that text.
      if (background.length === 4 && background[3] === 0) continue;
      const [lighter, darker] = [luminance(channels(style.color)), luminance(background)].sort(
        (a, b) => b - a,
      );
      const ratio = ((lighter ?? 0) + 0.05) / ((darker ?? 0) + 0.05);
      if (ratio < 4.5) problems.push(`"${element.textContent?.trim()}" ${ratio.toFixed(2)}:1`);
    }
    return problems;
  });
}

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

describe('the site against hostile content, framing and accessibility', () => {
  let server: SiteServer;
  let browser: Browser;
  let items: DemoItems;
  let hostPages: RunningHttpServer;

  beforeAll(async () => {
    server = await startSiteServer();
    items = await findDemoItems(server.origin);
    browser = await launchChromium();
    const html = (body: string) => (_request: IncomingMessage, response: ServerResponse) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(
        `<!doctype html><html lang="en"><head><title>Host</title></head><body>${body}</body></html>`,
      );
    };
    hostPages = await startTestHttpServer({
      mounts: [],
      routes: {
        '/embed.html': html(
          `<script>window.received = []; addEventListener('message', (event) => window.received.push(event.data));</script>` +
            `<iframe id="embed" src="${server.origin}/embeddable/card/${items.plugin.id}" width="400" height="300"></iframe>`,
        ),
        '/embed-unknown.html': html(
          `<script>window.received = []; addEventListener('message', (event) => window.received.push(event.data));</script>` +
            `<iframe id="embed" src="${server.origin}/embeddable/card/999999" width="400" height="300"></iframe>`,
        ),
        '/frame-site.html': html(
          `<iframe id="site" src="${server.origin}/plugin/${items.plugin.id}"></iframe>`,
        ),
      },
    });
  });

  afterAll(async () => {
    await hostPages?.close();
    await browser?.close();
    await server?.close();
  });

  it('never runs script from hostile HTML in descriptions and change notes, even when the server sends it raw', async () => {
    const { context, page } = await openPage(browser);
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    try {
      // Stand in for a server that failed to sanitise: the browser's own sanitiser is the last line.
      // The item page asks with ?fullInfo=true: match the path, whatever the query.
      const itemPath = `/api/plugins/${items.plugin.id}`;
      await page.route(
        (url) => url.pathname === itemPath,
        async (route) => {
          const response = await route.fetch();
          const plugin = (await response.json()) as { info: { description: string } };
          plugin.info.description = XSS_CORPUS;
          await route.fulfill({ response, json: plugin });
        },
      );
      await page.route(`**/api/plugins/${items.plugin.id}/updates?*`, async (route) => {
        const response = await route.fetch();
        const versions = (await response.json()) as { notes: string }[];
        for (const version of versions) version.notes = XSS_CORPUS;
        await route.fulfill({ response, json: versions });
      });
      // The item page's own HTML carries the server's sanitised answer: a visitor who arrives from another
      // page of the site gets the item from the API, which is what the hostile answer stands in for.
      await page.goto(`${server.origin}/search?search=${encodeURIComponent(items.plugin.name)}`);
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor(POLL);
      await page.locator(`a[href^="/plugin/${items.plugin.id}-"]`).first().click();
      await page.locator('.site-prose').first().waitFor(POLL);
      const shown = await page.locator('.site-prose').first().innerHTML();
      expect(shown).toContain('click me');
      expect(shown).not.toMatch(/<script|<iframe|<object|<embed|<svg|<form|\son\w+=|javascript:|style=/i);
      await expectNoScriptRan(page, dialogs);

      await page.getByRole('link', { name: 'Versions' }).click();
      await page.getByText('What’s new').first().click();
      await expectNoScriptRan(page, dialogs);
    } finally {
      await context.close();
    }
  });

  it('never runs script from hostile HTML or Markdown documentation tabs', async () => {
    const token = server.createToken('developer', 'manage');
    const me = await getJson<{ id: number }>(server.origin, '/api/users/me', token);
    const owned = await getJson<{ id: number }[]>(server.origin, `/api/users/${me.id}/plugins`);
    const pluginId = owned[0]?.id;
    expect(pluginId).toBeDefined();
    const contentUrls: string[] = [];
    for (const [fileName, type] of [
      ['hostile.html', 'text/html'],
      ['hostile.md', 'text/markdown'],
    ] as const) {
      const form = new FormData();
      form.append('file', new Blob([`# Guide\n\n${XSS_CORPUS}\n`], { type }), fileName);
      const response = await fetch(
        `${server.origin}/api/plugins/${pluginId}/documentation?tabName=${encodeURIComponent(fileName)}`,
        { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form },
      );
      expect(response.status, await response.clone().text()).toBe(200);
      contentUrls.push(((await response.json()) as { contentUrl: string }).contentUrl);
    }

    const { context, page } = await openPage(browser);
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    try {
      for (const contentUrl of contentUrls) {
        await page.goto(`${server.origin}${contentUrl}`);
        await page.getByText('click me').first().waitFor(POLL);
        await expectNoScriptRan(page, dialogs);
      }
    } finally {
      await context.close();
    }
  });

  it('shows hostile review text as text', async () => {
    const { context, page } = await openPage(browser);
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    try {
      await page.goto(`${server.origin}/plugin/${items.ai.id}/reviews`);
      await signIn(page, 'visitor', server.passwords.visitor);
      await page.getByRole('radio', { name: '3 stars' }).first().check({ force: true });
      await page.getByLabel('Your review').fill(XSS_CORPUS);
      await page.getByRole('button', { name: 'Post review' }).click();
      await page.locator('.site-review__text').first().waitFor(POLL);
      await page.reload();
      await page.locator('.site-review__text').first().waitFor(POLL);
      await expectNoScriptRan(page, dialogs);
    } finally {
      await context.close();
    }
  });

  it('refuses to be framed except on embed pages, which post the item to the page that frames them', async () => {
    const pageResponse = await fetch(`${server.origin}/plugin/${items.plugin.id}`);
    expect(pageResponse.headers.get('x-frame-options')).toBe('DENY');
    expect(pageResponse.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const embedResponse = await fetch(`${server.origin}/embeddable/card/${items.plugin.id}`);
    expect(embedResponse.headers.get('x-frame-options')).toBeNull();
    expect(embedResponse.headers.get('content-security-policy')).toContain('frame-ancestors *');

    const { context, page, errors } = await openPage(browser);
    try {
      await page.goto(`http://${HOST_PAGE_HOST}:${hostPages.port}/embed.html`);
      await expect
        .poll(
          () =>
            page.evaluate(() =>
              (window as unknown as { received: { type: string; item?: { id: number } }[] }).received.map(
                (message) => `${message.type}:${message.item?.id ?? ''}`,
              ),
            ),
          POLL,
        )
        .toContain(`embed:item-data:${items.plugin.id}`);
      const card = page.frameLocator('#embed').getByRole('link').first();
      expect(await card.getAttribute('target')).toBe('_blank');

      await page.goto(`http://${HOST_PAGE_HOST}:${hostPages.port}/frame-site.html`);
      await page.waitForTimeout(1500);
      const framed = page.frames().find((frame) => frame !== page.mainFrame());
      expect(
        await framed
          ?.locator('.site-header')
          .count()
          .catch(() => 0),
      ).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('renders nothing for an unknown id and posts embed:error to the page that frames it', async () => {
    const { context, page } = await openPage(browser);
    try {
      await page.goto(`http://${HOST_PAGE_HOST}:${hostPages.port}/embed-unknown.html`);
      const received = () =>
        page.evaluate(() => (window as unknown as { received: Record<string, unknown>[] }).received);
      await expect
        .poll(async () => (await received()).find((message) => message.type === 'embed:error'), POLL)
        .toEqual({
          namespace: 'plugin-marketplace',
          type: 'embed:error',
          pluginId: '999999',
          status: 404,
          message: expect.stringContaining('999999'),
        });
      expect((await received()).some((message) => message.type === 'embed:item-data')).toBe(false);
      const frame = page.frameLocator('#embed');
      await frame.locator('.embed-content').waitFor({ state: 'attached', ...POLL });
      expect(await frame.locator('.embed-content > *').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('has no serious or critical axe violations on the home, search, item and dashboard pages', async () => {
    const { context, page } = await openPage(browser);
    try {
      const pages: [string, () => Promise<void>][] = [
        ['/', () => page.locator('.site-grid .mp-card').first().waitFor(POLL)],
        ['/search?search=git', () => page.locator('.site-grid .mp-card').first().waitFor(POLL)],
        [
          `/plugin/${items.plugin.id}`,
          async () => {
            await page.locator('.site-prose, .site-muted').first().waitFor(POLL);
            // No IDE runs here: the item's own page offers its downloads, not a link back to itself.
            await page.locator('.site-item__install').getByRole('link', { name: 'Download' }).waitFor(POLL);
          },
        ],
        [`/plugin/${items.plugin.id}/reviews`, () => page.locator('.site-reviews__mean').waitFor(POLL)],
        // A link styled as a primary button ("Go to the home page"): white on blue, not blue on blue.
        [
          '/account/no-such-page',
          () => page.getByRole('link', { name: 'Go to the home page' }).waitFor(POLL),
        ],
      ];
      for (const [path, ready] of pages) {
        await page.goto(`${server.origin}${path}`);
        await ready();
        expect(await seriousViolations(page), path).toEqual([]);
        expect(await lowContrastButtons(page), path).toEqual([]);
      }
      await page.goto(`${server.origin}/dashboard`);
      await signIn(page, 'developer', server.passwords.developer);
      await page
        .getByRole('list', { name: 'My items', exact: true })
        .locator('.mp-card .mp-chart__caption')
        .first()
        .waitFor(POLL);
      expect(await seriousViolations(page), '/dashboard').toEqual([]);
      expect(await lowContrastButtons(page), '/dashboard').toEqual([]);
      await page.goto(`${server.origin}/dashboard/new`);
      await page.getByLabel('License URL').waitFor(POLL);
      expect(await seriousViolations(page), '/dashboard/new').toEqual([]);
      // The tag picker with its list open and a tag chosen.
      const tags = page.getByRole('combobox', { name: 'Tags' });
      await tags.fill('Lang');
      await tags.press('Enter');
      await tags.fill('co');
      await page.getByRole('listbox').getByRole('option').first().waitFor(POLL);
      expect(await seriousViolations(page), '/dashboard/new with the tag list open').toEqual([]);
    } finally {
      await context.close();
    }
  });
});
