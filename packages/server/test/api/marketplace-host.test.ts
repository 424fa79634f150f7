import type { AddressInfo } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';
import { parseBuildNumber } from '@marketplace/core';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '../../src/auth/api-tokens';
import * as schema from '../../src/db/schema';
import {
  archiveBytes,
  createApiTestContext,
  PLUGINS,
  USERS,
  VERSIONS,
  type ApiTestContext,
} from './catalogue-fixture';

/*
 * The IDE started with -Didea.plugins.host=<our URL>, seen from the wire: real HTTP on loopback, the headers
 * its HttpRequests sends (product User-Agent, gzip, an empty If-None-Match on a first fetch of a file it
 * keeps), its exact query shapes, and assertions on what its Jackson DTOs would read.
 */

const GIT = 'com.example.gittoolbox';
const KOTLIN = 'org.kotlinfest';
const THEME = 'com.example.darcula';
const PYTHON = 'com.example.pylint';
const COURSE = 'com.example.course.python';

/** What the IDE sends on every marketplace call but the search (HttpRequests.productNameAsUserAgent, gzip). */
const IDE_HEADERS = { 'user-agent': 'IntelliJ IDEA/252.23892.409', 'accept-encoding': 'gzip' };
/** The search request does not set the product User-Agent: the JDK's default goes. */
const SEARCH_HEADERS = { 'user-agent': 'Java/21.0.8', 'accept-encoding': 'gzip' };
const BUILD = 'IU-252.23892.409';
const IDE_QUERY = `build=${BUILD}&max=18&all=false&os=Linux+6.1&arch=X86_64`;

/** Course ids: one of its own, one that shares the theme's xmlId and names IDEA (it must never be offered). */
const COURSES = { python: 50, sharingThemeXmlId: 51 } as const;
const COURSE_VERSIONS = { python: 50, sharingThemeXmlId: 51 } as const;

const SVG_ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40"/></svg>';
const PNG_ICON = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

let context: ApiTestContext;
let baseUrl: string;
let screenshotIds: number[];
const receivedHeaders: IncomingHttpHeaders[] = [];

async function addCoursesIconsScreenshotsAndAReview(): Promise<void> {
  const { db, fileStore } = context;
  const version = (id: number, pluginId: number) => ({
    id,
    pluginId,
    version: '9.0',
    sinceBuild: '200',
    untilBuild: null,
    sinceComponents: parseBuildNumber('200')!.components,
    untilComponents: null,
    fileHash: '',
    fileSize: 10,
    fileName: `course-${id}.zip`,
    approvalState: 'approved' as const,
    createdAt: new Date('2026-03-01T12:00:00Z'),
  });
  const course = {
    family: 'edu',
    ownerId: USERS.alice.id,
    vendorId: 1,
    lifecycleState: 'published' as const,
    approved: true,
    downloads: 100_000,
    publishedAt: new Date('2024-02-02T12:00:00Z'),
  };
  await db.insert(schema.plugins).values([
    { ...course, id: COURSES.python, name: 'Python Git Course', xmlId: COURSE },
    { ...course, id: COURSES.sharingThemeXmlId, name: 'Darcula Course', xmlId: THEME },
  ]);
  const courseVersions = [
    version(COURSE_VERSIONS.python, COURSES.python),
    version(COURSE_VERSIONS.sharingThemeXmlId, COURSES.sharingThemeXmlId),
  ];
  for (const row of courseVersions)
    row.fileHash = (await fileStore.put(Buffer.from(`course ${row.id}`))).hash;
  await db.insert(schema.pluginVersions).values(courseVersions);
  await db.insert(schema.pluginCompatibleProducts).values([
    { pluginId: COURSES.python, product: 'IDEA' },
    { pluginId: COURSES.python, product: 'PYCHARM_COMMUNITY' },
    { pluginId: COURSES.sharingThemeXmlId, product: 'IDEA' },
  ]);
  await db.insert(schema.pluginTags).values([
    { pluginId: COURSES.python, tagId: 1 },
    { pluginId: COURSES.sharingThemeXmlId, tagId: 164 },
  ]);

  const svg = await fileStore.put(Buffer.from(SVG_ICON));
  const png = await fileStore.put(PNG_ICON);
  await db.execute(
    sql`UPDATE plugins SET icon_hash = ${svg.hash} WHERE id IN (${PLUGINS.gitToolbox}, ${PLUGINS.hidden})`,
  );
  await db.execute(sql`UPDATE plugins SET icon_hash = ${png.hash} WHERE id = ${PLUGINS.darculaTheme}`);

  const shot = await fileStore.put(PNG_ICON);
  const shots = await db
    .insert(schema.pluginScreenshots)
    .values([
      { pluginId: PLUGINS.gitToolbox, position: 2, fileHash: shot.hash, contentType: 'image/png' },
      { pluginId: PLUGINS.gitToolbox, position: 1, fileHash: shot.hash, contentType: 'image/png' },
    ])
    .returning({ id: schema.pluginScreenshots.id });
  screenshotIds = shots.map((row) => row.id).reverse();

  // Stored review text is plain text (markup removed); what is left must still be escaped for the IDE.
  await db.insert(schema.reviews).values({
    id: 50,
    pluginId: PLUGINS.darculaTheme,
    authorId: USERS.carol.id,
    rating: 3,
    text: 'a < b & "c"\nsecond line',
    createdAt: new Date('2026-10-09T12:00:00Z'),
    updatedAt: new Date('2026-10-09T12:00:00Z'),
  });
  context.app.catalogueChanged();
}

beforeAll(async () => {
  context = await createApiTestContext();
  await addCoursesIconsScreenshotsAndAReview();
  await context.app.listen({ port: 0, host: '127.0.0.1' });
  context.app.server.on('request', (request) => receivedHeaders.push(request.headers));
  baseUrl = `http://127.0.0.1:${(context.app.server.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => context?.close());

/** A GET as the IDE sends it; `etag` is what it kept for this file ('' on a first fetch). */
function ideGet(path: string, options: { etag?: string; headers?: Record<string, string> } = {}) {
  return fetch(baseUrl + path, {
    headers: { ...IDE_HEADERS, 'if-none-match': options.etag ?? '', ...options.headers },
    redirect: 'manual',
  });
}

async function ideJson<T = unknown>(path: string, headers: Record<string, string> = IDE_HEADERS): Promise<T> {
  const response = await fetch(baseUrl + path, { headers });
  expect(response.status, `${path}: ${await response.clone().text()}`).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return (await response.json()) as T;
}

interface SearchHit {
  xmlId: string;
  id: string;
  name: string;
  rating: number;
  cdate: number;
  organization?: string;
  updateId: string;
  downloads: string;
  isPaid: boolean;
  paid: boolean;
}

function search(query: string): Promise<SearchHit[]> {
  return ideJson<SearchHit[]>(`/api/search/plugins?${query}`, SEARCH_HEADERS);
}

const xmlIdsOf = (hits: readonly SearchHit[]) => hits.map((hit) => hit.xmlId);

describe('the files the IDE keeps with their ETag', () => {
  it('lists the xmlIds of visible plugins with a version, never hidden ones or courses', async () => {
    const response = await ideGet('/files/pluginsXMLIds.json');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([THEME, GIT, PYTHON, KOTLIN]);
    // The empty If-None-Match of a first fetch really reached the server, and was not taken for a match.
    expect(receivedHeaders.at(-1)?.['if-none-match']).toBe('');
    expect(receivedHeaders.at(-1)?.['user-agent']).toBe('IntelliJ IDEA/252.23892.409');
  });

  it('answers 304 only to the ETag it gave, never to an empty or stale one', async () => {
    const first = await ideGet('/files/pluginsXMLIds.json');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    expect(first.headers.get('cache-control')).toMatch(/^public/);
    const again = await ideGet('/files/pluginsXMLIds.json', { etag: etag! });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const stale = await ideGet('/files/pluginsXMLIds.json', { etag: '"something-else"' });
    expect(stale.status).toBe(200);
    expect(await stale.json()).toEqual([THEME, GIT, PYTHON, KOTLIN]);
    for (const path of [
      '/files/jbPluginsXMLIds.json',
      '/files/brokenPlugins.json',
      `/files/${PLUGINS.gitToolbox}/meta.json`,
    ]) {
      expect((await ideGet(path)).status, path).toBe(200);
    }
  });

  it('lists no JetBrains plugins when no vendor is JetBrains', async () => {
    expect(await ideJson('/files/jbPluginsXMLIds.json')).toEqual([]);
  });
});

describe('the Marketplace tab: staff picks, new and updated, top downloads, top rated', () => {
  it('offers each compatible plugin with the version to install, the way the IDE reads it', async () => {
    const hits = await search(`orderBy=downloads&${IDE_QUERY}`);
    expect(hits).toEqual([
      {
        xmlId: GIT,
        id: String(PLUGINS.gitToolbox),
        name: 'Git Toolbox',
        rating: 4.5,
        cdate: Date.parse('2025-12-10T12:00:00Z'),
        organization: 'Acme Tools',
        vendor: 'Acme Tools',
        updateId: String(VERSIONS.gitToolbox242Open),
        downloads: '5000',
        isPaid: false,
        paid: false,
      },
      {
        xmlId: THEME,
        id: String(PLUGINS.darculaTheme),
        name: 'Darcula Pro Theme',
        rating: 3,
        cdate: Date.parse('2025-04-01T12:00:00Z'),
        organization: 'Acme Tools',
        vendor: 'Acme Tools',
        updateId: String(VERSIONS.darculaLargeUntil),
        downloads: '2500',
        isPaid: false,
        paid: false,
      },
    ]);
    // Nothing the IDE would choke on: no nulls, ids as strings.
    expect(JSON.stringify(hits)).not.toContain('null');
  });

  it('runs the four queries of the tab, in their orders', async () => {
    expect(xmlIdsOf(await search(`is_featured_search=true&${IDE_QUERY}`))).toEqual([THEME, GIT]);
    expect(xmlIdsOf(await search(`orderBy=update+date&${IDE_QUERY}`))).toEqual([GIT, THEME]);
    expect(xmlIdsOf(await search(`orderBy=rating&${IDE_QUERY}`))).toEqual([GIT, THEME]);
    expect(xmlIdsOf(await search(`orderBy=name&${IDE_QUERY}`))).toEqual([THEME, GIT]);
  });

  it('drops plugins without a version for the build and plugins of other products', async () => {
    // Kotlin Fest runs on 241 only; Python Linter names only PyCharm; the course names IDEA but is a course.
    const older = await search(`orderBy=downloads&build=IU-241&max=18&all=false&os=Linux+6.1&arch=X86_64`);
    expect(older.map((hit) => [hit.xmlId, hit.updateId])).toEqual([
      [GIT, String(VERSIONS.gitToolbox241)],
      [THEME, String(VERSIONS.darculaLargeUntil)],
      [KOTLIN, String(VERSIONS.kotlinFestExact241)],
    ]);
    const kotlin = older.find((hit) => hit.xmlId === KOTLIN)!;
    expect(kotlin).toMatchObject({ isPaid: true, paid: true, organization: 'Jet Fans', rating: 2 });
    const pycharm = await search(
      `orderBy=downloads&build=PC-241.1&max=18&all=false&os=Linux+6.1&arch=X86_64`,
    );
    expect(xmlIdsOf(pycharm)).toEqual([THEME, PYTHON]);
  });

  it('never shows hidden, blocked, unapproved, draft or deleted plugins, nor courses', async () => {
    const everything = await search(
      `orderBy=downloads&build=IU-241&max=10000&all=true&os=Linux+6.1&arch=X86_64`,
    );
    const ids = everything.map((hit) => Number(hit.id));
    for (const hidden of [4, 5, 6, 7, 9, COURSES.python, COURSES.sharingThemeXmlId])
      expect(ids).not.toContain(hidden);
  });

  it('keeps the staff picks in their featured order, or gives the best rated where a product has none', async () => {
    // IDEA's featured list starts with a hidden plugin: it is skipped, not sent.
    expect(xmlIdsOf(await search(`is_featured_search=true&${IDE_QUERY}`))).toEqual([THEME, GIT]);
    const pycharm = await search(
      `is_featured_search=true&build=PC-241.1&max=18&all=false&os=Linux+6.1&arch=X86_64`,
    );
    expect(xmlIdsOf(pycharm)).toEqual([THEME, PYTHON]);
  });

  it('answers at most max hits', async () => {
    expect(
      await search(`orderBy=downloads&build=IU-252.23892.409&max=1&all=false&os=Linux+6.1&arch=X86_64`),
    ).toHaveLength(1);
  });
});

describe('the search box', () => {
  const boxQuery = (query: string) =>
    search(`${query}&build=${BUILD}&max=10000&all=true&os=Linux+6.1&arch=X86_64`);

  it('searches text with max=10000, as the IDE asks', async () => {
    expect(xmlIdsOf(await boxQuery('orderBy=relevance&search=git'))).toEqual([GIT]);
    expect(xmlIdsOf(await boxQuery('search=dark%20theme'))).toEqual([THEME]);
    expect(await boxQuery('search=secret')).toEqual([]);
  });

  it('filters by tags and by vendor (organization), repeated as the IDE repeats them', async () => {
    expect(xmlIdsOf(await boxQuery('tags=Theme'))).toEqual([THEME]);
    expect(xmlIdsOf(await boxQuery('tags=VCS&tags=Code%20tools'))).toEqual([GIT]);
    expect(xmlIdsOf(await boxQuery('orderBy=name&organization=Acme%20Tools'))).toEqual([THEME, GIT]);
    expect(await boxQuery('organization=Jet%20Fans')).toEqual([]);
    expect(await boxQuery('organization=Acme')).toEqual([]);
    expect(xmlIdsOf(await boxQuery('is_featured_search=true&search=git'))).toEqual([GIT]);
  });

  it('refuses a build that is not a build number and a max beyond 10000', async () => {
    const response = await fetch(`${baseUrl}/api/search/plugins?build=banana&max=18`, {
      headers: SEARCH_HEADERS,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      type: 'error',
      message: '"banana" is not an IDE build number; expected something like IU-241.14494.240.',
    });
    const tooMany = await fetch(`${baseUrl}/api/search/plugins?build=${BUILD}&max=10001`);
    expect(tooMany.status).toBe(400);
  });

  it('counts plugins per tag and per vendor for the /tag: and /vendor: popups', async () => {
    expect(await ideJson(`/api/search/aggregation/tags?build=${BUILD}`)).toEqual({
      aggregations: { 'Code tools': 1, Theme: 1, VCS: 1 },
      total: 2,
    });
    expect(await ideJson(`/api/search/aggregation/organizations?build=IU-241`)).toEqual({
      aggregations: { 'Acme Tools': 2, 'Jet Fans': 1 },
      total: 3,
    });
    const products = await fetch(`${baseUrl}/api/search/aggregation/products`);
    expect(products.status).toBe(200);
    expect(((await products.json()) as { aggregations: Record<string, number> }).aggregations.IDEA).toBe(3);
    expect((await fetch(`${baseUrl}/api/search/aggregation/tags?build=x.y`)).status).toBe(400);
  });
});

describe('plugin details', () => {
  it('describes a version in its meta.json (IntellijUpdateMetadata)', async () => {
    const meta = await ideJson(`/files/${PLUGINS.gitToolbox}/${VERSIONS.gitToolbox241}/meta.json`);
    expect(meta).toEqual({
      id: String(PLUGINS.gitToolbox),
      xmlId: GIT,
      name: 'Git Toolbox',
      description: '<p>Extends the <b>Git</b> integration with status, blame and fetch.</p>',
      tags: ['Code tools', 'VCS'],
      vendor: 'Acme Tools',
      organization: 'Acme Tools',
      version: '2.0',
      notes: '<p>Changes in 2.0</p>',
      dependencies: ['com.intellij.modules.platform', 'Git4Idea'],
      optionalDependencies: [],
      since: '241',
      until: '241.*',
      url: 'https://plugins.example.com/plugin/1-git-toolbox',
      size: archiveBytes(VERSIONS.gitToolbox241).length,
    });
    const open = await ideJson<Record<string, unknown>>(
      `/files/${PLUGINS.gitToolbox}/${VERSIONS.gitToolbox242Open}/meta.json`,
    );
    expect(open).not.toHaveProperty('until');
    expect(open.since).toBe('242.100');
  });

  it.each([
    ['a pending version', PLUGINS.gitToolbox, VERSIONS.gitToolboxPending],
    ['a hidden version', PLUGINS.gitToolbox, VERSIONS.gitToolboxHidden],
    ['a version of another plugin', PLUGINS.kotlinFest, VERSIONS.gitToolbox241],
    ['a version of a hidden plugin', PLUGINS.hidden, VERSIONS.hiddenPlugin],
    ['a version of a course', COURSES.sharingThemeXmlId, COURSE_VERSIONS.sharingThemeXmlId],
  ])('answers 404 JSON for %s', async (_what, pluginId, updateId) => {
    const response = await ideGet(`/files/${pluginId}/${updateId}/meta.json`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      type: 'error',
      message: `Version ${updateId} of plugin ${pluginId} does not exist or is not available.`,
    });
  });

  it('refuses ids that are not numbers', async () => {
    const response = await ideGet(`/files/abc/${VERSIONS.gitToolbox241}/meta.json`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      type: 'error',
      message: '"abc" is not a plugin id; expected a number such as 42.',
    });
    expect((await ideGet(`/files/${PLUGINS.gitToolbox}/2x/meta.json`)).status).toBe(400);
    expect((await ideGet('/files/0/meta.json')).status).toBe(400);
  });

  it('describes the plugin in its meta.json, with absolute screenshot addresses that answer', async () => {
    const meta = await ideJson<{ screenshots: string[] }>(`/files/${PLUGINS.gitToolbox}/meta.json`);
    expect(meta).toEqual({
      screenshots: screenshotIds.map(
        (id) => `https://plugins.example.com/api/plugins/${PLUGINS.gitToolbox}/screenshots/${id}`,
      ),
      vendor: { name: 'Acme Tools', url: 'https://acme.example.com', isTrader: false, isVerified: false },
      sourceCodeUrl: 'https://github.com/acme/gittoolbox',
    });
    for (const screenshot of meta.screenshots) {
      const path = screenshot.replace('https://plugins.example.com', '');
      expect((await ideGet(path)).status).toBe(200);
    }
    expect(await ideJson(`/files/${PLUGINS.kotlinFest}/meta.json`)).toEqual({
      screenshots: [],
      vendor: { name: 'Jet Fans', isTrader: false, isVerified: false },
    });
    for (const id of [PLUGINS.hidden, PLUGINS.teamcityNotifier, COURSES.python, 999]) {
      expect((await ideGet(`/files/${id}/meta.json`)).status, String(id)).toBe(404);
    }
  });

  it('pages the reviews 20 at a time, cdate and ids as strings, text as safe HTML', async () => {
    const reviews = await ideJson(`/api/products/intellij/plugins/${encodeURIComponent(GIT)}/comments`);
    expect(reviews).toEqual([
      {
        id: '2',
        cdate: String(Date.parse('2026-10-05T12:00:00Z')),
        comment: 'Good, a bit slow.',
        rating: 4,
        author: { name: 'Bob Developer' },
        plugin: { link: 'https://plugins.example.com/plugin/1-git-toolbox' },
      },
      {
        id: '1',
        cdate: String(Date.parse('2026-10-01T12:00:00Z')),
        comment: 'Indispensable.',
        rating: 5,
        author: { name: 'Carol Reviewer' },
        plugin: { link: 'https://plugins.example.com/plugin/1-git-toolbox' },
      },
    ]);
    expect(await ideJson(`/api/products/intellij/plugins/${GIT}/comments?page=2`)).toEqual([]);
    const [escaped] = await ideJson<{ comment: string }[]>(
      `/api/products/intellij/plugins/${THEME}/comments`,
    );
    expect(escaped!.comment).toBe('a &#60; b &#38; &#34;c&#34;<br>second line');
    expect((await ideGet('/api/products/intellij/plugins/com.example.secret/comments')).status).toBe(404);
    expect((await ideGet(`/api/products/intellij/plugins/${COURSE}/comments`)).status).toBe(404);
  });

  it('serves SVG icons by xmlId, for both themes, and 404 for PNG icons, none or hidden plugins', async () => {
    for (const theme of ['', '&theme=DARCULA']) {
      const response = await ideGet(`/api/icon?pluginId=${encodeURIComponent(GIT)}${theme}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/svg+xml');
      expect(await response.text()).toBe(SVG_ICON);
      const etag = response.headers.get('etag')!;
      expect((await ideGet(`/api/icon?pluginId=${GIT}${theme}`, { etag })).status).toBe(304);
    }
    for (const xmlId of [THEME, KOTLIN, 'com.example.secret', 'no.such.plugin']) {
      expect((await ideGet(`/api/icon?pluginId=${xmlId}`)).status, xmlId).toBe(404);
    }
  });

  it("redirects the plugin's homepage link to its page", async () => {
    const response = await ideGet(`/plugin/index?xmlId=${encodeURIComponent(GIT)}`);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/plugin/1-git-toolbox');
    expect((await ideGet('/plugin/index?xmlId=com.example.secret')).status).toBe(404);
    expect((await ideGet('/plugin/index')).status).toBe(400);
  });
});

describe('updates and installs', () => {
  it('answers the GET update check with the version to install, ids as strings', async () => {
    const ids = [GIT, THEME, 'com.example.secret', KOTLIN, COURSE, 'not.a.plugin'];
    const query = `build=${BUILD}&os=Linux+6.1&mid=0f1e2d&arch=X86_64${ids.map((id) => `&pluginXmlId=${encodeURIComponent(id)}`).join('')}`;
    const updates = await ideJson(`/api/search/updates/compatible?${query}`, {
      ...IDE_HEADERS,
      accept: 'application/json; charset=utf-8',
    });
    // The course that shares the theme's xmlId (and names IDEA) is not what the IDE installs.
    expect(updates).toEqual([
      {
        id: String(VERSIONS.gitToolbox242Open),
        pluginId: String(PLUGINS.gitToolbox),
        pluginXmlId: GIT,
        version: '3.0',
      },
      {
        id: String(VERSIONS.darculaLargeUntil),
        pluginId: String(PLUGINS.darculaTheme),
        pluginXmlId: THEME,
        version: '1.0',
      },
    ]);
    expect(await ideJson(`/api/search/updates/compatible?build=${BUILD}&os=Linux+6.1`)).toEqual([]);
    expect((await ideGet('/api/search/updates/compatible?build=banana&pluginXmlId=x')).status).toBe(400);
  });

  it('every update it offers has a meta.json (install fails on a 404 there)', async () => {
    const updates = await ideJson<{ id: string; pluginId: string }[]>(
      `/api/search/updates/compatible?build=IU-241.2&pluginXmlId=${GIT}&pluginXmlId=${THEME}`,
    );
    for (const update of updates) {
      expect((await ideGet(`/files/${update.pluginId}/${update.id}/meta.json`)).status).toBe(200);
    }
  });

  it('answers POST /api/search/updates/nearest for the settings import; the GET form stays', async () => {
    const response = await fetch(`${baseUrl}/api/search/updates/nearest`, {
      method: 'POST',
      headers: { ...IDE_HEADERS, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ build: BUILD, pluginXMLIds: [KOTLIN, GIT, THEME, 'com.example.secret', 'x.y'] }),
    });
    expect(response.status).toBe(200);
    const nearest = (await response.json()) as {
      id: string;
      xmlId: string;
      products: string[];
      isCompatible: boolean;
    }[];
    expect(nearest.map(({ id, xmlId, isCompatible }) => ({ id, xmlId, isCompatible }))).toEqual([
      { id: String(VERSIONS.kotlinFestExact241), xmlId: KOTLIN, isCompatible: false },
      { id: String(VERSIONS.gitToolbox242Open), xmlId: GIT, isCompatible: true },
      { id: String(VERSIONS.darculaLargeUntil), xmlId: THEME, isCompatible: true },
    ]);
    expect(nearest[0]).toMatchObject({ products: ['IU'], updateCompatibility: {} });
    expect(nearest[1]!.products).toEqual(['IC', 'IU']);
    expect(nearest[2]!.products).toEqual(expect.arrayContaining(['IU', 'IC', 'PY', 'PC', 'GO']));
    const get = await fetch(`${baseUrl}/api/search/updates/nearest?build=IU-241.2&pluginXMLIds=${GIT}`);
    expect(Object.keys((await get.json()) as object)).toEqual([GIT]);
    const bad = await fetch(`${baseUrl}/api/search/updates/nearest`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ build: '', pluginXMLIds: [] }),
    });
    expect(bad.status).toBe(400);
  });

  it('answers the plugin advertiser and the extensions list with nothing (no extension points are indexed)', async () => {
    expect(
      await ideJson(
        `/feature/getImplementations?featureType=com.intellij.fileType&implementationName=*.kt&build=${BUILD}`,
      ),
    ).toEqual([]);
    expect(await ideJson(`/files/IDE/extensions.json?build=${BUILD}`)).toEqual({});
  });
});

describe('the API document', () => {
  it('describes the IDE routes', async () => {
    const document = await ideJson<{ paths: Record<string, Record<string, unknown>> }>('/api/openapi.json');
    for (const path of [
      '/files/pluginsXMLIds.json',
      '/files/brokenPlugins.json',
      '/api/search/plugins',
      '/api/search/aggregation/tags',
      '/files/{pluginId}/{updateId}/meta.json',
      '/files/{pluginId}/meta.json',
      '/api/products/intellij/plugins/{xmlId}/comments',
      '/api/icon',
    ]) {
      expect(document.paths[path]?.get, path).toBeDefined();
    }
    expect(document.paths['/api/search/updates/nearest']).toHaveProperty('post');
    expect(document.paths['/api/search/updates/nearest']).toHaveProperty('get');
    expect(document.paths['/api/search/updates/compatible']).toHaveProperty('post');
    expect(document.paths['/api/search/updates/compatible']).toHaveProperty('get');
  });
});

describe('an IDE with IDEA_PLUGINS_HOST_AUTH', () => {
  it('gets the same answers with a permanent API token, kept out of shared caches', async () => {
    const { token } = await createApiToken(context.db, {
      userId: USERS.carol.id,
      name: 'IDE',
      scopes: ['manage'],
    });
    const response = await fetch(`${baseUrl}/api/search/plugins?orderBy=downloads&${IDE_QUERY}`, {
      headers: { ...SEARCH_HEADERS, authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, no-cache');
    expect(xmlIdsOf((await response.json()) as SearchHit[])).toEqual([GIT, THEME]);
  });
});

describe('with the answer cache on (answers replayed before routing)', () => {
  let cached: ApiTestContext;
  let cachedUrl: string;
  beforeAll(async () => {
    cached = await createApiTestContext({ env: { RESPONSE_CACHE_MS: '60000' } });
    await cached.app.listen({ port: 0, host: '127.0.0.1' });
    cachedUrl = `http://127.0.0.1:${(cached.app.server.address() as AddressInfo).port}`;
  }, 120_000);
  afterAll(async () => cached?.close());

  it('still answers an empty If-None-Match with the whole file, and 304 only to its ETag', async () => {
    const get = (etag: string) =>
      fetch(`${cachedUrl}/files/pluginsXMLIds.json`, { headers: { ...IDE_HEADERS, 'if-none-match': etag } });
    const first = await get('');
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    await first.arrayBuffer();
    for (let attempt = 0; attempt < 2; attempt++) {
      const replayed = await get('');
      expect(replayed.status).toBe(200);
      expect(await replayed.json()).toEqual([THEME, GIT, PYTHON, KOTLIN]);
    }
    expect((await get(etag)).status).toBe(304);
  });
});

// Last: these tests change build ranges through the management API.
describe('brokenPlugins.json', () => {
  async function changeBound(
    token: string,
    versionId: number,
    bound: 'since' | 'until',
    value: string,
  ): Promise<void> {
    const response = await fetch(
      `${baseUrl}/api/updates/${versionId}/${bound}?value=${encodeURIComponent(value)}`,
      {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ reason: 'COMPATIBILITY_ERRORS' }),
      },
    );
    expect(response.status, await response.text()).toBe(200);
  }

  it('lists versions whose range an owner narrowed, with the range of the uploaded plugin.xml', async () => {
    expect(await ideJson('/files/brokenPlugins.json')).toEqual([]);
    const alice = (
      await createApiToken(context.db, { userId: USERS.alice.id, name: 'a', scopes: ['manage'] })
    ).token;
    const bob = (await createApiToken(context.db, { userId: USERS.bob.id, name: 'b', scopes: ['manage'] }))
      .token;
    // Narrowed twice: the original is the range before the first change.
    await changeBound(alice, VERSIONS.gitToolbox242Open, 'since', '243');
    await changeBound(alice, VERSIONS.gitToolbox242Open, 'since', '251');
    // An until added where plugin.xml had none.
    await changeBound(bob, VERSIONS.pythonLinter, 'until', '241.*');
    // Widened: no IDE loses the version, so it is not listed.
    await changeBound(alice, VERSIONS.darculaLargeUntil, 'since', '192');
    const broken = await ideJson<Record<string, string>[]>('/files/brokenPlugins.json');
    expect(broken).toEqual([
      {
        id: GIT,
        version: '3.0',
        since: '251',
        until: '999999.999999',
        originalSince: '242.100',
        originalUntil: '999999.999999',
      },
      {
        id: PYTHON,
        version: '1.0',
        since: '241',
        until: '241.*',
        originalSince: '241',
        originalUntil: '999999.999999',
      },
    ]);
    // What the IDE concludes (BrokenPluginsService): broken where the original range held and the new does not.
    const isBrokenOn = (build: string, record: Record<string, string>) => {
      const inRange = (since: string, until: string) =>
        compare(since, build) <= 0 && compare(build, until) <= 0;
      return inRange(record.originalSince!, record.originalUntil!) && !inRange(record.since!, record.until!);
    };
    expect(isBrokenOn('245.1', broken[0]!)).toBe(true);
    expect(isBrokenOn('251.2', broken[0]!)).toBe(false);
    expect(isBrokenOn('242.5', broken[1]!)).toBe(true);
    expect(isBrokenOn('241.5', broken[1]!)).toBe(false);
  });
});

describe('jbPluginsXMLIds.json', () => {
  it('lists the plugins whose vendor is JetBrains, under either of its names', async () => {
    await context.db.execute(sql`UPDATE vendors SET name = 'JetBrains s.r.o.' WHERE id = 2`);
    expect(await ideJson('/files/jbPluginsXMLIds.json')).toEqual([KOTLIN]);
    await context.db.execute(sql`UPDATE vendors SET name = 'JetBrains' WHERE id = 2`);
    expect(await ideJson('/files/jbPluginsXMLIds.json')).toEqual([KOTLIN]);
    await context.db.execute(sql`UPDATE vendors SET name = 'JetBrains Fans' WHERE id = 2`);
    expect(await ideJson('/files/jbPluginsXMLIds.json')).toEqual([]);
  });
});

/** Build order as the IDE's BuildNumber compares (components; the product code plays no part). */
function compare(a: string, b: string): number {
  const first = parseBuildNumber(a)!.components;
  const second = parseBuildNumber(b)!.components;
  for (let index = 0; index < Math.min(first.length, second.length); index++) {
    if (first[index] !== second[index]) return Math.sign(first[index]! - second[index]!);
  }
  return Math.sign(first.length - second.length);
}
