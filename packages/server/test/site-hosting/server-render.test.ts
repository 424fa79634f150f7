import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { descriptionExcerpt, formatNumber } from '@marketplace/core';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { createBuilder } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { createFileStore } from '../../src/storage';
import { PLUGINS, seedCatalogue } from '../api/catalogue-fixture';
import { createTestDatabase, type TestDatabase } from '../db/test-database';

/**
 * The public pages as a crawler or a link preview reads them: real HTTP on loopback, the real site built
 * (browser files and server render, as `pnpm build` makes them) into a folder of its own, the API tests'
 * catalogue (listed items 1 Git Toolbox, 2 Kotlin Fest, 3 Darcula Pro Theme, 8, 10 beside hidden ones).
 */
const PUBLIC_URL = 'https://plugins.example.com';
const siteRoot = fileURLToPath(new URL('../../../../site', import.meta.url));

let testDatabase: TestDatabase;
let app: FastifyInstance;
let origin: string;
let buildDir: string;
let dataDir: string;

/** Builds the site as `vite build` does, into `outDir` (inside site/, where its packages resolve). */
async function buildSite(outDir: string): Promise<void> {
  const builder = await createBuilder({
    root: siteRoot,
    configFile: join(siteRoot, 'vite.config.ts'),
    logLevel: 'warn',
    mode: 'production',
    build: { outDir },
    environments: { ssr: { build: { outDir: join(outDir, 'server') } } },
  });
  await builder.buildApp();
}

beforeAll(async () => {
  // Under site/node_modules/.cache: the server render's packages (React, jsdom) resolve from there.
  const cache = join(siteRoot, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  buildDir = await mkdtemp(join(cache, 'server-render-test-'));
  await buildSite(buildDir);
  dataDir = await mkdtemp(join(tmpdir(), 'marketplace-ssr-'));
  testDatabase = await createTestDatabase();
  const config = loadConfig({ PUBLIC_URL, RESPONSE_CACHE_MS: '60000' }, [], dataDir);
  const fileStore = createFileStore(dataDir);
  await seedCatalogue(testDatabase.database.db, fileStore);
  app = await buildApp({ database: testDatabase.database, fileStore, config, siteDir: buildDir });
  origin = await app.listen({ port: 0, host: '127.0.0.1' });
  // The first page loads the server render (and jsdom for the sanitiser) once.
  await fetch(`${origin}/search`, { headers: { accept: 'text/html' } });
  app.forgetCachedAnswers();
}, 300_000);

afterAll(async () => {
  await app?.close();
  await testDatabase?.dispose();
  await rm(buildDir, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

async function page(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${origin}${path}`, { headers: { accept: 'text/html', ...headers } });
  return { response, html: await response.text() };
}

function metaContent(html: string, attribute: 'name' | 'property', key: string): string | undefined {
  const match = new RegExp(`<meta ${attribute}="${key}" content="([^"]*)">`).exec(html);
  return match?.[1]?.replace(/&#(\d+);/g, (_all, code: string) => String.fromCharCode(Number(code)));
}

function scriptsOf(html: string): { attributes: string; body: string }[] {
  return [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)].map((match) => ({
    attributes: match[1] ?? '',
    body: match[2] ?? '',
  }));
}

interface ApiPlugin {
  info: { name: string; description: string; downloads: number; link: string };
  rating: { meanRating: number; votes: Record<string, number> };
}

describe('a server-rendered item page', () => {
  it('carries the item: name, excerpt, rating, downloads, in the body and in the head', async () => {
    const plugin = (await (await fetch(`${origin}/api/plugins/${PLUGINS.gitToolbox}`)).json()) as ApiPlugin;
    const { response, html } = await page('/plugin/1-git-toolbox');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    const excerpt = descriptionExcerpt(plugin.info.description);
    expect(excerpt).toBe('Extends the Git integration with status, blame and fetch.');

    // The body, as the browser will hydrate it: the name, the sanitised description, rating and downloads.
    expect(html).toContain('<h1>Git Toolbox</h1>');
    expect(html).toContain('<p>Extends the <b>Git</b> integration with status, blame and fetch.</p>');
    expect(html).toContain(plugin.rating.meanRating.toFixed(1));
    // React separates adjacent texts with empty comments; a reader sees the text without them.
    expect(html.replace(/<!-- -->/g, '')).toContain(`${formatNumber(plugin.info.downloads)} downloads`);

    // The head: title '%s | Marketplace', the §9 excerpt, the canonical address on the public URL.
    expect(html).toContain('<title>Git Toolbox | Marketplace</title>');
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(metaContent(html, 'name', 'description')).toBe(excerpt);
    expect(html.match(/<meta name="description"/g)).toHaveLength(1);
    expect(html).toContain(`<link rel="canonical" href="${PUBLIC_URL}/plugin/1-git-toolbox">`);
    expect(metaContent(html, 'property', 'og:title')).toBe('Git Toolbox');
    expect(metaContent(html, 'property', 'og:description')).toBe(excerpt);
    expect(metaContent(html, 'property', 'og:url')).toBe(`${PUBLIC_URL}/plugin/1-git-toolbox`);
    expect(metaContent(html, 'property', 'og:site_name')).toBe('Marketplace');
    expect(metaContent(html, 'name', 'twitter:card')).toBe('summary');
    expect(metaContent(html, 'name', 'twitter:title')).toBe('Git Toolbox');

    const [structured] = scriptsOf(html).filter(({ attributes }) =>
      attributes.includes('application/ld+json'),
    );
    const data = JSON.parse(structured!.body) as Record<string, unknown>;
    const ratingCount = Object.values(plugin.rating.votes).reduce((sum, count) => sum + count, 0);
    expect(ratingCount).toBeGreaterThan(0);
    expect(data).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'SoftwareApplication',
      name: 'Git Toolbox',
      description: excerpt,
      url: `${PUBLIC_URL}/plugin/1-git-toolbox`,
      author: { '@type': 'Organization', name: 'Acme Tools' },
      aggregateRating: {
        '@type': 'AggregateRating',
        ratingValue: Number(plugin.rating.meanRating.toFixed(1)),
        ratingCount,
      },
      interactionStatistic: {
        '@type': 'InteractionCounter',
        interactionType: 'https://schema.org/DownloadAction',
        userInteractionCount: plugin.info.downloads,
      },
    });
  });

  it('embeds its data once, as JSON, and runs no inline script (the CSP stays strict)', async () => {
    const { response, html } = await page('/plugin/1-git-toolbox');
    const csp = String(response.headers.get('content-security-policy'));
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    for (const { attributes, body } of scriptsOf(html)) {
      // Every script either is a file of the site, or data the browser does not run.
      if (body.trim()) expect(attributes).toMatch(/type="application\/(json|ld\+json)"/);
      else expect(attributes).toMatch(/ src="\/assets\//);
    }
    const embedded = scriptsOf(html).filter(({ attributes }) => attributes.includes('id="mp-page-data"'));
    expect(embedded).toHaveLength(1);
    const data = JSON.parse(embedded[0]!.body) as {
      loads: Record<string, { data?: { info?: { name: string } } }>;
    };
    const answers = Object.values(data.loads).map((outcome) => outcome.data?.info?.name);
    expect(answers).toContain('Git Toolbox');
    // Style attributes would be refused by the CSP: they travel as data attributes, with a stylesheet.
    expect(html).not.toMatch(/<[a-z][^<>]* style="/);
    const sheet = /<link rel="stylesheet" href="(\/assets\/page-styles\/[^"]+)">/.exec(html)?.[1];
    expect(sheet).toBeDefined();
    const css = await fetch(`${origin}${sheet}`);
    expect(css.headers.get('content-type')).toContain('text/css');
    expect(await css.text()).toMatch(/\[data-mp-style="width:\d+%"\]\{width:\d+% !important\}/);
    const uiStyles = /<link rel="stylesheet" id="mp-ui-styles" href="([^"]+)">/.exec(html)?.[1];
    expect((await fetch(`${origin}${uiStyles}`)).headers.get('content-type')).toContain('text/css');
  });

  it('renders a public tab: the reviews, with the canonical address of the tab', async () => {
    const { response, html } = await page('/plugin/1-git-toolbox/reviews');
    expect(response.status).toBe(200);
    expect(html).toContain('<title>Git Toolbox | Marketplace</title>');
    expect(html).toContain(`<link rel="canonical" href="${PUBLIC_URL}/plugin/1-git-toolbox/reviews">`);
    expect(html).toContain('Carol Reviewer');
  });

  it('answers an unknown item with 404 and the not-found page, not to be indexed', async () => {
    for (const path of ['/plugin/9999-nothing-here', `/plugin/${PLUGINS.hidden}-secret-git-helper`]) {
      const { response, html } = await page(path);
      expect(response.status, path).toBe(404);
      expect(html).toContain('<h1>Page not found</h1>');
      expect(html).toContain('<title>Page not found | Marketplace</title>');
      expect(metaContent(html, 'name', 'robots')).toBe('noindex');
      expect(html).not.toContain('rel="canonical"');
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });
});

describe('home, search and author pages', () => {
  it('list the real items in the HTML, and nothing a visitor may not see', async () => {
    const home = await page('/');
    expect(home.response.status).toBe(200);
    expect(home.html).toContain('<title>Plugins for your IDE | Marketplace</title>');
    for (const name of ['Git Toolbox', 'Kotlin Fest', 'Darcula Pro Theme']) expect(home.html).toContain(name);
    expect(home.html).not.toContain('Secret Git Helper');

    const search = await page('/search?search=git');
    expect(search.response.status).toBe(200);
    expect(search.html).toContain('<title>Search: git | Marketplace</title>');
    expect(search.html).toContain(`<link rel="canonical" href="${PUBLIC_URL}/search?search=git">`);
    expect(search.html).toContain('Git Toolbox');
    expect(search.html).not.toContain('Secret Git Helper');
    expect(search.html).not.toContain('Pending Git Tool');

    const author = await page('/author/1');
    expect(author.response.status).toBe(200);
    expect(author.html).toContain('<h1>Alice Owner</h1>');
    expect(author.html).toContain('<title>Alice Owner | Marketplace</title>');
  });

  it('keeps an API client at / on the API overview', async () => {
    const overview = await fetch(`${origin}/`, { headers: { accept: 'application/json' } });
    expect(await overview.text()).not.toContain('id="mp-page-data"');
  });
});

describe('caching of rendered pages', () => {
  it('is a public answer like the API: ETag, the same Cache-Control, 304, forgotten on a catalogue change', async () => {
    const api = await fetch(`${origin}/api/plugins/${PLUGINS.gitToolbox}`);
    const first = await page('/plugin/1-git-toolbox');
    expect(first.response.headers.get('cache-control')).toBe(api.headers.get('cache-control'));
    expect(first.response.headers.get('cache-control')).toBe('public, max-age=60');
    const etag = first.response.headers.get('etag');
    expect(etag).toMatch(/^"/);
    const again = await fetch(`${origin}/plugin/1-git-toolbox`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);

    await testDatabase.database.db.execute(sql`UPDATE plugins SET name = 'Git Toolbox Pro' WHERE id = 1`);
    try {
      // Kept: the same answer until the catalogue changes (a write, or another node's, forgets the kept ones).
      expect((await page('/plugin/1-git-toolbox')).html).toContain('<h1>Git Toolbox</h1>');
      app.forgetCachedAnswers();
      const changed = await page('/plugin/1-git-toolbox');
      expect(changed.html).toContain('<h1>Git Toolbox Pro</h1>');
      expect(changed.html).toContain('<title>Git Toolbox Pro | Marketplace</title>');
    } finally {
      await testDatabase.database.db.execute(sql`UPDATE plugins SET name = 'Git Toolbox' WHERE id = 1`);
      app.forgetCachedAnswers();
    }
  });

  it('keeps the rendered home page until the catalogue changes, apart for visitors who chose on consent', async () => {
    app.forgetCachedAnswers();
    const homeCache = () => app.caches.list().find((cache) => cache.name === 'home-page')!;
    const before = homeCache();
    const first = await page('/');
    const second = await page('/');
    // Rendered once, then kept: the same page and ETag, and the second visit was a hit.
    expect(second.html).toBe(first.html);
    expect(second.response.headers.get('etag')).toBe(first.response.headers.get('etag'));
    expect(homeCache()).toMatchObject({ misses: before.misses + 1, hits: before.hits + 1, entries: 1 });
    const chosen = await page('/', { cookie: 'mp_consent=granted' });
    expect(chosen.html).not.toContain('id="consent-heading"');
    expect(first.html).toContain('id="consent-heading"');
    expect(homeCache().entries).toBe(2);

    await testDatabase.database.db.execute(sql`UPDATE plugins SET name = 'Git Toolbox Pro' WHERE id = 1`);
    try {
      // As a write through the API does: the search index reads the change, the kept answers are forgotten.
      await app.catalogueSearch.catchUp();
      app.forgetCachedAnswers();
      const changed = await page('/');
      expect(changed.html).toContain('Git Toolbox Pro');
      expect(homeCache().misses).toBe(before.misses + 3);
    } finally {
      await testDatabase.database.db.execute(sql`UPDATE plugins SET name = 'Git Toolbox' WHERE id = 1`);
      await app.catalogueSearch.catchUp();
      app.forgetCachedAnswers();
    }
  });

  it('never keeps a personal request’s page for others, and renders it signed out all the same', async () => {
    for (const cookie of ['session=abc', 'mp_consent=denied; session=abc']) {
      const personal = await page('/plugin/1-git-toolbox', { cookie });
      expect(personal.response.status, cookie).toBe(200);
      expect(personal.response.headers.get('cache-control'), cookie).toBe('private, no-cache');
      expect(personal.html, cookie).toContain('<h1>Git Toolbox</h1>');
    }
  });

  it('shares one kept page among visitors who answered the consent banner, without the banner', async () => {
    app.forgetCachedAnswers();
    const answerCache = () => app.caches.list().find((cache) => cache.name === 'answer-cache')!;
    const granted = await page('/plugin/1-git-toolbox', { cookie: 'mp_consent=granted' });
    expect(granted.response.headers.get('cache-control')).toBe('public, max-age=60');
    expect(granted.response.headers.get('vary')?.toLowerCase()).toContain('cookie');
    expect(granted.html).toContain('<h1>Git Toolbox</h1>');
    expect(granted.html).not.toContain('Cookies and statistics');
    expect(granted.html).not.toContain('"askConsent":true');

    const before = answerCache();
    const denied = await page('/plugin/1-git-toolbox', { cookie: 'mp_consent=denied' });
    // The same kept page: replayed, nothing rendered or kept anew.
    expect(answerCache().hits).toBe(before.hits + 1);
    expect(answerCache().entries).toBe(before.entries);
    expect(denied.html).toBe(granted.html);
    expect(denied.response.headers.get('etag')).toBe(granted.response.headers.get('etag'));

    // A visitor who has not chosen gets the page with the banner, kept apart.
    const undecided = await page('/plugin/1-git-toolbox');
    expect(undecided.response.headers.get('cache-control')).toBe('public, max-age=60');
    expect(undecided.html).toContain('Cookies and statistics');
    expect(undecided.html).toContain('"askConsent":true');
    expect((await page('/plugin/1-git-toolbox')).html).toBe(undecided.html);
    expect((await page('/plugin/1-git-toolbox', { cookie: 'mp_consent=granted' })).html).toBe(granted.html);
  });

  it('sends a page whose item could not be loaded without content, and keeps it nowhere', async () => {
    // The item's query fails (a server fault, 500) until the table is back.
    await testDatabase.database.db.execute(sql`ALTER TABLE mirrored_plugins RENAME TO mirrored_plugins_away`);
    try {
      app.forgetCachedAnswers();
      expect((await fetch(`${origin}/api/plugins/${PLUGINS.gitToolbox}`)).status).toBe(500);
      const failed = await page('/plugin/1-git-toolbox');
      expect(failed.response.status).toBe(200);
      expect(failed.response.headers.get('cache-control')).toBe('no-cache');
      expect(failed.html).toContain('<div id="root"></div>');
      expect(failed.html).not.toContain('This item could not be loaded');
      expect(failed.html).not.toContain('id="mp-page-data"');
    } finally {
      await testDatabase.database.db.execute(
        sql`ALTER TABLE mirrored_plugins_away RENAME TO mirrored_plugins`,
      );
    }
    // Not kept: once the item loads again, the next visitor gets it without any cache being emptied.
    const recovered = await page('/plugin/1-git-toolbox');
    expect(recovered.response.status).toBe(200);
    expect(recovered.html).toContain('<h1>Git Toolbox</h1>');
  });

  it('draws the consent banner into the page for a visitor without a choice, and not for one who chose', async () => {
    const first = await page('/plugin/1-git-toolbox');
    expect(first.html).toContain('Cookies and statistics');
    expect(first.html).toContain('"askConsent":true');
    const chosen = await page('/plugin/1-git-toolbox', { cookie: 'mp_consent=granted' });
    expect(chosen.html).toContain('<h1>Git Toolbox</h1>');
    expect(chosen.html).not.toContain('Cookies and statistics');
  });
});
