import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { escapeXml } from '../routes/ide/xml';
import { pluginPagePath } from '../search/plugin-summary';
import { epochMs, pluginVisibleTo, selectRows } from '../search/sql';

/** The sitemap protocol's limit of addresses in one file; past it /sitemap.xml becomes an index of parts. */
export const URLS_PER_SITEMAP = 50_000;

/** The site's own pages every visitor may open, listed before the items. */
const SITE_PAGES = ['/', '/search'] as const;

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';
const SITEMAP_NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';

export interface SitemapEntry {
  /** A path on the site, starting with `/`. */
  path: string;
  /** When the page's content last changed (ms since 1970), if known. */
  lastModified?: number;
}

/** W3C Datetime as the protocol asks, to the second in UTC. */
function w3cDatetime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function location(publicUrl: string, path: string): string {
  return escapeXml(`${publicUrl}${path}`);
}

/** How many items a signed-out visitor can see, and when the newest of them changed. */
export async function countPublicItems(
  db: Queryable,
): Promise<{ items: number; lastModified: number | undefined }> {
  const [row] = await selectRows<{ items: number; last_modified: number | null }>(
    db,
    sql`SELECT count(*)::int AS items, ${epochMs(sql`max(p.last_updated_at)`)} AS last_modified
      FROM plugins p WHERE ${pluginVisibleTo(undefined)}`,
  );
  return { items: row?.items ?? 0, lastModified: row?.last_modified ?? undefined };
}

/**
 * The addresses of part `part` (1-based) of the sitemap: the site's pages first, then every item a signed-out
 * visitor may see (the visitors' rule of src/search/sql.ts), oldest id first so parts stay stable as items
 * are added, each with its update date.
 */
export async function sitemapEntries(db: Queryable, part: number, perPart: number): Promise<SitemapEntry[]> {
  const { lastModified } = await countPublicItems(db);
  const sitePages: SitemapEntry[] =
    part === 1
      ? SITE_PAGES.map((path) => ({ path, ...(lastModified === undefined ? {} : { lastModified }) }))
      : [];
  // The site's pages take the first places of part 1; the items follow on.
  const offset = part === 1 ? 0 : (part - 1) * perPart - SITE_PAGES.length;
  const limit = perPart - sitePages.length;
  const rows = await selectRows<{ id: number; name: string; updated: number }>(
    db,
    sql`SELECT p.id, p.name, ${epochMs(sql`p.last_updated_at`)} AS updated
      FROM plugins p WHERE ${pluginVisibleTo(undefined)}
      ORDER BY p.id LIMIT ${limit} OFFSET ${offset}`,
  );
  return [
    ...sitePages,
    ...rows.map((row) => ({ path: pluginPagePath(row.id, row.name), lastModified: row.updated })),
  ];
}

/** A `<urlset>` of the entries, addresses made absolute with the public URL. */
export function renderUrlSet(publicUrl: string, entries: readonly SitemapEntry[]): string {
  const urls = entries.map(
    (entry) =>
      `<url><loc>${location(publicUrl, entry.path)}</loc>${
        entry.lastModified === undefined ? '' : `<lastmod>${w3cDatetime(entry.lastModified)}</lastmod>`
      }</url>`,
  );
  return `${XML_DECLARATION}\n<urlset xmlns="${SITEMAP_NAMESPACE}">\n${urls.join('\n')}\n</urlset>\n`;
}

/** A `<sitemapindex>` naming each part's address. */
export function renderSitemapIndex(
  publicUrl: string,
  partPaths: readonly string[],
  lastModified: number | undefined,
): string {
  const lastmod = lastModified === undefined ? '' : `<lastmod>${w3cDatetime(lastModified)}</lastmod>`;
  const parts = partPaths.map(
    (path) => `<sitemap><loc>${location(publicUrl, path)}</loc>${lastmod}</sitemap>`,
  );
  return `${XML_DECLARATION}\n<sitemapindex xmlns="${SITEMAP_NAMESPACE}">\n${parts.join('\n')}\n</sitemapindex>\n`;
}

/** How many files the sitemap needs for this many items (the site's pages count too). */
export function sitemapParts(items: number, perPart: number): number {
  return Math.max(1, Math.ceil((items + SITE_PAGES.length) / perPart));
}
