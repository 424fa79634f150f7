import type {
  CustomPageBody,
  CustomPageImageBody,
  CustomPageSummary,
  PublishedPageBody,
  PublishedPageListBody,
  WebhelpPreviewBody,
} from '@marketplace/api-contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { selectRows } from '../../src/search/sql';
import { storedEntry } from '../archive/zip-writer';
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
 * Drafts of published pages, previews of unpublished webhelp, and deleting one image, through the real
 * application on both databases.
 */

const message = (response: { json: () => unknown }) => (response.json() as { message: string }).message;

describe.each(DATABASE_KINDS)('custom page drafts on %s', (kind) => {
  let t: ReviewsTestApp;
  let people: PagePeople;
  let pluginId: number;
  /** A developer of the plugin (not its owner). */
  let developer: number;

  const base = () => `/api/plugins/${pluginId}/custom-pages`;
  const create = (body: Record<string, unknown>, as = people.owner) =>
    t.call(as, { method: 'POST', url: base(), payload: body });
  const read = async (url: string) => t.call(undefined, { method: 'GET', url: `${base()}/published/${url}` });

  beforeAll(async () => {
    t = await createReviewsTestApp({ kind, catalogue: false });
    people = await addPeople(t);
    pluginId = await addPlugin(t, people.owner);
    developer = await t.addUser(`page-developer-${kind}`);
    await t.db.execute(
      sql`INSERT INTO plugin_developers (plugin_id, user_id) VALUES (${pluginId}, ${developer})`,
    );
  });
  afterAll(async () => t?.close());

  it('keeps visitors on the published version while the vendor edits a draft, then publishes it', async () => {
    const created = json<CustomPageBody>(
      await create({ name: 'Guide', originalContent: '# Version one', generateToc: true }),
    );
    const pageUrl = `${base()}/${created.id}`;
    // Before the first publication, changes apply to the page itself.
    const early = json<CustomPageBody>(
      await t.call(people.owner, {
        method: 'PUT',
        url: pageUrl,
        payload: { originalContent: '# Version one\n\nFirst text.' },
      }),
    );
    expect(early).toMatchObject({ draft: null, hasDraft: false, status: 'DRAFT' });
    expect(early.originalContent).toContain('First text.');
    await t.call(people.owner, { method: 'POST', url: `${pageUrl}/publish` });

    const saved = await t.call(developer, {
      method: 'PUT',
      url: pageUrl,
      payload: { name: 'Guide v2', url: 'guide-v2', originalContent: '# Version two\n\n## Setup' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const page = json<CustomPageBody>(saved);
    // The spec's fields stay what visitors see; the draft carries the changes.
    expect(page).toMatchObject({ name: 'Guide', url: 'guide', status: 'PUBLISH', hasDraft: true });
    expect(page.originalContent).toBe('# Version one\n\nFirst text.');
    expect(page.draft).toMatchObject({
      name: 'Guide v2',
      url: 'guide-v2',
      originalContent: '# Version two\n\n## Setup',
      generateToc: true,
      webhelpFiles: 0,
      toc: [
        { level: 1, text: 'Version two', anchor: 'section-version-two' },
        { level: 2, text: 'Setup', anchor: 'section-setup' },
      ],
    });
    expect(page.draft?.content).toContain('<h2 id="section-setup">Setup</h2>');

    // Visitors still read version one, at its old address; the draft's address is not served.
    const visitor = await read('guide');
    expect(visitor.statusCode).toBe(200);
    expect(json<PublishedPageBody>(visitor)).toMatchObject({ name: 'Guide' });
    expect(json<PublishedPageBody>(visitor).content).toContain('Version one');
    expect((await read('guide-v2')).statusCode).toBe(404);
    const list = json<CustomPageSummary[]>(await t.call(people.owner, { method: 'GET', url: base() }));
    expect(list.find((entry) => entry.id === created.id)).toMatchObject({ hasDraft: true, name: 'Guide' });

    // A further save edits the draft, not the published page.
    const again = json<CustomPageBody>(
      await t.call(people.owner, { method: 'PUT', url: pageUrl, payload: { generateToc: false } }),
    );
    expect(again.draft).toMatchObject({ name: 'Guide v2', generateToc: false, toc: [] });
    expect(again.generateToc).toBe(true);

    // The draft's URL is taken: another page cannot have it.
    const clash = await create({ name: 'Other', url: 'guide-v2' });
    expect(clash.statusCode).toBe(400);
    expect(message(clash)).toMatch(/already has the URL "guide-v2" in its unpublished changes/);

    const published = await t.call(people.owner, { method: 'POST', url: `${pageUrl}/publish` });
    expect(published.statusCode).toBe(200);
    expect(json<CustomPageBody>(published)).toMatchObject({
      name: 'Guide v2',
      url: 'guide-v2',
      originalContent: '# Version two\n\n## Setup',
      generateToc: false,
      draft: null,
      hasDraft: false,
      status: 'PUBLISH',
    });
    expect((await read('guide')).statusCode).toBe(404);
    const now = json<PublishedPageBody>(await read('guide-v2'));
    expect(now).toMatchObject({ name: 'Guide v2', toc: [] });
    expect(now.content).toContain('Version two');
  });

  it('discards a draft, drops one that returns to the published text, and folds one in on unpublishing', async () => {
    const created = json<CustomPageBody>(await create({ name: 'Notes', originalContent: 'Old' }));
    const pageUrl = `${base()}/${created.id}`;
    await t.call(people.owner, { method: 'POST', url: `${pageUrl}/publish` });
    const put = (payload: Record<string, unknown>) =>
      t.call(people.owner, { method: 'PUT', url: pageUrl, payload });

    expect(json<CustomPageBody>(await put({ originalContent: 'New' })).hasDraft).toBe(true);
    const discarded = await t.call(people.owner, { method: 'DELETE', url: `${pageUrl}/draft` });
    expect(discarded.statusCode).toBe(200);
    expect(json<CustomPageBody>(discarded)).toMatchObject({ draft: null, originalContent: 'Old' });
    expect(json<PublishedPageBody>(await read('notes')).content).toContain('Old');
    // Nothing to discard is not an error.
    expect((await t.call(people.owner, { method: 'DELETE', url: `${pageUrl}/draft` })).statusCode).toBe(200);

    expect(json<CustomPageBody>(await put({ originalContent: 'New' })).hasDraft).toBe(true);
    expect(json<CustomPageBody>(await put({ originalContent: 'Old' })).draft).toBeNull();

    // Bad input changes nothing: neither the page nor its draft.
    await put({ originalContent: 'Draft text' });
    const bad = await put({ name: '   ' });
    expect(bad.statusCode).toBe(400);
    expect(message(bad)).toBe('Give the page a name.');
    const badUrl = await put({ url: 'Not A Url' });
    expect(badUrl.statusCode).toBe(400);
    const kept = json<CustomPageBody>(await t.call(people.owner, { method: 'GET', url: pageUrl }));
    expect(kept).toMatchObject({ name: 'Notes', url: 'notes', originalContent: 'Old' });
    expect(kept.draft).toMatchObject({ name: 'Notes', url: 'notes', originalContent: 'Draft text' });

    // Parent and order are the tree: they change at once, draft or not.
    const parent = json<CustomPageBody>(await create({ name: 'Notes parent' }));
    const moved = json<CustomPageBody>(await put({ parentId: parent.id }));
    expect(moved.parentId).toBe(parent.id);

    const unpublished = json<CustomPageBody>(
      await t.call(people.owner, { method: 'POST', url: `${pageUrl}/unpublish` }),
    );
    expect(unpublished).toMatchObject({ status: 'DRAFT', draft: null, originalContent: 'Draft text' });
    expect((await read('notes')).statusCode).toBe(404);
  });

  it('lets only the item’s people save, publish and discard drafts', async () => {
    const created = json<CustomPageBody>(await create({ name: 'Private', originalContent: 'Text' }));
    const pageUrl = `${base()}/${created.id}`;
    await t.call(people.owner, { method: 'POST', url: `${pageUrl}/publish` });
    await t.call(people.owner, { method: 'PUT', url: pageUrl, payload: { originalContent: 'Secret' } });
    const stranger = people.developer;
    expect(
      (await t.call(stranger, { method: 'PUT', url: pageUrl, payload: { originalContent: 'x' } })).statusCode,
    ).toBe(403);
    expect((await t.call(stranger, { method: 'DELETE', url: `${pageUrl}/draft` })).statusCode).toBe(403);
    expect((await t.call(undefined, { method: 'DELETE', url: `${pageUrl}/draft` })).statusCode).toBe(401);
    expect((await t.call(stranger, { method: 'GET', url: pageUrl })).statusCode).toBe(403);
    const published = json<PublishedPageListBody>(
      await t.call(undefined, { method: 'GET', url: `${base()}/published` }),
    );
    expect(JSON.stringify(published)).not.toContain('Secret');
    expect(JSON.stringify(json<PublishedPageBody>(await read('private')))).not.toContain('Secret');
    expect((await t.call(people.admin, { method: 'DELETE', url: `${pageUrl}/draft` })).json()).toMatchObject({
      draft: null,
    });
  });

  it('lets the item’s people preview an unpublished webhelp, sandboxed, and nobody else', async () => {
    const page = json<CustomPageBody>(await create({ name: 'Handbook', type: 'webhelp' }));
    const pageUrl = `${base()}/${page.id}`;
    const none = await t.call(people.owner, { method: 'POST', url: `${pageUrl}/webhelp/preview` });
    expect(none.statusCode).toBe(400);
    expect(message(none)).toMatch(/Upload the webhelp zip of "Handbook" before previewing it/);
    await t.call(
      people.owner,
      uploadRequest(`${pageUrl}/webhelp`, { name: 'handbook.zip', content: webhelpZip() }, 'PUT'),
    );
    expect(
      (await t.call(undefined, { method: 'GET', url: `/webhelp/${pluginId}/handbook/` })).statusCode,
    ).toBe(404);

    expect((await t.call(undefined, { method: 'POST', url: `${pageUrl}/webhelp/preview` })).statusCode).toBe(
      401,
    );
    expect(
      (await t.call(people.developer, { method: 'POST', url: `${pageUrl}/webhelp/preview` })).statusCode,
    ).toBe(403);
    const minted = await t.call(developer, { method: 'POST', url: `${pageUrl}/webhelp/preview` });
    expect(minted.statusCode, minted.body).toBe(200);
    const preview = json<WebhelpPreviewBody>(minted);
    expect(preview.url).toMatch(/^\/webhelp\/preview\/[A-Za-z0-9_-]{43}\/$/);
    expect(preview.expiresAt).toBeGreaterThan(Date.now() + 50 * 60_000);

    const index = await t.call(undefined, {
      method: 'GET',
      url: preview.url,
      headers: { host: 'plugins.example.com' },
    });
    expect(index.statusCode).toBe(200);
    expect(index.body).toContain('<h1>Docs</h1>');
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.headers['x-content-type-options']).toBe('nosniff');
    expect(index.headers['cache-control']).toBe('private, no-store');
    expect(index.headers['referrer-policy']).toBe('no-referrer');
    const policy = String(index.headers['content-security-policy']);
    expect(policy).toMatch(/(^|; )sandbox allow-scripts allow-popups$/);
    expect(policy).toContain(`default-src http://plugins.example.com${preview.url};`);
    expect(policy).toContain(`connect-src http://plugins.example.com${preview.url};`);
    const script = await t.call(undefined, { method: 'GET', url: `${preview.url}app.js` });
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    const bare = await t.call(undefined, { method: 'GET', url: preview.url.slice(0, -1) });
    expect(bare.statusCode).toBe(301);

    // Anyone else: a made-up token, an expired one, or one whose user no longer manages the item.
    const forged = await t.call(undefined, {
      method: 'GET',
      url: `/webhelp/preview/${'A'.repeat(43)}/`,
    });
    expect(forged.statusCode).toBe(404);
    expect(message(forged)).toMatch(/unknown or has expired/);
    await t.db.execute(
      sql`DELETE FROM plugin_developers WHERE plugin_id = ${pluginId} AND user_id = ${developer}`,
    );
    try {
      expect((await t.call(undefined, { method: 'GET', url: preview.url })).statusCode).toBe(404);
    } finally {
      await t.db.execute(
        sql`INSERT INTO plugin_developers (plugin_id, user_id) VALUES (${pluginId}, ${developer})`,
      );
    }
    expect((await t.call(undefined, { method: 'GET', url: preview.url })).statusCode).toBe(200);
    await t.db.execute(sql`UPDATE custom_page_previews SET expires_at = now() - interval '1 second'`);
    expect((await t.call(undefined, { method: 'GET', url: preview.url })).statusCode).toBe(404);

    // Published, then a new zip: visitors keep the old files, the preview shows the new ones.
    await t.call(people.owner, { method: 'POST', url: `${pageUrl}/publish` });
    const replaced = await t.call(
      people.owner,
      uploadRequest(
        `${pageUrl}/webhelp`,
        {
          name: 'handbook.zip',
          content: webhelpZip([storedEntry('topics/new.html', '<!doctype html><h1>New topic</h1>')]),
        },
        'PUT',
      ),
    );
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(json<CustomPageBody>(replaced)).toMatchObject({
      status: 'WEBHELP',
      webhelpFiles: 4,
      hasDraft: true,
      draft: { webhelpFiles: 5, name: 'Handbook', url: 'handbook' },
    });
    expect(
      (await t.call(undefined, { method: 'GET', url: `/webhelp/${pluginId}/handbook/topics/new.html` }))
        .statusCode,
    ).toBe(404);
    const second = json<WebhelpPreviewBody>(
      await t.call(people.admin, { method: 'POST', url: `${pageUrl}/webhelp/preview` }),
    );
    const newTopic = await t.call(undefined, { method: 'GET', url: `${second.url}topics/new.html` });
    expect(newTopic.statusCode).toBe(200);
    expect(newTopic.body).toContain('New topic');

    const applied = json<CustomPageBody>(
      await t.call(people.owner, { method: 'POST', url: `${pageUrl}/publish` }),
    );
    expect(applied).toMatchObject({ webhelpFiles: 5, draft: null });
    expect(
      (await t.call(undefined, { method: 'GET', url: `/webhelp/${pluginId}/handbook/topics/new.html` }))
        .statusCode,
    ).toBe(200);

    // A Markdown page has nothing to preview.
    const plain = json<CustomPageBody>(await create({ name: 'Plain page' }));
    expect(
      (await t.call(people.owner, { method: 'POST', url: `${base()}/${plain.id}/webhelp/preview` }))
        .statusCode,
    ).toBe(400);
  });

  it('deletes one image and its stored file, refuses one the published version shows, 404 for an unknown one', async () => {
    const page = json<CustomPageBody>(await create({ name: 'Gallery' }));
    const imagesUrl = `${base()}/${page.id}/images`;
    const upload = async (name: string, content: Buffer) =>
      json<CustomPageImageBody>(await t.call(people.owner, uploadRequest(imagesUrl, { name, content })));
    // Two images with other bytes, one shared by another page (the same bytes uploaded twice).
    const unique = Buffer.concat([PNG, Buffer.from(`gallery-${kind}`)]);
    const first = await upload('first.png', unique);
    const second = await upload('second.png', Buffer.concat([PNG, Buffer.from(`second-${kind}`)]));
    const other = json<CustomPageBody>(await create({ name: 'Gallery twin' }));
    await t.call(
      people.owner,
      uploadRequest(`${base()}/${other.id}/images`, { name: 'same.png', content: unique }),
    );
    const hashOf = async (imageId: number) => {
      const [row] = await selectRows<{ file_hash: string }>(
        t.db,
        sql`SELECT file_hash FROM custom_page_images WHERE id = ${imageId}`,
      );
      return row!.file_hash;
    };
    const secondHash = await hashOf(second.id);
    const firstHash = await hashOf(first.id);

    const listed = json<CustomPageImageBody[]>(await t.call(people.owner, { method: 'GET', url: imagesUrl }));
    expect(listed.map((image) => image.name)).toEqual(['first.png', 'second.png']);

    const before = await rowCount(t, 'custom_page_images', pluginId);
    const unknown = await t.call(people.owner, { method: 'DELETE', url: `${imagesUrl}/999999` });
    expect(unknown.statusCode).toBe(404);
    expect(message(unknown)).toMatch(/has no image 999999/);
    // An image of another page is unknown here too.
    const otherImages = json<CustomPageImageBody[]>(
      await t.call(people.owner, { method: 'GET', url: `${base()}/${other.id}/images` }),
    );
    expect(
      (await t.call(people.owner, { method: 'DELETE', url: `${imagesUrl}/${otherImages[0]!.id}` }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.call(people.developer, { method: 'DELETE', url: `${imagesUrl}/${second.id}` })).statusCode,
    ).toBe(403);
    expect((await t.call(undefined, { method: 'DELETE', url: `${imagesUrl}/${second.id}` })).statusCode).toBe(
      401,
    );
    expect(await rowCount(t, 'custom_page_images', pluginId)).toBe(before);

    const deleted = await t.call(people.owner, { method: 'DELETE', url: `${imagesUrl}/${second.id}` });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await t.app.fileStore.has(secondHash)).toBe(false);
    expect((await t.call(people.owner, { method: 'GET', url: second.url })).statusCode).toBe(404);
    // The same bytes in another page: the row goes, the file stays.
    expect(
      (await t.call(people.owner, { method: 'DELETE', url: `${imagesUrl}/${first.id}` })).statusCode,
    ).toBe(204);
    expect(await t.app.fileStore.has(firstHash)).toBe(true);
    expect(
      json<CustomPageBody>(await t.call(people.owner, { method: 'GET', url: `${base()}/${page.id}` })).images,
    ).toEqual([]);

    // The published version shows an image: deleting it is refused until a publication drops it.
    const shown = await upload('shown.png', Buffer.concat([PNG, Buffer.from(`shown-${kind}`)]));
    const pageUrl = `${base()}/${page.id}`;
    await t.call(people.owner, {
      method: 'PUT',
      url: pageUrl,
      payload: { originalContent: `![Shown](${shown.url})` },
    });
    await t.call(people.owner, { method: 'POST', url: `${pageUrl}/publish` });
    await t.call(people.owner, { method: 'PUT', url: pageUrl, payload: { originalContent: 'No image now' } });
    const refused = await t.call(people.owner, { method: 'DELETE', url: `${imagesUrl}/${shown.id}` });
    expect(refused.statusCode).toBe(409);
    expect(message(refused)).toMatch(/published version of "Gallery" shows the image "shown.png"/);
    expect((await t.call(undefined, { method: 'GET', url: shown.url })).statusCode).toBe(200);
    await t.call(people.owner, { method: 'POST', url: `${pageUrl}/publish` });
    expect(
      (await t.call(people.owner, { method: 'DELETE', url: `${imagesUrl}/${shown.id}` })).statusCode,
    ).toBe(204);
  });
});
