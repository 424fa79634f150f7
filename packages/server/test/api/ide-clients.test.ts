import { execFile } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as schema from '../../src/db/schema';
import { createApiTestContext, PLUGINS, VERSIONS, type ApiTestContext } from './catalogue-fixture';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const run = promisify(execFile);

/** The headers the IDE sends with marketplace requests (HttpRequests.productNameAsUserAgent, gzip on). */
const IDE_HEADERS = { 'user-agent': 'IntelliJ IDEA/252.23892.409', 'accept-encoding': 'gzip' };
const GIT = 'com.example.gittoolbox';

let context: ApiTestContext;
let origin: string;

beforeAll(async () => {
  context = await createApiTestContext();
  await context.app.listen({ host: '127.0.0.1', port: 0 });
  const address = context.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('The server has no TCP address.');
  origin = `http://127.0.0.1:${address.port}`;
}, 120_000);
afterAll(async () => context?.close());

/** A raw GET (no automatic decompression): status, headers and the bytes exactly as sent. */
function get(path: string, headers: Record<string, string> = IDE_HEADERS, method = 'GET') {
  return new Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    body: Buffer;
  }>((resolve, reject) => {
    httpRequest(origin + path, { headers, method }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/**
 * The file name the IDE gives a download (MarketplacePluginDownloadService.guessFileName): the text after the
 * first `filename=` up to the next `;`, one pair of quotes stripped, refused by PathUtil.isValidFileName when
 * it holds a path separator, a control character or one of `<>:"|?*;`.
 */
function ideFileName(contentDisposition: string): string | Error {
  const start = contentDisposition.indexOf('filename=');
  if (start < 0) return new Error('no filename=');
  const end = contentDisposition.indexOf(';', start);
  let name = contentDisposition.slice(start + 'filename='.length, end > 0 ? end : undefined);
  if (name.startsWith('"') && name.endsWith('"')) name = name.slice(1, -1);
  // eslint-disable-next-line no-control-regex
  if (name === '' || name === '.' || name === '..' || /[/\\<>:"|?*;\u0000-\u001f]/.test(name)) {
    return new Error(`Invalid filename returned by a server: ${name}`);
  }
  return name;
}

describe('downloads as the IDE names them', () => {
  it('gives a file name the IDE accepts even when the display name and version hold ; " and /', async () => {
    const archive = await context.fileStore.put(Buffer.from('PK\u0003\u0004 evil archive'));
    await context.db.insert(schema.plugins).values({
      id: 60,
      name: 'Evil; name="x.zip"/..',
      xmlId: 'com.example.evil',
      family: 'intellij',
      ownerId: 1,
      vendorId: 1,
      lifecycleState: 'published',
      approved: true,
    });
    await context.db.insert(schema.pluginVersions).values({
      id: 60,
      pluginId: 60,
      version: '2.0 beta;x"y',
      sinceBuild: '241',
      sinceComponents: [241, 0],
      fileHash: archive.hash,
      fileSize: archive.size,
      fileName: 'plugin-60.zip',
      approvalState: 'approved',
    });
    try {
      const response = await get('/plugin/download?updateId=60');
      expect(response.status).toBe(200);
      expect(ideFileName(String(response.headers['content-disposition']))).toBe(
        'com.example.evil-2.0_beta_x_y.zip',
      );
      // The REST client reads the type exactly: no charset may follow.
      expect(response.headers['content-type']).toBe('application/zip');
      const jar = await get(`/plugin/download?updateId=${VERSIONS.gitToolbox242Open}`);
      expect(ideFileName(String(jar.headers['content-disposition']))).toBe(`${GIT}-3.0.jar`);
      expect(jar.headers['content-type']).toBe('application/java-archive');
    } finally {
      await context.db.execute(sql`DELETE FROM plugins WHERE id = 60`);
    }
  });

  it('builds the name from the xml id and version, safe for the IDE, exact in filename*', async () => {
    const { contentDisposition } = await import('../../src/routes/ide/downloads');
    const header = contentDisposition('com.example.évil', '2.0 beta;x"y/z', 'plugin.zip');
    expect(ideFileName(header)).toBe('com.example._vil-2.0_beta_x_y_z.zip');
    expect(header).toContain(`filename*=UTF-8''com.example.%C3%A9vil-2.0%20beta_x_y_z.zip`);
  });

  it("answers the IDE's own download URL (idea.plugins.host mode: no action, with uuid and updatedFrom)", async () => {
    for (const path of ['/pluginManager', '/pluginManager/']) {
      const response = await get(
        `${path}?id=${GIT}&build=IU-241.14494.240&uuid=5c9a7e0e-0000-4000-8000-000000000001&updatedFrom=`,
        { 'user-agent': IDE_HEADERS['user-agent'] },
      );
      expect(response.status, path).toBe(200);
      expect(ideFileName(String(response.headers['content-disposition']))).toBe(`${GIT}-2.0.zip`);
    }
  });
});

describe('the repository feed as the IDE fetches it', () => {
  it('sends gzip with an exact length, the same document as plain, which curl also reads', async () => {
    const compressed = await get('/plugins/list/?uuid=abc&build=IU-241.14494.240');
    expect(compressed.status).toBe(200);
    expect(compressed.headers['content-encoding']).toBe('gzip');
    expect(Number(compressed.headers['content-length'])).toBe(compressed.body.length);
    const plain = await get('/plugins/list?build=IU-241.14494.240', { 'user-agent': 'curl/8' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Number(plain.headers['content-length'])).toBe(plain.body.length);
    expect(gunzipSync(compressed.body).toString()).toBe(plain.body.toString());
    expect(plain.body.toString()).toContain(`<id>${GIT}</id>`);
    const head = await get('/plugins/list/?uuid=abc&build=IU-241.14494.240', IDE_HEADERS, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(compressed.headers['content-length']);
    expect(head.headers.etag).toBe(compressed.headers.etag);
    expect(head.body.length).toBe(0);
    const { stdout } = await run('curl', [
      '--silent',
      '--compressed',
      `${origin}/plugins/list?build=IU-241.14494.240`,
    ]);
    expect(stdout).toBe(plain.body.toString());
  });

  it('answers the trailing-slash forms of every feed path like the plain ones', async () => {
    for (const [withSlash, without] of [
      ['/plugins/list/?build=IU-241.14494.240', '/plugins/list?build=IU-241.14494.240'],
      ['/plugins/eap/list/?build=IU-243.5', '/plugins/eap/list?build=IU-243.5'],
      ['/updatePlugins.xml/?build=IU-241.14494.240', '/updatePlugins.xml?build=IU-241.14494.240'],
    ] as const) {
      const slashed = await get(withSlash, { 'user-agent': 'IntelliJ IDEA/252.23892.409' });
      const plain = await get(without, { 'user-agent': 'IntelliJ IDEA/252.23892.409' });
      expect(slashed.status, withSlash).toBe(200);
      expect(slashed.body.toString()).toBe(plain.body.toString());
    }
  });

  it('revalidates with its ETag, and never answers 304 to the empty If-None-Match of a first fetch', async () => {
    const first = await get('/plugins/list/?build=IU-241.14494.240', { ...IDE_HEADERS, 'if-none-match': '' });
    expect(first.status).toBe(200);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+-gzip"$/);
    const again = await get('/plugins/list/?build=IU-241.14494.240', {
      ...IDE_HEADERS,
      'if-none-match': etag,
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('never offers a course (edu family) to an IntelliJ build, though it names IntelliJ IDEA', async () => {
    await context.db.insert(schema.plugins).values({
      id: 61,
      name: 'Learn Kotlin',
      xmlId: 'com.example.course.kotlin',
      family: 'edu',
      ownerId: 1,
      vendorId: 1,
      lifecycleState: 'published',
      approved: true,
    });
    await context.db.insert(schema.pluginCompatibleProducts).values([{ pluginId: 61, product: 'IDEA' }]);
    await context.db.insert(schema.pluginVersions).values({
      id: 61,
      pluginId: 61,
      version: '1',
      sinceBuild: '231',
      sinceComponents: [231, 0],
      fileHash: '',
      fileSize: 10,
      fileName: 'course-61.zip',
      approvalState: 'approved',
    });
    context.app.catalogueChanged();
    try {
      const listed = (await get('/plugins/list?build=IU-241.14494.240', {})).body.toString();
      expect(listed).toContain(`<id>${GIT}</id>`);
      expect(listed).not.toContain('com.example.course.kotlin');
      const simple = (await get('/updatePlugins.xml?build=IU-241.14494.240', {})).body.toString();
      expect(simple).not.toContain('com.example.course.kotlin');
      const updates = await context.app.inject({
        method: 'POST',
        url: '/api/search/updates/compatible',
        payload: { build: 'IU-241.14494.240', pluginXMLIds: ['com.example.course.kotlin', GIT] },
      });
      expect(updates.json().map((update: { pluginXmlId: string }) => update.pluginXmlId)).toEqual([GIT]);
      // Courses keep their own listing, for the edu flow.
      const courses = await context.app.inject('/api/searchPlugins?family=edu&max=10');
      expect(courses.json().plugins.map((plugin: { id: number }) => plugin.id)).toEqual([61]);
    } finally {
      await context.db.execute(sql`DELETE FROM plugins WHERE id = 61`);
      context.app.catalogueChanged();
    }
  });

  it('finds the plugin that provides a missing dependency, as the IDE asks with {module, build}', async () => {
    const response = await fetch(`${origin}/api/search/compatibleUpdates`, {
      method: 'POST',
      headers: { ...IDE_HEADERS, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ module: GIT, build: 'IU-241.14494.240' }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([
      { id: VERSIONS.gitToolbox241, pluginId: PLUGINS.gitToolbox, pluginXmlId: GIT, version: '2.0' },
    ]);
  });

  it('leaves out a plugin as soon as it is hidden through the API', async () => {
    await context.db.execute(sql`UPDATE plugins SET hidden = true WHERE id = ${PLUGINS.darculaTheme}`);
    context.app.catalogueChanged();
    try {
      const listed = (await get('/plugins/list?build=IU-241.14494.240', {})).body.toString();
      expect(listed).not.toContain('com.example.darcula');
    } finally {
      await context.db.execute(sql`UPDATE plugins SET hidden = false WHERE id = ${PLUGINS.darculaTheme}`);
      context.app.catalogueChanged();
    }
  });
});
