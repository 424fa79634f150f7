import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  budgetFailures,
  buildSiteForSize,
  formatSiteSizeTable,
  gzipBytes,
  measureSite,
  PAGE_GOAL,
  PUBLIC_PAGES,
} from './site-size';

/** A build whose chunks have known gzip sizes (random bytes do not compress) and a manifest naming them. */
function fakeBuild(dir: string, chunkBytes: Record<string, number>): Record<string, number> {
  mkdirSync(join(dir, 'assets'), { recursive: true });
  mkdirSync(join(dir, '.vite'), { recursive: true });
  const sizes: Record<string, number> = {};
  for (const [name, length] of Object.entries(chunkBytes)) {
    const body = randomBytes(length);
    writeFileSync(join(dir, 'assets', `${name}.js`), body);
    sizes[`assets/${name}.js`] = gzipBytes(body);
  }
  const chunk = (name: string, imports: string[] = [], extra: object = {}) => ({
    file: `assets/${name}.js`,
    imports,
    ...extra,
  });
  const manifest: Record<string, object> = {
    'index.html': chunk('index', ['_react.js', '_api.js'], {
      isEntry: true,
      src: 'index.html',
      dynamicImports: PUBLIC_PAGES.map((page) => page.route),
    }),
    '_react.js': chunk('react'),
    '_api.js': chunk('api', ['_react.js']),
    '_card.js': chunk('card', ['_react.js']),
    '_tabs.js': chunk('tabs'),
    '_chart.js': chunk('chart', ['_react.js']),
    'src/pages/home/HomePage.tsx': chunk('home', ['index.html', '_card.js']),
    'src/pages/search/SearchPage.tsx': chunk('search', ['_card.js', '_api.js']),
    // The item page's other tabs load on demand: not part of its first load; the overview it draws first is.
    'src/pages/plugin/PluginPage.tsx': chunk('item', ['_api.js'], {
      dynamicImports: ['_tabs.js', 'src/pages/plugin/OverviewTab.tsx'],
    }),
    'src/pages/plugin/OverviewTab.tsx': chunk('overview', ['_chart.js', '_api.js']),
    'src/pages/user/UserPage.tsx': chunk('author', ['_card.js']),
  };
  writeFileSync(join(dir, '.vite/manifest.json'), JSON.stringify(manifest));
  return sizes;
}

describe('pnpm size:site on a known build', () => {
  let dist: string;
  let sizes: Record<string, number>;

  beforeAll(() => {
    dist = mkdtempSync(join(tmpdir(), 'site-size-'));
    sizes = fakeBuild(dist, {
      index: 3000,
      react: 5000,
      api: 2000,
      card: 700,
      tabs: 4000,
      chart: 500,
      overview: 800,
      home: 400,
      search: 600,
      item: 900,
      author: 300,
    });
  });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  it("adds up each page's entry, its static imports and its route's chunks, each file once", () => {
    const report = measureSite(dist, {});
    const byName = Object.fromEntries(report.pages.map((page) => [page.name, page]));
    const at = (name: string) => sizes[`assets/${name}.js`] ?? Number.NaN;
    expect(byName.home?.files).toEqual([
      'assets/index.js',
      'assets/react.js',
      'assets/api.js',
      'assets/home.js',
      'assets/card.js',
    ]);
    expect(byName.home?.bytes).toBe(at('index') + at('react') + at('api') + at('home') + at('card'));
    expect(byName.item?.files).toEqual([
      'assets/index.js',
      'assets/react.js',
      'assets/api.js',
      'assets/item.js',
      'assets/overview.js',
      'assets/chart.js',
    ]);
    expect(byName.item?.files).not.toContain('assets/tabs.js');
    expect(report.pages.map((page) => page.limit)).toEqual([PAGE_GOAL, PAGE_GOAL, PAGE_GOAL, PAGE_GOAL]);
    expect(budgetFailures(report)).toEqual([]);
    const table = formatSiteSizeTable(report);
    expect(table).toMatch(/^home \/$/m);
    expect(table).toMatch(/assets\/card\.js +\d+/);
    expect(table).toMatch(/total +\d+ .* limit 130\.0 KB ok, goal met/);
  });

  it('fails a page over its limit, naming it and whether the limit is a ratchet', () => {
    const report = measureSite(dist, { search: 1000 });
    expect(budgetFailures(report)).toEqual([
      expect.stringMatching(/^search \(\/search\): \d+ bytes of JavaScript gzip, over its ratchet of 1000/),
    ]);
    expect(formatSiteSizeTable(report)).toMatch(/ratchet 1\.0 KB OVER/);
  });

  it('says how to get a manifest when the build has none, and which page lost its route', () => {
    expect(() => measureSite(join(dist, 'nothing-here'))).toThrow(
      /build\.manifest in site\/vite\.config\.ts/,
    );
    const renamed = mkdtempSync(join(tmpdir(), 'site-size-'));
    try {
      cpSync(dist, renamed, { recursive: true });
      const manifestPath = join(renamed, '.vite/manifest.json');
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
      delete manifest['src/pages/user/UserPage.tsx'];
      writeFileSync(manifestPath, JSON.stringify(manifest));
      expect(() => measureSite(renamed)).toThrow(
        /no chunk for src\/pages\/user\/UserPage\.tsx \(the author page/,
      );
    } finally {
      rmSync(renamed, { recursive: true, force: true });
    }
  });
});

/**
 * The budget itself, on the site as it is now: a public page whose first load grows past 130 KB of gzip
 * JavaScript (or past its ratchet, while it does not meet the goal) fails `pnpm test`.
 */
describe('the public pages of the site', () => {
  let dist: string | undefined;
  afterAll(() => {
    if (dist) rmSync(dist, { recursive: true, force: true });
  });

  it('each load at most their limit of JavaScript first', () => {
    dist = buildSiteForSize();
    const report = measureSite(dist);
    console.log(formatSiteSizeTable(report));
    expect(report.pages.map((page) => page.name)).toEqual(['home', 'search', 'item', 'author']);
    expect(budgetFailures(report)).toEqual([]);
  }, 300_000);
});
