import type {
  CustomPageBody,
  CustomPageImageBody,
  CustomPageSummary,
  PublishedPageBody,
  PublishedPageListBody,
  RenderedPageBody,
} from '@marketplace/api-contract';
import { CUSTOM_PAGE_LIMITS } from '@marketplace/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DATABASE_KINDS } from '../db/test-database';
import { createReviewsTestApp, type ReviewsTestApp } from '../reviews/reviews-test-app';
import {
  addPeople,
  addPlugin,
  json,
  PNG,
  rowCount,
  uploadRequest,
  webhelpZip,
  type PagePeople,
} from './pages-fixture';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

/*
 * Custom pages through the real application on both databases: the item's people write, nest, order and
 * publish Markdown pages with images and webhelp zips; visitors read only what is published; bad input is
 * refused with a message and stores nothing.
 */

const MARKDOWN = [
  '# Guide',
  '',
  'Intro with <script>window.pwned = 1</script> and <img src="x" onerror="alert(1)">.',
  '',
  '## Install',
  '',
  '<iframe src="https://evil.example.com"></iframe>',
  '',
  '## Install',
  '',
  '[bad](javascript:alert(1))',
].join('\n');

describe.each(DATABASE_KINDS)('custom pages on %s', (kind) => {
  let t: ReviewsTestApp;
  let people: PagePeople;
  let pluginId: number;
  let otherPluginId: number;

  const base = () => `/api/plugins/${pluginId}/custom-pages`;
  const create = (body: Record<string, unknown>, as = people.owner) =>
    t.call(as, { method: 'POST', url: base(), payload: body });

  beforeAll(async () => {
    t = await createReviewsTestApp({ kind, catalogue: false });
    people = await addPeople(t);
    pluginId = await addPlugin(t, people.owner);
    otherPluginId = await addPlugin(t, people.owner);
  });
  afterAll(async () => t?.close());

  it('renders Markdown with the documentation tabs’ sanitiser, anchors every heading and makes the table of contents', async () => {
    const response = await create({ name: 'User Guide', originalContent: MARKDOWN, generateToc: true });
    expect(response.statusCode, response.body).toBe(201);
    const page = json<CustomPageBody>(response);
    expect(page).toMatchObject({ url: 'user-guide', type: 'custom-page', status: 'DRAFT', parentId: null });
    expect(page.originalContent).toBe(MARKDOWN);
    expect(page.content).not.toMatch(/<script|onerror|<iframe|javascript:|pwned/);
    expect(page.content).toContain('<h2 id="section-install">Install</h2>');
    expect(page.content).toContain('<h2 id="section-install-2">Install</h2>');
    expect(page.toc).toEqual([
      { level: 1, text: 'Guide', anchor: 'section-guide' },
      { level: 2, text: 'Install', anchor: 'section-install' },
      { level: 2, text: 'Install', anchor: 'section-install-2' },
    ]);

    // The live preview is the same renderer.
    const preview = await t.call(people.owner, {
      method: 'POST',
      url: `${base()}/preview`,
      payload: { markdown: MARKDOWN, generateToc: true },
    });
    expect(preview.statusCode).toBe(200);
    expect(json<RenderedPageBody>(preview)).toEqual({ content: page.content, toc: page.toc });
  });

  it('refuses a clashing or malformed URL, a looping or foreign parent, and keeps nothing', async () => {
    const first = json<CustomPageBody>(await create({ name: 'Alpha' }));
    const child = json<CustomPageBody>(await create({ name: 'Alpha child', parentId: first.id }));
    const before = await rowCount(t, 'custom_pages', pluginId);

    const clash = await create({ name: 'Another', url: 'alpha' });
    expect(clash.statusCode).toBe(400);
    expect(json<{ message: string }>(clash).message).toMatch(/already has the URL "alpha"/);
    const malformed = await create({ name: 'Bad', url: '../etc' });
    expect(malformed.statusCode).toBe(400);
    expect(json<{ message: string }>(malformed).message).toMatch(/lower-case letters/);

    const foreign = json<CustomPageBody>(
      await t.call(people.owner, {
        method: 'POST',
        url: `/api/plugins/${otherPluginId}/custom-pages`,
        payload: { name: 'Elsewhere' },
      }),
    );
    const foreignParent = await create({ name: 'Orphan', parentId: foreign.id });
    expect(foreignParent.statusCode).toBe(400);
    expect(json<{ message: string }>(foreignParent).message).toMatch(/not a page of this item/);

    const loop = await t.call(people.owner, {
      method: 'PUT',
      url: `${base()}/${first.id}`,
      payload: { parentId: child.id },
    });
    expect(loop.statusCode).toBe(400);
    expect(json<{ message: string }>(loop).message).toMatch(/own sub-pages/);
    const rename = await t.call(people.owner, {
      method: 'PUT',
      url: `${base()}/${child.id}`,
      payload: { url: 'alpha' },
    });
    expect(rename.statusCode).toBe(400);

    expect(await rowCount(t, 'custom_pages', pluginId)).toBe(before);
    const stored = json<CustomPageBody>(
      await t.call(people.owner, { method: 'GET', url: `${base()}/${first.id}` }),
    );
    expect(stored.parentId).toBeNull();
  });

  it('nests and orders pages, and moves the children of a deleted page up', async () => {
    const plugin = await addPlugin(t, people.owner);
    const url = `/api/plugins/${plugin}/custom-pages`;
    const make = async (name: string) =>
      json<CustomPageBody>(await t.call(people.owner, { method: 'POST', url, payload: { name } })).id;
    const [a, b, c] = [await make('A'), await make('B'), await make('C')];
    const arranged = await t.call(people.owner, {
      method: 'PUT',
      url: `${url}/order`,
      payload: {
        pages: [
          { id: c, parentId: null },
          { id: a, parentId: c },
          { id: b, parentId: a },
        ],
      },
    });
    expect(arranged.statusCode, arranged.body).toBe(200);
    expect(json<CustomPageSummary[]>(arranged).map((page) => [page.name, page.parentId])).toEqual([
      ['C', null],
      ['A', c],
      ['B', a],
    ]);
    const cycle = await t.call(people.owner, {
      method: 'PUT',
      url: `${url}/order`,
      payload: {
        pages: [
          { id: c, parentId: b },
          { id: a, parentId: c },
          { id: b, parentId: a },
        ],
      },
    });
    expect(cycle.statusCode).toBe(400);

    expect((await t.call(people.owner, { method: 'DELETE', url: `${url}/${a}` })).statusCode).toBe(204);
    const after = json<CustomPageSummary[]>(await t.call(people.owner, { method: 'GET', url }));
    expect(after.map((page) => [page.name, page.parentId])).toEqual([
      ['C', null],
      ['B', c],
    ]);
  });

  it('shows visitors published pages only, in the page tree, and hides drafts', async () => {
    const plugin = await addPlugin(t, people.owner);
    const url = `/api/plugins/${plugin}/custom-pages`;
    const parent = json<CustomPageBody>(
      await t.call(people.owner, {
        method: 'POST',
        url,
        payload: { name: 'Docs', originalContent: '# Docs' },
      }),
    );
    const child = json<CustomPageBody>(
      await t.call(people.owner, {
        method: 'POST',
        url,
        payload: { name: 'FAQ', originalContent: '## Q\n\nA', generateToc: true, parentId: parent.id },
      }),
    );
    expect((await t.call(undefined, { method: 'GET', url: `${url}/published/faq` })).statusCode).toBe(404);
    const published = await t.call(people.owner, { method: 'POST', url: `${url}/${child.id}/publish` });
    expect(published.statusCode).toBe(200);
    expect(json<CustomPageBody>(published).status).toBe('PUBLISH');

    // The parent is a draft: its published child shows at the top.
    const list = json<PublishedPageListBody>(
      await t.call(undefined, { method: 'GET', url: `${url}/published` }),
    );
    expect(list.map((page) => [page.url, page.parentId])).toEqual([['faq', null]]);
    await t.call(people.owner, { method: 'POST', url: `${url}/${parent.id}/publish` });
    const both = json<PublishedPageListBody>(
      await t.call(undefined, { method: 'GET', url: `${url}/published` }),
    );
    expect(both.map((page) => [page.url, page.parentId])).toEqual([
      ['docs', null],
      ['faq', parent.id],
    ]);

    const read = await t.call(undefined, { method: 'GET', url: `${url}/published/faq` });
    expect(read.statusCode).toBe(200);
    expect(json<PublishedPageBody>(read)).toMatchObject({
      name: 'FAQ',
      toc: [{ level: 2, text: 'Q', anchor: 'section-q' }],
    });
    expect(json<PublishedPageBody>(read).content).toContain('<h2 id="section-q">Q</h2>');

    await t.call(people.owner, { method: 'POST', url: `${url}/${child.id}/unpublish` });
    expect((await t.call(undefined, { method: 'GET', url: `${url}/published/faq` })).statusCode).toBe(404);
  });

  it('lets only the item’s people and administrators write pages', async () => {
    expect(
      (await t.call(undefined, { method: 'POST', url: base(), payload: { name: 'Guest' } })).statusCode,
    ).toBe(401);
    const stranger = await create({ name: 'Stranger' }, people.developer);
    expect(stranger.statusCode).toBe(403);
    expect((await create({ name: 'By the admin' }, people.admin)).statusCode).toBe(201);
    expect((await t.call(people.developer, { method: 'GET', url: base() })).statusCode).toBe(403);
  });

  it('takes images checked by their bytes, serves draft images to the item’s people only', async () => {
    const page = json<CustomPageBody>(await create({ name: 'With image' }));
    const imagesUrl = `${base()}/${page.id}/images`;
    const before = await rowCount(t, 'custom_page_images', pluginId);

    const notImage = await t.call(
      people.owner,
      uploadRequest(imagesUrl, {
        name: 'photo.png',
        content: Buffer.from('<script>alert(1)</script>'),
        type: 'image/png',
      }),
    );
    expect(notImage.statusCode).toBe(400);
    expect(json<{ message: string }>(notImage).message).toMatch(
      /"photo.png" is not a PNG, JPEG, GIF or WebP image/,
    );
    const svg = await t.call(
      people.owner,
      uploadRequest(imagesUrl, {
        name: 'x.svg',
        content: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      }),
    );
    expect(svg.statusCode).toBe(400);
    const huge = Buffer.concat([PNG, Buffer.alloc(CUSTOM_PAGE_LIMITS.maxImageBytes)]);
    const tooLarge = await t.call(
      people.owner,
      uploadRequest(imagesUrl, { name: 'huge.png', content: huge }),
    );
    expect(tooLarge.statusCode).toBe(413);
    expect(json<{ message: string }>(tooLarge).message).toMatch(/larger than 5 MB/);
    expect(await rowCount(t, 'custom_page_images', pluginId)).toBe(before);

    const uploaded = await t.call(people.owner, uploadRequest(imagesUrl, { name: 'shot.txt', content: PNG }));
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const image = json<CustomPageImageBody>(uploaded);
    expect(image).toMatchObject({ contentType: 'image/png', size: PNG.length, name: 'shot.txt' });

    expect((await t.call(undefined, { method: 'GET', url: image.url })).statusCode).toBe(404);
    expect((await t.call(people.developer, { method: 'GET', url: image.url })).statusCode).toBe(404);
    const own = await t.call(people.owner, { method: 'GET', url: image.url });
    expect(own.statusCode).toBe(200);
    expect(own.rawPayload.equals(PNG)).toBe(true);

    await t.call(people.owner, { method: 'POST', url: `${base()}/${page.id}/publish` });
    const visitor = await t.call(undefined, { method: 'GET', url: image.url });
    expect(visitor.statusCode).toBe(200);
    expect(visitor.headers['content-type']).toBe('image/png');
    expect(visitor.headers['x-content-type-options']).toBe('nosniff');
    const edited = json<CustomPageBody>(
      await t.call(people.owner, { method: 'GET', url: `${base()}/${page.id}` }),
    );
    expect(edited.images).toEqual([image.url]);
  });

  it('serves a published webhelp under its own prefix, sandboxed, with its content types', async () => {
    const page = json<CustomPageBody>(await create({ name: 'Reference', type: 'webhelp' }));
    const pageUrl = `${base()}/${page.id}`;
    const early = await t.call(people.owner, { method: 'POST', url: `${pageUrl}/publish` });
    expect(early.statusCode).toBe(400);
    expect(json<{ message: string }>(early).message).toMatch(/Upload the webhelp zip/);

    const noIndex = await t.call(
      people.owner,
      uploadRequest(
        `${pageUrl}/webhelp`,
        { name: 'docs.zip', content: webhelpZip([], { index: false }) },
        'PUT',
      ),
    );
    expect(noIndex.statusCode).toBe(400);
    expect(json<{ message: string }>(noIndex).message).toMatch(/has no index.html at its root/);
    expect(await rowCount(t, 'custom_page_files', pluginId)).toBe(0);

    const uploaded = await t.call(
      people.owner,
      uploadRequest(
        `${pageUrl}/webhelp`,
        { name: 'docs.zip', content: webhelpZip([], { folder: 'webHelpMP2-all' }) },
        'PUT',
      ),
    );
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect(json<CustomPageBody>(uploaded)).toMatchObject({
      webhelpFiles: 4,
      webhelpUrl: `/webhelp/${pluginId}/reference/`,
    });

    // Not published yet: not served.
    expect(
      (await t.call(undefined, { method: 'GET', url: `/webhelp/${pluginId}/reference/` })).statusCode,
    ).toBe(404);
    const published = await t.call(people.owner, { method: 'POST', url: `${pageUrl}/publish` });
    expect(json<CustomPageBody>(published).status).toBe('WEBHELP');

    const index = await t.call(undefined, {
      method: 'GET',
      url: `/webhelp/${pluginId}/reference/`,
      headers: { host: 'plugins.example.com' },
    });
    expect(index.statusCode).toBe(200);
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.headers['x-content-type-options']).toBe('nosniff');
    const policy = String(index.headers['content-security-policy']);
    expect(policy).toMatch(/(^|; )sandbox allow-scripts allow-popups$/);
    expect(policy).not.toContain('allow-same-origin');
    expect(policy).toContain(`connect-src http://plugins.example.com/webhelp/${pluginId}/reference/;`);
    expect(policy).toContain(
      `script-src http://plugins.example.com/webhelp/${pluginId}/reference/ 'unsafe-inline'`,
    );

    const script = await t.call(undefined, { method: 'GET', url: `/webhelp/${pluginId}/reference/app.js` });
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    const css = await t.call(undefined, {
      method: 'GET',
      url: `/webhelp/${pluginId}/reference/styles/site.css`,
    });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(
      (await t.call(undefined, { method: 'GET', url: `/webhelp/${pluginId}/reference/nope.html` }))
        .statusCode,
    ).toBe(404);
    const bare = await t.call(undefined, { method: 'GET', url: `/webhelp/${pluginId}/reference` });
    expect(bare.statusCode).toBe(301);
    expect(bare.headers.location).toBe(`/webhelp/${pluginId}/reference/`);

    const listed = json<PublishedPageListBody>(
      await t.call(undefined, { method: 'GET', url: `${base()}/published` }),
    );
    expect(listed.find((entry) => entry.url === 'reference')?.webhelpUrl).toBe(
      `/webhelp/${pluginId}/reference/`,
    );

    // A Markdown page takes no zip.
    const markdownPage = json<CustomPageBody>(await create({ name: 'Plain' }));
    const wrongType = await t.call(
      people.owner,
      uploadRequest(
        `${base()}/${markdownPage.id}/webhelp`,
        { name: 'docs.zip', content: webhelpZip() },
        'PUT',
      ),
    );
    expect(wrongType.statusCode).toBe(400);
  });
});
