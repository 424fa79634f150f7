/**
 * `pnpm size:site` (tsx tooling/site-size.ts [dist]): the JavaScript each public page of the site downloads on
 * its first load, gzip -9 of each file (a browser fetches each file on its own, so a page's size is the sum of
 * its files' sizes). A page loads the entry script of index.html, the chunks the entry imports statically (its
 * modulepreload links), the lazy chunk of its route and that chunk's static imports, and the lazily loaded
 * parts its first render draws (the item page's overview tab, which the server preloads) with their static
 * imports; what a page imports on demand later (another tab, the install button, a dialog) is not counted.
 * The chunks come from Vite's build manifest (`build.manifest` in site/vite.config.ts).
 * Without a dist folder it builds the site into a temporary folder first (as `pnpm build` does, never
 * touching site/dist, which the running server and the browser tests use), so the figures are of the sources.
 * Prints the table and exits 1 when a page is over its limit: the goal of 130 KB (set when the site moved to
 * React 19), or where a page does not meet the goal yet, a ratchet just above its size when it was last cut
 * (RATCHET_LIMITS).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

export const KB = 1024;

export const SITE_DIR = fileURLToPath(new URL('../site', import.meta.url));
export const MANIFEST = '.vite/manifest.json';

/** The most JavaScript a public page may load first (gzip -9): React 19 and React DOM are about 67 KB of it. */
export const PAGE_GOAL = 130 * KB;

/**
 * RATCHETS, for a public page that does not meet PAGE_GOAL: a limit just above its size when it was last cut,
 * lowered whenever it shrinks and removed once it meets the goal. Every public page meets it today (home 123.7,
 * search 128.2, item 129.9, author 123.3 KB on React 19, with the components' CSS and the item page's not-found
 * view loaded only where drawn and React Router's production build), so there are none: a page that grows
 * past 130 KB fails. site/README.md says what fills the bytes.
 */
export const RATCHET_LIMITS: Readonly<Record<string, number>> = {};

/**
 * The public pages (site/src/router.tsx): each one's route module, as the manifest names it, and the modules
 * it loads lazily that its first render draws (lazyPart in the site: the server preloads them).
 */
export const PUBLIC_PAGES: readonly { name: string; path: string; route: string; parts?: string[] }[] = [
  { name: 'home', path: '/', route: 'src/pages/home/HomePage.tsx' },
  { name: 'search', path: '/search', route: 'src/pages/search/SearchPage.tsx' },
  {
    name: 'item',
    path: '/plugin/:item',
    route: 'src/pages/plugin/PluginPage.tsx',
    parts: ['src/pages/plugin/OverviewTab.tsx'],
  },
  { name: 'author', path: '/author/:userId', route: 'src/pages/user/UserPage.tsx' },
];

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface PageSize {
  name: string;
  path: string;
  /** The JavaScript files the page loads first, relative to the dist folder, entry first. */
  files: string[];
  /** The sum of the files' gzip -9 sizes. */
  bytes: number;
  limit: number;
  /** True when the limit is a ratchet above the goal, not the goal itself. */
  ratchet: boolean;
}

export interface SiteSizeReport {
  pages: PageSize[];
  /** Each counted file's gzip -9 size. */
  files: Record<string, number>;
}

export function gzipBytes(body: Buffer): number {
  return gzipSync(body, { level: 9 }).length;
}

/** A manifest key's chunk and, depth first, every chunk it imports statically, each once. */
function staticClosure(manifest: Manifest, key: string, seen: Set<string>): string[] {
  if (seen.has(key)) return [];
  seen.add(key);
  const chunk = manifest[key];
  if (!chunk) throw new Error(`The site's build manifest names ${key} but has no entry for it.`);
  return [
    chunk.file,
    ...(chunk.imports ?? []).flatMap((imported) => staticClosure(manifest, imported, seen)),
  ];
}

/** Measures the build in `dist` (a `vite build` of the site with its manifest). */
export function measureSite(
  dist: string,
  ratchets: Readonly<Record<string, number>> = RATCHET_LIMITS,
): SiteSizeReport {
  const manifestPath = join(dist, MANIFEST);
  if (!existsSync(manifestPath))
    throw new Error(
      `${manifestPath} is missing: build the site with its manifest (build.manifest in site/vite.config.ts).`,
    );
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  const entryKey = manifest['index.html']?.isEntry
    ? 'index.html'
    : Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entryKey) throw new Error(`${manifestPath} names no entry chunk.`);
  const files: Record<string, number> = {};
  const sizeOf = (file: string) => (files[file] ??= gzipBytes(readFileSync(join(dist, file))));
  const pages = PUBLIC_PAGES.map(({ name, path, route, parts = [] }): PageSize => {
    for (const module of [route, ...parts])
      if (!manifest[module])
        throw new Error(
          `${manifestPath} has no chunk for ${module} (the ${name} page's ${module === route ? 'route' : 'part'}): update PUBLIC_PAGES in tooling/site-size.ts.`,
        );
    const seen = new Set<string>();
    const pageFiles = [entryKey, route, ...parts].flatMap((module) => staticClosure(manifest, module, seen));
    const ratchet = ratchets[name];
    return {
      name,
      path,
      files: pageFiles,
      bytes: pageFiles.reduce((sum, file) => sum + sizeOf(file), 0),
      limit: ratchet ?? PAGE_GOAL,
      ratchet: ratchet !== undefined,
    };
  });
  return { pages, files };
}

/** One sentence per page over its limit. */
export function budgetFailures(report: SiteSizeReport): string[] {
  return report.pages
    .filter((page) => !(page.bytes <= page.limit))
    .map(
      (page) =>
        `${page.name} (${page.path}): ${page.bytes} bytes of JavaScript gzip, over its ${page.ratchet ? 'ratchet' : 'limit'} of ${page.limit} (tooling/site-size.ts).`,
    );
}

/**
 * The browser's part of the site's build (`vite build` also renders a server part, which has no place in a
 * page's download), run by Vite's own API in a child process with NODE_ENV=production: test runners set
 * NODE_ENV=test, which would bundle React's development build.
 */
const CLIENT_BUILD = `
const [outDir] = process.argv.slice(1);
const { createBuilder } = await import('vite');
const builder = await createBuilder({
  root: process.cwd(),
  logLevel: 'warn',
  build: { outDir, emptyOutDir: true, manifest: true },
});
await builder.build(builder.environments.client);
`;

/** Builds the site's browser files as `pnpm build` does into a new temporary folder and returns it (the caller removes it). */
export function buildSiteForSize(): string {
  const outDir = mkdtempSync(join(tmpdir(), 'site-size-'));
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', CLIENT_BUILD, outDir], {
    cwd: SITE_DIR,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) {
    rmSync(outDir, { recursive: true, force: true });
    throw new Error(
      `The site build failed: ${result.error?.message ?? ''}\n${result.stdout}\n${result.stderr}`,
    );
  }
  return outDir;
}

const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

/** The table `pnpm size:site` prints: per page each file and the total. */
export function formatSiteSizeTable(report: SiteSizeReport): string {
  const lines: string[] = [];
  for (const page of report.pages) {
    const state = page.bytes <= page.limit ? 'ok' : 'OVER';
    const goal = page.bytes <= PAGE_GOAL ? 'goal met' : `goal ${kb(PAGE_GOAL)} not met`;
    lines.push(`${page.name} ${page.path}`);
    for (const file of page.files)
      lines.push(
        `  ${file.padEnd(44)} ${String(report.files[file]).padStart(7)}  ${kb(report.files[file] ?? 0)}`,
      );
    lines.push(
      `  ${'total'.padEnd(44)} ${String(page.bytes).padStart(7)}  ${kb(page.bytes)}  ` +
        `${page.ratchet ? 'ratchet' : 'limit'} ${kb(page.limit)} ${state}, ${goal}`,
      '',
    );
  }
  return lines.join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const given = process.argv[2];
  const dist = given ?? buildSiteForSize();
  try {
    const report = measureSite(dist);
    console.log(`First-load JavaScript of the public pages (gzip -9 bytes), ${given ?? 'fresh build'}:\n`);
    console.log(formatSiteSizeTable(report));
    const failures = budgetFailures(report);
    for (const failure of failures) console.error(failure);
    process.exitCode = failures.length > 0 ? 1 : 0;
  } finally {
    if (!given) rmSync(dist, { recursive: true, force: true });
  }
}
