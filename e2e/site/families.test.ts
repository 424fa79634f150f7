import {
  PRODUCT_FAMILIES,
  downloadWording,
  familyLabel,
  itemNoun,
  type ProductFamily,
} from '@marketplace/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage } from '../support/browser';
import { pluginJar } from './support/plugin-archive';
import { getJson, signIn } from './support/site-pages';
import { startSiteServer, type SiteServer } from './support/site-server';

/**
 * Issue 18, "the spec's words": for each product family, the Chromium walk of the home page, the browse page,
 * an item page and each of its tabs, the developer's dashboard and the admin moderation page finds the
 * family's own noun where a noun is shown (§1: plugin, application, dashboard widget, course, app, recipe),
 * 'installations' for Space and 'downloads' for the rest, none of the other families' nouns, and no empty
 * image box.
 */

const POLL = { timeout: 30_000, interval: 200 };

/** Every noun of §1, singular, with the pattern that finds it (plural included) in a page's words. */
const NOUN_PATTERNS: Readonly<Record<string, RegExp>> = {
  // "plugin.xml" is a file's name, not what the item is called.
  plugin: /\bplugins?\b(?!\.xml)/i,
  application: /\bapplications?\b/i,
  'dashboard widget': /\bdashboard widgets?\b/i,
  course: /\bcourses?\b/i,
  app: /\bapps?\b/i,
  recipe: /\brecipes?\b/i,
};

/** Counting words: the counts of one wording must not appear for a family of the other. */
const WORDING_PATTERNS = {
  download: /\bdownloads\b|\bdownloaded\b/i,
  // 'installation without restart' (the plugin verifier's check) is not a count.
  installation: /\binstallations\b|\bmost installed\b/i,
} as const;

/**
 * What the people of the catalogue wrote (names, descriptions, reviews, tags, vendors) and the site-wide choices
 * of a family (the families' own names in a picker or the family links): their words are not the page's nouns.
 */
const NOT_THE_PAGES_WORDS = [
  '.mp-card__name',
  '.mp-card__vendor',
  '.mp-card__description',
  '.mp-card__cover-name',
  '.site-item__title h1',
  '.site-item__meta > span:first-child',
  '.site-prose',
  '.site-review',
  '.site-chips',
  'code',
  'pre',
  'select',
  'nav[aria-label="Product families"]',
  'a[href^="/plugin/"]',
  'a[href^="/author/"]',
  'h2 a',
  'td',
].join(', ');

interface FamilyItems {
  family: ProductFamily;
  /** A listed item of the family: the demo catalogue's most downloaded, or one made here when it has none. */
  listed: { id: number; name: string; link: string };
  /** An item of the family the demo developer owns (made here, except the IntelliJ family's demo items). */
  own: { id: number; name: string; link: string };
}

async function api(
  origin: string,
  path: string,
  token: string,
  init: { method: string; body?: FormData | string },
): Promise<unknown> {
  const response = await fetch(new URL(path, origin), {
    method: init.method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(typeof init.body === 'string' ? { 'content-type': 'application/json' } : {}),
    },
    ...(init.body === undefined ? {} : { body: init.body }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method} ${path} answered ${response.status}: ${text}`);
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/** A new item of the family, uploaded by the demo developer through the API (a draft, waiting to publish). */
async function uploadItem(
  server: SiteServer,
  uploadToken: string,
  family: ProductFamily,
): Promise<{ id: number; name: string; link: string }> {
  const tags = await getJson<{ name: string; privileged: boolean }[]>(
    server.origin,
    `/api/tags?family=${family}`,
  );
  const tag = tags.find((candidate) => !candidate.privileged);
  if (!tag) throw new Error(`No tag a developer may choose for ${family}.`);
  const stamp = `${Date.now() % 1_000_000}`;
  const name = `Family Walk ${familyLabel(family)} ${stamp}`;
  const form = new FormData();
  form.set('licenseUrl', 'https://example.com/license');
  form.set('tags', tag.name);
  form.set(
    'file',
    new Blob([
      new Uint8Array(
        pluginJar({
          xmlId: `com.example.walk.${family}.${stamp}`,
          name,
          version: '1.0.0',
          description: '<p>Made by the family walk of the e2e tests.</p>',
        }),
      ),
    ]),
    `walk-${family}.jar`,
  );
  const uploaded = (await api(server.origin, `/api/plugins/${family}/upload`, uploadToken, {
    method: 'POST',
    body: form,
  })) as { id: number };
  const item = await getJson<{ info: { name: string; link: string } }>(
    server.origin,
    `/api/plugins/${uploaded.id}`,
    uploadToken,
  );
  return { id: uploaded.id, name: item.info.name, link: item.info.link };
}

/**
 * The words the page's own content (`main`) shows, with its title and its elements' accessible labels, without
 * what people wrote: those elements are hidden for the moment of reading, so hidden text stays unread too.
 */
async function pageWords(page: Page, scope: string): Promise<string> {
  const words = await page.locator(scope).evaluate((main: HTMLElement, skip) => {
    const skipped = [...main.querySelectorAll<HTMLElement>(skip)];
    const displays = skipped.map((element) => element.style.display);
    for (const element of skipped) element.style.display = 'none';
    try {
      const labels = [...main.querySelectorAll('[aria-label]')]
        .filter((element) => !element.closest(skip))
        .map((element) => element.getAttribute('aria-label') ?? '');
      return [main.innerText, ...labels].join('\n');
    } finally {
      skipped.forEach((element, index) => (element.style.display = displays[index] ?? ''));
    }
  }, NOT_THE_PAGES_WORDS);
  return `${await page.title()}\n${words}`;
}

/** The nouns of other families and the other wording found on the page (nothing, when all is right). */
function wrongWords(words: string, family: ProductFamily): string[] {
  const own = itemNoun(family);
  const found: string[] = [];
  for (const [noun, pattern] of Object.entries(NOUN_PATTERNS)) {
    if (noun === own) continue;
    const match = pattern.exec(words);
    if (match)
      found.push(`"${match[0]}" in …${words.slice(Math.max(0, match.index - 60), match.index + 40)}…`);
  }
  const otherWording = downloadWording(family) === 'installation' ? 'download' : 'installation';
  const match = WORDING_PATTERNS[otherWording].exec(words);
  if (match) found.push(`"${match[0]}" in …${words.slice(Math.max(0, match.index - 60), match.index + 40)}…`);
  return found;
}

/**
 * Waits until the page has loaded what it shows (lazy images too: it scrolls through it), then checks that no
 * image box is empty: every visible image has loaded, every theme frame has its cover, every letter icon
 * its letter.
 */
async function expectNoEmptyImage(page: Page, where: string, scope = 'main'): Promise<string[]> {
  await quiet(page);
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += window.innerHeight / 2) {
      window.scrollTo(0, y);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    window.scrollTo(0, 0);
  });
  await quiet(page);
  await expect
    .poll(
      () =>
        page.locator(`${scope} img`).evaluateAll((images) => {
          const loading = images
            .filter((image) => image.getClientRects().length > 0)
            .filter((image) => !(image as HTMLImageElement).complete);
          // A lazy image loads once it is near the viewport (the list may have changed since the scroll).
          for (const image of loading) image.scrollIntoView({ block: 'center' });
          return loading.map((image) => (image as HTMLImageElement).src);
        }),
      { ...POLL, message: `${where}: images still loading` },
    )
    .toEqual([]);
  const empty = await page.locator(scope).evaluate((main) => {
    const problems: string[] = [];
    for (const image of main.querySelectorAll('img')) {
      if (image.getClientRects().length === 0) continue;
      if (image.naturalWidth === 0) problems.push(`image not loaded: ${image.src}`);
    }
    for (const cover of main.querySelectorAll('.mp-card__cover')) {
      if (!getComputedStyle(cover).backgroundImage.includes('gradient'))
        problems.push(`theme frame without cover: ${cover.textContent ?? ''}`);
    }
    for (const letter of main.querySelectorAll('.mp-card__icon--letter, .site-item__icon--letter')) {
      if (!(letter.textContent ?? '').trim()) problems.push('letter icon without a letter');
    }
    return problems;
  });
  return empty.map((problem) => `${where}: ${problem}`);
}

/** Until the page's requests are done (at most a few seconds: a page may poll). */
async function quiet(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
}

/** Every wording count on the page ('1,234 downloads', '90 installations in the last 30 days') is the family's. */
async function countsInOtherWording(
  page: Page,
  family: ProductFamily,
  where: string,
  scope: string,
): Promise<string[]> {
  const captions = await page.locator(`${scope} .mp-chart__caption`).allInnerTexts();
  const wording = new RegExp(`^[\\d,]+ ${downloadWording(family, { plural: true })} in the last`);
  return captions
    .filter((caption) => !wording.test(caption))
    .map((caption) => `${where}: chart says "${caption}"`);
}

describe('each product family’s words, page by page, in Chromium', () => {
  let server: SiteServer;
  let browser: Browser;
  let visitor: Page;
  let developer: Page;
  let admin: Page;
  const closers: (() => Promise<void>)[] = [];
  const items = new Map<ProductFamily, FamilyItems>();

  beforeAll(async () => {
    server = await startSiteServer();
    browser = await launchChromium();
    const uploadToken = server.createToken('developer', 'upload');
    const manageToken = server.createToken('developer', 'manage');
    const adminToken = server.createToken('admin', 'manage');
    const me = await getJson<{ id: number }>(server.origin, '/api/users/me', manageToken);
    const mine = await getJson<{ id: number; name: string; link: string; family: ProductFamily }[]>(
      server.origin,
      `/api/users/${me.id}/plugins?size=12`,
      manageToken,
    );
    for (const family of PRODUCT_FAMILIES) {
      const found = await getJson<{ plugins: { id: number; name: string; link: string }[] }>(
        server.origin,
        `/api/searchPlugins?family=${family}&orderBy=downloads&max=1`,
      );
      const own =
        mine.find((item) => item.family === family) ?? (await uploadItem(server, uploadToken, family));
      let listed = found.plugins[0];
      if (!listed) {
        // No demo item of this family: the developer's new one is published and approved, as people would.
        await api(server.origin, `/api/plugins/${own.id}/publish`, manageToken, {
          method: 'POST',
          body: '{}',
        });
        await api(server.origin, `/api/plugins/${own.id}/approve`, adminToken, {
          method: 'POST',
          body: '{}',
        });
        listed = own;
      }
      items.set(family, {
        family,
        listed: { id: listed.id, name: listed.name, link: listed.link },
        own: { id: own.id, name: own.name, link: own.link },
      });
    }
    for (const role of ['visitor', 'developer', 'admin'] as const) {
      const opened = await openPage(browser);
      closers.push(() => opened.context.close());
      await opened.page.setViewportSize({ width: 1280, height: 900 });
      if (role !== 'visitor') {
        await opened.page.goto(`${server.origin}/dashboard`);
        await signIn(opened.page, role, server.passwords[role]);
      }
      if (role === 'visitor') visitor = opened.page;
      else if (role === 'developer') developer = opened.page;
      else admin = opened.page;
    }
  });

  afterAll(async () => {
    for (const close of closers) await close();
    await browser?.close();
    await server?.close();
  });

  for (const family of PRODUCT_FAMILIES) {
    const noun = itemNoun(family);
    const plural = itemNoun(family, { plural: true });
    const label = familyLabel(family, { long: true });

    it(`${family}: home, browse, item page and tabs, dashboard and moderation call items ${plural}`, async () => {
      const { listed, own } = items.get(family) as FamilyItems;
      const problems: string[] = [];
      const check = async (page: Page, where: string, scope = 'main') => {
        problems.push(...(await expectNoEmptyImage(page, where, scope)));
        problems.push(...(await countsInOtherWording(page, family, where, scope)));
        for (const wrong of wrongWords(await pageWords(page, scope), family))
          problems.push(`${where}: ${wrong}`);
      };

      // The home page of the family: its name, its items' plural in every section, the family's counts.
      await visitor.goto(`${server.origin}/?family=${family}`);
      await visitor.getByRole('heading', { level: 1, name: label, exact: true }).waitFor(POLL);
      await visitor.getByRole('link', { name: `Browse all ${plural}`, exact: true }).waitFor();
      const mostCounted = downloadWording(family) === 'installation' ? 'Most installed' : 'Most downloaded';
      await visitor
        .getByRole('list', { name: `${mostCounted} ${plural}`, exact: true })
        .locator('.mp-card')
        .first()
        .waitFor(POLL);
      await visitor.getByRole('heading', { name: `Top rated ${plural}`, exact: true }).waitFor();
      await check(visitor, 'home');

      // Browse, filtered to the family (from the home page's own link).
      await visitor.getByRole('link', { name: `Browse all ${plural}`, exact: true }).click();
      await visitor.waitForURL(
        (url) => url.pathname === '/search' && url.searchParams.get('family') === family,
      );
      await visitor.locator('.site-grid[aria-busy="false"] .mp-card').first().waitFor(POLL);
      await check(visitor, 'browse');

      // The item page and each tab a visitor sees.
      await visitor.goto(`${server.origin}${listed.link}`);
      await visitor.getByRole('heading', { level: 1, name: listed.name, exact: true }).waitFor(POLL);
      await visitor.getByRole('button', { name: `Report this ${noun}`, exact: true }).waitFor();
      const counted = await visitor.locator('.site-item__meta').innerText();
      expect(counted).toMatch(new RegExp(`[\\d,.]+[KM]? ${downloadWording(family, { plural: true })}\\b`));
      const tabs = await visitor
        .getByRole('navigation', { name: `${itemNoun(family, { capitalised: true })} sections` })
        .getByRole('link')
        .evaluateAll((links) =>
          links.map((link) => [link.textContent ?? '', link.getAttribute('href') ?? '']),
        );
      expect(tabs.map(([name]) => name)).toEqual(expect.arrayContaining(['Overview', 'Versions', 'Reviews']));
      for (const [name, href] of tabs) {
        await visitor.goto(`${server.origin}${href}`);
        await visitor.getByRole('link', { name, exact: true }).and(visitor.locator('.active')).waitFor(POLL);
        await check(visitor, `item page, ${name} tab`);
      }

      // The developer: the dashboard's card of their item of the family (courses too: the dashboard asks
      // `/api/users/{id}/plugins` for every family, not the spec's default), its manage page, its item page's tabs.
      await developer.goto(`${server.origin}/dashboard`);
      const card = developer.getByRole('article', { name: own.name, exact: true });
      // The dashboard lists 12 items a page: turn pages until the item's card shows.
      await developer.getByRole('list', { name: 'My items' }).locator('.mp-card').first().waitFor(POLL);
      while ((await card.count()) === 0) {
        const next = developer.getByRole('button', { name: 'Next', exact: true });
        expect(await next.isEnabled(), `${own.name} on the dashboard`).toBe(true);
        await next.click();
        await quiet(developer);
      }
      await card.waitFor(POLL);
      await card.scrollIntoViewIfNeeded();
      // The card's counts (its name and description are the developer's words).
      const counts = (await card.locator('.mp-card__meta, .mp-chart').allInnerTexts()).join('\n');
      expect(counts).toMatch(new RegExp(`\\b${downloadWording(family, { plural: true })}\\b`));
      for (const wrong of wrongWords(counts, family)) problems.push(`dashboard card: ${wrong}`);
      // Under the card, what the item is: the family's noun.
      const cardActions = developer
        .locator('.site-grid__item--actions', { has: card })
        .locator('.site-grid__actions');
      expect(await cardActions.innerText()).toContain(itemNoun(family, { capitalised: true }));
      problems.push(...(await expectNoEmptyImage(developer, 'dashboard')));
      await developer.goto(`${server.origin}/dashboard/plugin/${own.id}`);
      await developer.getByRole('region', { name: 'Status' }).waitFor(POLL);
      await check(developer, 'manage page');
      await developer.goto(`${server.origin}${own.link}`);
      // The manager tabs show once the page knows the viewer manages the item.
      await developer.getByRole('link', { name: 'Analytics', exact: true }).waitFor(POLL);
      const ownTabs = await developer
        .getByRole('navigation', { name: `${itemNoun(family, { capitalised: true })} sections` })
        .getByRole('link')
        .evaluateAll((links) =>
          links.map((link) => [link.textContent ?? '', link.getAttribute('href') ?? '']),
        );
      expect(ownTabs.map(([name]) => name)).toEqual(expect.arrayContaining(['Sales', 'Analytics']));
      // The tabs a visitor sees were walked above, on the listed item: here only the manager tabs.
      const visitorTabs = new Set(tabs.map(([name]) => name));
      for (const [name, href] of ownTabs.filter(([tab]) => !visitorTabs.has(tab))) {
        await developer.goto(`${server.origin}${href}`);
        await developer
          .getByRole('link', { name, exact: true })
          .and(developer.locator('.active'))
          .waitFor(POLL);
        await check(developer, `own item page, ${name} tab`);
      }

      // The administrators' moderation of the listed item.
      await admin.goto(`${server.origin}/admin?plugin=${listed.id}`);
      const moderation = admin.getByRole('region', { name: new RegExp(`^${escapeRegExp(listed.name)}`) });
      await moderation
        .getByText(`${itemNoun(family, { capitalised: true })} · ${label}`, { exact: true })
        .waitFor(POLL);
      await moderation.locator('[aria-label="Moderation actions"]').waitFor(POLL);
      // The moderation of the one item (the rest of the page lists items of every family, and sellers).
      await check(admin, 'moderation', 'section[aria-labelledby="moderation-heading"]');

      expect(problems).toEqual([]);
    });
  }
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
