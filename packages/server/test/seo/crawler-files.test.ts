import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import seo from '../../src/seo';
import {
  createApiTestContext,
  INVISIBLE_PLUGINS,
  PLUGINS,
  type ApiTestContext,
} from '../api/catalogue-fixture';

/**
 * robots.txt and sitemap.xml as a crawler fetches them, over real HTTP on loopback, from the API tests'
 * catalogue: listed items 1 Git Toolbox, 2 Kotlin Fest, 3 Darcula Pro Theme, 8 TeamCity Notifier and
 * 10 Python Linter beside hidden, blocked, pending, draft and deleted ones. The public URL has a path with
 * characters XML must escape, as an operator behind a proxy might give.
 */
const PUBLIC_URL = "https://plugins.example.com/tools&more's";
const ESCAPED_BASE = 'https://plugins.example.com/tools&amp;more&apos;s';

let context: ApiTestContext;
let origin: string;

beforeAll(async () => {
  context = await createApiTestContext({
    env: { PUBLIC_URL },
    // The same routes with three addresses per file, to see the index a catalogue past 50,000 items gets.
    extend(app) {
      void app.register(seo, { prefix: '/small', urlsPerSitemap: 3 });
    },
  });
  // An update date with a time of day, to see it kept to the second.
  await context.db.execute(
    sql`UPDATE plugins SET last_updated_at = '2026-03-04T05:06:07.890Z' WHERE id = ${PLUGINS.gitToolbox}`,
  );
  origin = await context.app.listen({ port: 0, host: '127.0.0.1' });
}, 120_000);
afterAll(async () => context?.close());

const locations = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]);

describe('GET /sitemap.xml', () => {
  it('lists home, search and every item a signed-out visitor may open, with its update date', async () => {
    const response = await fetch(`${origin}/sitemap.xml`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    const xml = await response.text();
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
    );
    expect(locations(xml)).toEqual([
      `${ESCAPED_BASE}/`,
      `${ESCAPED_BASE}/search`,
      `${ESCAPED_BASE}/plugin/1-git-toolbox`,
      `${ESCAPED_BASE}/plugin/2-kotlin-fest`,
      `${ESCAPED_BASE}/plugin/3-darcula-pro-theme`,
      `${ESCAPED_BASE}/plugin/8-teamcity-notifier`,
      `${ESCAPED_BASE}/plugin/10-python-linter`,
    ]);
    expect(xml).toContain(
      `<url><loc>${ESCAPED_BASE}/plugin/1-git-toolbox</loc><lastmod>2026-03-04T05:06:07Z</lastmod></url>`,
    );
    const dates = [...xml.matchAll(/<lastmod>([^<]*)<\/lastmod>/g)].map((match) => match[1]!);
    expect(dates).toHaveLength(7);
    // Home and search change whenever an item does: the newest update date.
    expect(dates.slice(0, 2)).toEqual(['2026-03-04T05:06:07Z', '2026-03-04T05:06:07Z']);
    expect([...dates].sort().at(-1)).toBe('2026-03-04T05:06:07Z');
    // Nothing the visitor may not see: hidden, blocked, pending approval, draft, deleted.
    for (const id of INVISIBLE_PLUGINS) expect(xml).not.toContain(`/plugin/${id}-`);
    // Every & and ' of the addresses is escaped, so an XML parser reads the addresses the server meant.
    expect(xml.replace(/&(amp|apos|quot|lt|gt);/g, '')).not.toMatch(/[&']/);
  });

  it('follows the catalogue: an item hidden later leaves it, a renamed one keeps only a clean address', async () => {
    await context.db.execute(sql`UPDATE plugins SET hidden = true WHERE id = ${PLUGINS.kotlinFest}`);
    await context.db.execute(
      sql`UPDATE plugins SET name = ${`Tom & Jerry's <Linter> "Pro"`} WHERE id = ${PLUGINS.pythonLinter}`,
    );
    try {
      context.app.forgetCachedAnswers();
      const xml = await (await fetch(`${origin}/sitemap.xml`)).text();
      expect(xml).not.toContain('/plugin/2-');
      expect(locations(xml)).toContain(`${ESCAPED_BASE}/plugin/10-tom-jerry-s-linter-pro`);
      expect(xml).not.toMatch(/Tom|<Linter>|"Pro"/);
    } finally {
      await context.db.execute(sql`UPDATE plugins SET hidden = false WHERE id = ${PLUGINS.kotlinFest}`);
      await context.db.execute(
        sql`UPDATE plugins SET name = 'Python Linter' WHERE id = ${PLUGINS.pythonLinter}`,
      );
      context.app.forgetCachedAnswers();
    }
  });

  it('is a public answer: ETag, Cache-Control like the API, 304 when the crawler has it', async () => {
    const first = await fetch(`${origin}/sitemap.xml`);
    expect(first.headers.get('cache-control')).toBe('public, max-age=60');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(`${origin}/sitemap.xml`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
  });

  it('becomes an index of parts when the addresses do not fit one file', async () => {
    const index = await (await fetch(`${origin}/small/sitemap.xml`)).text();
    expect(index).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(locations(index)).toEqual([
      `${ESCAPED_BASE}/small/sitemap-1.xml`,
      `${ESCAPED_BASE}/small/sitemap-2.xml`,
      `${ESCAPED_BASE}/small/sitemap-3.xml`,
    ]);
    const parts = await Promise.all(
      [1, 2, 3].map(async (part) => {
        const response = await fetch(`${origin}/small/sitemap-${part}.xml`);
        expect(response.status).toBe(200);
        return locations(await response.text());
      }),
    );
    expect(parts).toEqual([
      [`${ESCAPED_BASE}/`, `${ESCAPED_BASE}/search`, `${ESCAPED_BASE}/plugin/1-git-toolbox`],
      [
        `${ESCAPED_BASE}/plugin/2-kotlin-fest`,
        `${ESCAPED_BASE}/plugin/3-darcula-pro-theme`,
        `${ESCAPED_BASE}/plugin/8-teamcity-notifier`,
      ],
      [`${ESCAPED_BASE}/plugin/10-python-linter`],
    ]);
    const beyond = await fetch(`${origin}/small/sitemap-4.xml`);
    expect(beyond.status).toBe(404);
    expect(((await beyond.json()) as { message: string }).message).toBe(
      'The sitemap has parts 1 to 3: /sitemap-1.xml to /sitemap-3.xml.',
    );
    // With everything in one file there are no parts.
    expect((await fetch(`${origin}/sitemap-1.xml`)).status).toBe(404);
  });
});

describe('GET /robots.txt', () => {
  it('lets crawlers read the public pages and item images, not personal pages, the API or downloads', async () => {
    const response = await fetch(`${origin}/robots.txt`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=60');
    const lines = (await response.text()).split('\n');
    expect(lines[0]).toBe('User-agent: *');
    expect(lines).toEqual(
      expect.arrayContaining([
        'Disallow: /dashboard',
        'Disallow: /admin',
        'Disallow: /account',
        'Disallow: /api/',
        'Disallow: /plugin/download',
        'Allow: /api/plugins/*/icon',
        'Allow: /api/plugins/*/screenshots/',
        'Allow: /',
        `Sitemap: ${PUBLIC_URL}/sitemap.xml`,
      ]),
    );
    // No rule keeps crawlers from the public pages themselves.
    for (const line of lines.filter((entry) => entry.startsWith('Disallow: ')))
      for (const page of ['/search', '/plugin/1-git-toolbox', '/author/1'])
        expect(page.startsWith(line.slice('Disallow: '.length)), `${line} blocks ${page}`).toBe(false);
  });
});
