import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser';
import { findDemoItems, type DemoItems } from '../support/catalogue';
import { startSiteServer, type SiteServer } from './support/site-server';
import { getJson, signIn } from './support/site-pages';

const POLL = { timeout: 30_000, interval: 200 };
/**
 * "No shift": the install button, which looks for IDEs after hydration (none runs here), may nudge its own
 * corner by about a thousandth when it offers the download instead.
 */
const SHIFT_MAX = 0.005;

interface ApiPlugin {
  info: { name: string; link: string; downloads: number };
  rating: { meanRating: number };
}

interface SearchAnswer {
  plugins: { name: string }[];
}

interface UserAnswer {
  name: string;
  login: string;
}

/** The demo catalogue's developer, who publishes listed items (an author page with content). */
const AUTHOR_ID = 2;

async function consentCookie(context: BrowserContext): Promise<string | undefined> {
  const cookies = await context.cookies();
  return cookies.find((cookie) => cookie.name === 'mp_consent')?.value;
}

/** What a page did while it loaded: its API requests, errors in the console, layout shifts. */
interface Visit {
  context: BrowserContext;
  page: Page;
  apiRequests: string[];
  consoleErrors: string[];
  /** What React said of hydration: a mismatch, or an error it recovered from by drawing the page again. */
  hydrationProblems: string[];
}

/**
 * React's words when hydration goes wrong, in its development build and (by error number, #418 "Hydration
 * failed", #419 a part the server could not finish, #421 and #423 a part drawn again) its production build,
 * which reports them as the page's uncaught errors.
 */
const HYDRATION_PROBLEM =
  /hydrat|did not match|didn't match|recoverable|Minified React error #(418|419|421|422|423|425)\b/i;

/**
 * Server-rendered public pages (issue: public pages that load fast and share well): their content is in the
 * HTML before any script runs, and the browser takes them over (hydration) without moving anything, without
 * asking the API again for what the page carries, and without React reporting a mismatch.
 */
describe('server-rendered public pages', () => {
  let server: SiteServer;
  let browser: Browser;
  let items: DemoItems;
  let plugin: ApiPlugin;

  beforeAll(async () => {
    server = await startSiteServer();
    items = await findDemoItems(server.origin);
    plugin = await getJson<ApiPlugin>(server.origin, `/api/plugins/${items.plugin.id}`);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function visit(
    path: string,
    options: { javaScript?: boolean; firstVisit?: boolean } = {},
  ): Promise<Visit> {
    const context = await browser.newContext({ javaScriptEnabled: options.javaScript ?? true });
    // Unless it is a first visit: a returning visitor who has chosen about cookies (no banner).
    if (!options.firstVisit)
      await context.addCookies([{ name: 'mp_consent', value: 'denied', url: server.origin }]);
    const page = await context.newPage();
    const apiRequests: string[] = [];
    const consoleErrors: string[] = [];
    const hydrationProblems: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin === server.origin && url.pathname.startsWith('/api/'))
        apiRequests.push(`${url.pathname}${url.search}`);
    });
    page.on('console', (message) => {
      // The install button looks for IDEs on this machine's ports; none runs here.
      if (message.type() === 'error' && !message.text().includes('Failed to load resource'))
        consoleErrors.push(message.text());
      if (HYDRATION_PROBLEM.test(message.text())) hydrationProblems.push(message.text());
    });
    page.on('pageerror', (error) => {
      consoleErrors.push(error.message);
      if (HYDRATION_PROBLEM.test(`${error.message}\n${error.stack ?? ''}`))
        hydrationProblems.push(error.message);
    });
    await page.addInitScript(() => {
      // The server's elements, once the HTML is parsed and before any of the page's scripts runs (module
      // scripts run after this readystatechange): hydration keeps them, unless it found markup it would not
      // draw and drew that part again (React's production build reports it only as an error number). Left out:
      // what the browser redraws right after, the install button once it has looked for IDEs and the
      // downloads chart it loads.
      document.addEventListener('readystatechange', () => {
        if (document.readyState !== 'interactive') return;
        const root = document.getElementById('root');
        (window as unknown as { serverElements: Element[] }).serverElements = [
          ...(root?.querySelectorAll('*') ?? []),
        ].filter((element) => !element.closest('.mp-install, .site-chart-block'));
      });
      const shifts: number[] = [];
      (window as unknown as { layoutShifts: number[] }).layoutShifts = shifts;
      // Screenshots have no size before they load (site.css gives them a height, not a width): their arrival
      // widens their own row whenever it comes, with or without hydration, and is left out of the measure.
      const isScreenshot = (node: Node | null) =>
        Boolean((node instanceof Element ? node : node?.parentElement)?.closest('.site-screenshots'));
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          const shift = entry as unknown as { value: number; sources: { node: Node | null }[] };
          if (shift.sources.every((source) => isScreenshot(source.node))) continue;
          shifts.push(shift.value);
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto(`${server.origin}${path}`, { waitUntil: 'networkidle' });
    return { context, page, apiRequests, consoleErrors, hydrationProblems };
  }

  /**
   * Waits until React has taken the page over: the account button, which the server never renders (it knows
   * no visitor), is there once the browser has checked who is signed in.
   */
  async function hydrated(page: Page, title: string): Promise<void> {
    await page
      .getByRole('button', { name: /^Sign (in|out)$/ })
      .first()
      .waitFor({ timeout: 30_000 });
    expect(await page.title()).toBe(`${title} | Marketplace`);
    // Shifts are reported after the frame that made them.
    await page.waitForTimeout(500);
  }

  /** The server's elements that hydration took out of the page (`tag.class`): none when it adopted its markup. */
  async function replacedElements(page: Page): Promise<string[]> {
    return page.evaluate(() =>
      (window as unknown as { serverElements: Element[] }).serverElements
        .filter((element) => !element.isConnected)
        .map((element) => `${element.tagName.toLowerCase()}.${element.className}`),
    );
  }

  async function layoutShift(page: Page): Promise<number> {
    const shifts = await page.evaluate(() => (window as unknown as { layoutShifts: number[] }).layoutShifts);
    return shifts.reduce((sum, value) => sum + value, 0);
  }

  it('shows the content before any script runs: the item, the home page and search results', async () => {
    const item = await visit(plugin.info.link, { javaScript: false });
    try {
      const { page } = item;
      await expect(page.locator('h1').textContent()).resolves.toBe(plugin.info.name);
      expect(await page.title()).toBe(`${plugin.info.name} | Marketplace`);
      await expect(page.locator('.site-prose').first().isVisible()).resolves.toBe(true);
      const meta = await page.locator('.site-item__meta').textContent();
      expect(meta).toContain(plugin.rating.meanRating.toFixed(1));
      expect(meta).toContain(plugin.info.downloads.toLocaleString('en-US'));
      expect(await page.locator('meta[property="og:title"]').getAttribute('content')).toBe(plugin.info.name);
      // Styled at first paint: the components' sheet applies, and the stars' fills from their sheet.
      const fills = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('.site-item__meta [data-mp-style]')].map((element) => ({
          declared: Number(/width:(\d+(?:\.\d+)?)%/.exec(element.dataset.mpStyle ?? '')?.[1]),
          width: element.getBoundingClientRect().width,
          parent: element.parentElement?.getBoundingClientRect().width ?? 0,
        })),
      );
      expect(fills.length).toBe(5);
      for (const fill of fills)
        expect(Math.abs(fill.width - (fill.parent * fill.declared) / 100)).toBeLessThan(1);
      expect(item.apiRequests.filter((path) => !/\/(icon|screenshots)\b/.test(path))).toEqual([]);
    } finally {
      await item.context.close();
    }

    const mostDownloaded = await getJson<SearchAnswer>(
      server.origin,
      '/api/searchPlugins?orderBy=downloads&max=6',
    );
    const home = await visit('/', { javaScript: false });
    try {
      const section = home.page.getByRole('list', { name: 'Most downloaded', exact: true });
      for (const { name } of mostDownloaded.plugins)
        await expect(section.getByText(name).count()).resolves.toBeGreaterThan(0);
    } finally {
      await home.context.close();
    }

    const word = items.plugin.name.split(/\s+/)[0]!;
    const search = await visit(`/search?search=${encodeURIComponent(word)}`, { javaScript: false });
    try {
      await expect(search.page.locator('h1').textContent()).resolves.toContain(word);
      await expect(search.page.getByText(items.plugin.name).count()).resolves.toBeGreaterThan(0);
    } finally {
      await search.context.close();
    }
  });

  it('hydrates the item page without a shift, a request for its data or a mismatch, and then works', async () => {
    const { context, page, apiRequests, consoleErrors, hydrationProblems } = await visit(plugin.info.link);
    try {
      await hydrated(page, plugin.info.name);
      expect(hydrationProblems).toEqual([]);
      expect(await replacedElements(page)).toEqual([]);
      expect(await layoutShift(page)).toBeLessThan(SHIFT_MAX);
      const itemData = new RegExp(`^/api/plugins/${items.plugin.id}(\\?|/custom-pages|$)`);
      expect(apiRequests.filter((path) => itemData.test(path))).toEqual([]);
      expect(consoleErrors).toEqual([]);
      // The page answers clicks: the Reviews tab opens inside the app and loads its reviews.
      await page.getByRole('link', { name: 'Reviews', exact: true }).click();
      await expect.poll(() => new URL(page.url()).pathname, POLL).toBe(`${plugin.info.link}/reviews`);
      await expect.poll(() => apiRequests.some((path) => path.startsWith('/api/comments')), POLL).toBe(true);
      await page.getByRole('heading', { name: 'Reviews', level: 2 }).waitFor({ timeout: 30_000 });
      expect(consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('draws the consent banner of a first visit on the server, so hydration moves nothing', async () => {
    const first = await visit('/', { firstVisit: true });
    try {
      await hydrated(first.page, 'Plugins for your IDE');
      expect(first.hydrationProblems).toEqual([]);
      expect(await replacedElements(first.page)).toEqual([]);
      const banner = first.page.getByRole('region', { name: 'Cookies and statistics' });
      await expect.poll(() => banner.isVisible(), POLL).toBe(true);
      expect(await layoutShift(first.page)).toBeLessThan(SHIFT_MAX);
      expect(first.consoleErrors).toEqual([]);
      // Hydrated, the page records the choice itself: the API call, not the form's post and reload.
      const choices: string[] = [];
      first.page.on('request', (request) => {
        const path = new URL(request.url()).pathname;
        if (request.method() !== 'GET' && (path === '/consent' || path === '/api/consent'))
          choices.push(`${request.method()} ${path}`);
      });
      await banner.getByRole('button', { name: 'Decline' }).click();
      await expect.poll(() => banner.count(), POLL).toBe(0);
      expect(await consentCookie(first.context)).toBe('denied');
      expect(choices).toEqual(['PUT /api/consent']);
    } finally {
      await first.context.close();
    }
  });

  it('takes the consent choice without JavaScript: the banner’s form records it and shows the page again', async () => {
    const home = await visit('/', { javaScript: false, firstVisit: true });
    try {
      const banner = home.page.getByRole('region', { name: 'Cookies and statistics' });
      expect(await banner.isVisible()).toBe(true);
      await banner.getByRole('button', { name: 'Accept' }).click();
      await expect.poll(() => banner.count(), POLL).toBe(0);
      expect(new URL(home.page.url()).pathname).toBe('/');
      expect(await consentCookie(home.context)).toBe('granted');
      await expect(
        home.page.getByRole('list', { name: 'Most downloaded', exact: true }).isVisible(),
      ).resolves.toBe(true);

      // A first visit to a search: the choice comes back to the same search.
      await home.context.clearCookies();
      await home.page.goto(`${server.origin}/search?search=git`);
      await banner.getByRole('button', { name: 'Decline' }).click();
      await expect.poll(() => banner.count(), POLL).toBe(0);
      const back = new URL(home.page.url());
      expect(`${back.pathname}${back.search}`).toBe('/search?search=git');
      expect(await consentCookie(home.context)).toBe('denied');
    } finally {
      await home.context.close();
    }
  });

  it('hydrates home and search without a shift, a request for their data or a mismatch', async () => {
    const home = await visit('/');
    try {
      await hydrated(home.page, 'Plugins for your IDE');
      expect(home.hydrationProblems).toEqual([]);
      expect(await replacedElements(home.page)).toEqual([]);
      expect(await layoutShift(home.page)).toBeLessThan(SHIFT_MAX);
      expect(home.apiRequests.filter((path) => /^\/api\/(searchPlugins|featured)/.test(path))).toEqual([]);
      expect(home.consoleErrors).toEqual([]);
    } finally {
      await home.context.close();
    }

    const search = await visit('/search?search=git');
    try {
      await hydrated(search.page, 'Search: git');
      expect(search.hydrationProblems).toEqual([]);
      expect(await replacedElements(search.page)).toEqual([]);
      expect(await layoutShift(search.page)).toBeLessThan(SHIFT_MAX);
      expect(search.apiRequests.filter((path) => /^\/api\/(searchPlugins|search\/)/.test(path))).toEqual([]);
      expect(search.consoleErrors).toEqual([]);
      // A new search is the app's, as before: it asks the API.
      await search.page.getByRole('radio', { name: 'Themes' }).click();
      await expect
        .poll(() => search.apiRequests.some((path) => path.includes('kind=themes')), POLL)
        .toBe(true);
    } finally {
      await search.context.close();
    }
  });

  it('hydrates an author page without a shift, a request for its data or a mismatch', async () => {
    const author = await getJson<UserAnswer>(server.origin, `/api/users/${AUTHOR_ID}`);
    const listed = await getJson<{ name: string }[]>(server.origin, `/api/users/${AUTHOR_ID}/plugins`);
    expect(listed.length).toBeGreaterThan(0);
    const name = author.name || author.login;
    const { context, page, apiRequests, consoleErrors, hydrationProblems } = await visit(
      `/author/${AUTHOR_ID}`,
    );
    try {
      await hydrated(page, name);
      expect(hydrationProblems).toEqual([]);
      await expect(page.locator('h1').textContent()).resolves.toBe(name);
      await expect(page.getByText(listed[0]!.name).count()).resolves.toBeGreaterThan(0);
      expect(await replacedElements(page)).toEqual([]);
      expect(await layoutShift(page)).toBeLessThan(SHIFT_MAX);
      expect(apiRequests.filter((path) => path.startsWith(`/api/users/${AUTHOR_ID}`))).toEqual([]);
      expect(consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('gives a signed-in visitor the same page, with their parts filled in after hydration', async () => {
    const { context, page, consoleErrors, hydrationProblems } = await visit(plugin.info.link);
    try {
      await hydrated(page, plugin.info.name);
      expect(hydrationProblems).toEqual([]);
      await signIn(page, 'visitor', server.passwords.visitor);
      await expect.poll(() => new URL(page.url()).pathname, POLL).toBe(plugin.info.link);
      await page.getByRole('link', { name: 'Licences' }).waitFor({ timeout: 30_000 });
      await expect(page.locator('h1').textContent()).resolves.toBe(plugin.info.name);
      // A reload is server-rendered for a guest, then the browser fills in who is signed in.
      await page.reload({ waitUntil: 'networkidle' });
      await page.getByRole('button', { name: 'Sign out' }).waitFor({ timeout: 30_000 });
      await page.getByRole('link', { name: 'Reviews', exact: true }).click();
      await page
        .getByRole('heading', { name: 'Write a review' })
        .or(page.getByText('Edit', { exact: true }))
        .first()
        .waitFor({ timeout: 30_000 });
      expect(consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
