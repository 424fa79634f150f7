import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { createGunzip, gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { recordDownload } from '../../src/db/catalogue-queries';
import { pluginRepositoryAnswer, type FeedAnswer } from '../../src/ide-feed/feed-answer';
import { IdeFeedStore } from '../../src/ide-feed/feed-store';
import { renderFragment } from '../../src/ide-feed/fragments';
import { readIdeBuild } from '../../src/routes/ide/compatibility';
import { createFileStore } from '../../src/storage';
import { PLUGINS, seedCatalogue, VERSIONS } from '../api/catalogue-fixture';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../db/test-database';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const PUBLIC_URL = 'https://plugins.example.com';
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false });

interface Entry {
  '@downloads': string;
  id: string;
  version: string;
  description: string;
  rating: string;
}

/** The bytes an answer sends. */
async function sent(answer: FeedAnswer): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of answer.body()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The feed for a build as the IDE reads it: xmlId -> entry. */
async function feed(store: IdeFeedStore, build = 'IU-251.1', gzip = true): Promise<Record<string, Entry>> {
  const answer = pluginRepositoryAnswer(await store.select(readIdeBuild(build), ''), gzip);
  const body = gzip ? await text(answer.body().pipe(createGunzip())) : await text(answer.body());
  if (!gzip) expect(Buffer.byteLength(body)).toBe(answer.length);
  const document = parser.parse(body);
  const categories = [document['plugin-repository']?.category ?? []].flat();
  const entries: Entry[] = categories.flatMap((category: { 'idea-plugin': Entry | Entry[] }) =>
    [category['idea-plugin']].flat(),
  );
  return Object.fromEntries(entries.map((entry) => [entry.id, entry]));
}

describe.each(DATABASE_KINDS)('the IDE feed store on %s', (kind) => {
  let testDatabase: TestDatabase;
  let directory: string;
  let store: IdeFeedStore;

  beforeAll(async () => {
    testDatabase = await createTestDatabase({ kind });
    directory = await mkdtemp(join(tmpdir(), 'mp-feed-store-'));
    await seedCatalogue(testDatabase.database.db, createFileStore(directory));
    store = new IdeFeedStore(testDatabase.database.db, PUBLIC_URL, { lookEveryMs: 60_000 });
  });
  afterAll(async () => {
    await store?.close();
    await testDatabase?.dispose();
    await rm(directory, { recursive: true, force: true });
  });

  const db = () => testDatabase.database.db;
  const storedFragments = async () =>
    (
      await db().execute<{ version_id: number; source_digest: string; rendered_at: string }>(
        sql`SELECT version_id, source_digest, rendered_at::text FROM ide_feed_fragments ORDER BY version_id`,
      )
    ).rows;

  it('renders each visible version once and stores the fragments for every process', async () => {
    const entries = await feed(store);
    expect(Object.keys(entries).sort()).toEqual(['com.example.darcula', 'com.example.gittoolbox']);
    await store.persisted();
    const stored = await storedFragments();
    const storedIds = stored.map((row) => row.version_id);
    // Every visible version, of every family; never a pending, hidden or invisible plugin's version.
    expect(storedIds).toContain(VERSIONS.gitToolbox242Open);
    expect(storedIds).toContain(VERSIONS.teamcity);
    for (const invisible of [VERSIONS.gitToolboxPending, VERSIONS.gitToolboxHidden, VERSIONS.hiddenPlugin]) {
      expect(storedIds).not.toContain(invisible);
    }
  });

  it('reads stored fragments instead of rendering them again', async () => {
    // Replace one stored fragment with other text under the same digest: a process that starts now must
    // serve the stored text, which it can only have read from the database.
    const [row] = (
      await db().execute<{ digest: string }>(
        sql`SELECT source_digest AS digest FROM ide_feed_fragments WHERE version_id = ${VERSIONS.gitToolbox242Open}`,
      )
    ).rows;
    const marked = renderFragment(
      {
        version_id: VERSIONS.gitToolbox242Open,
        size: 1,
        cdate: 0,
        name: 'Git Toolbox',
        xml_id: 'com.example.gittoolbox',
        description: 'read from the database',
        version: '3.0',
        vendor_name: null,
        vendor_email: null,
        vendor_url: null,
        since_build: '242.100',
        until_build: null,
        notes: '',
        dependencies: [],
      },
      PUBLIC_URL,
    );
    await db().execute(
      sql`UPDATE ide_feed_fragments SET deflated = ${marked.deflated}::bytea, plain_length = ${marked.length},
        crc = ${marked.crc} WHERE version_id = ${VERSIONS.gitToolbox242Open} AND source_digest = ${row!.digest}`,
    );
    const second = new IdeFeedStore(db(), PUBLIC_URL, { lookEveryMs: 60_000 });
    try {
      const entries = await feed(second, 'IU-251.1', false);
      expect(entries['com.example.gittoolbox']?.description).toBe('read from the database');
      expect(entries['com.example.darcula']?.description).toBe('A dark theme with high contrast.');
    } finally {
      await second.close();
    }
  });

  it('follows downloads and ratings without rendering anything, and renders a changed description', async () => {
    const renderedBefore = await storedFragments();
    await recordDownload(db(), VERSIONS.darculaLargeUntil);
    store.markChanged();
    const afterDownload = await feed(store);
    expect(afterDownload['com.example.darcula']?.['@downloads']).toBe('2501');
    await store.persisted();
    expect(await storedFragments()).toEqual(renderedBefore);

    await db().execute(
      sql`UPDATE plugins SET description = 'Now with <b>more</b> contrast.' WHERE id = ${PLUGINS.darculaTheme}`,
    );
    store.markChanged();
    const afterEdit = await feed(store, 'IU-251.1', false);
    expect(afterEdit['com.example.darcula']?.description).toBe('Now with <b>more</b> contrast.');
    await store.persisted();
    const changed = (await storedFragments()).find((row) => row.version_id === VERSIONS.darculaLargeUntil);
    const before = renderedBefore.find((row) => row.version_id === VERSIONS.darculaLargeUntil);
    expect(changed?.source_digest).not.toBe(before?.source_digest);
  });

  it('drops a plugin that stops being visible and brings it back', async () => {
    await db().execute(sql`UPDATE plugins SET hidden = true WHERE id = ${PLUGINS.darculaTheme}`);
    store.markChanged();
    expect(Object.keys(await feed(store))).toEqual(['com.example.gittoolbox']);
    await db().execute(sql`UPDATE plugins SET hidden = false WHERE id = ${PLUGINS.darculaTheme}`);
    store.markChanged();
    expect(Object.keys(await feed(store)).sort()).toEqual(['com.example.darcula', 'com.example.gittoolbox']);
  });

  it('keeps whole answers by range of builds, each the answer put together afresh', async () => {
    // Bounds of the fixture: builds between the same two since/until bounds share a kept answer.
    const builds = [
      'IU-233.15000',
      'IU-234.1',
      'IU-241',
      'IU-241.14494.240',
      'IU-242.99',
      'IU-242.100',
      'IU-243.5',
      'IU-251.1',
      'IU-251.2',
      'IU-999.10000',
      'IU-1000.1',
      '241.14494',
      'PC-241.1',
      'IC-241.1',
      'TC-241.1',
    ];
    for (const build of [...builds, ...builds.reverse()]) {
      for (const gzip of [true, false]) {
        const kept = await store.answer(readIdeBuild(build), '', undefined, gzip);
        const fresh = pluginRepositoryAnswer(await store.select(readIdeBuild(build), ''), gzip);
        expect([build, kept.etag, kept.length]).toEqual([build, fresh.etag, fresh.length]);
        expect((await sent(kept)).equals(await sent(fresh))).toBe(true);
      }
    }
    const eap = await store.answer(readIdeBuild('IU-243.5'), 'eap', undefined, true);
    expect(eap.etag).toBe(
      pluginRepositoryAnswer(await store.select(readIdeBuild('IU-243.5'), 'eap'), true).etag,
    );
  });

  it('brings kept answers to new download counts, and forgets them when a plugin changes', async () => {
    const ide = readIdeBuild('IU-251.1');
    const before = await store.answer(ide, '', undefined, true);
    expect(await store.answer(ide, '', undefined, true)).toBe(before);
    const downloads = Number((await feed(store))['com.example.darcula']?.['@downloads']);

    await recordDownload(db(), VERSIONS.darculaLargeUntil);
    store.markChanged();
    const counted = await store.answer(ide, '', undefined, true);
    expect(counted.etag).not.toBe(before.etag);
    const fresh = pluginRepositoryAnswer(await store.select(ide, ''), true);
    expect(counted.etag).toBe(fresh.etag);
    expect((await sent(counted)).equals(await sent(fresh))).toBe(true);
    expect(gunzipSync(await sent(counted)).toString()).toContain(`<idea-plugin downloads="${downloads + 1}"`);
    // An answer given before still sends what it said.
    expect((await sent(before)).length).toBe(before.length);

    await db().execute(sql`UPDATE plugins SET name = 'Darcula Plus' WHERE id = ${PLUGINS.darculaTheme}`);
    store.markChanged();
    const renamed = await store.answer(ide, '', undefined, false);
    expect(await text(renamed.body())).toContain('<name>Darcula Plus</name>');
  });

  it('answers the same document compressed and plain, with the exact length and distinct ETags', async () => {
    const selection = await store.select(readIdeBuild('IU-241.14494.240'), '');
    const plain = pluginRepositoryAnswer(selection, false);
    const gzip = pluginRepositoryAnswer(selection, true);
    const plainText = await text(plain.body());
    const chunks: Buffer[] = [];
    for await (const chunk of gzip.body()) chunks.push(chunk as Buffer);
    const compressed = Buffer.concat(chunks);
    expect(compressed.length).toBe(gzip.length);
    expect(Buffer.byteLength(plainText)).toBe(plain.length);
    expect(gunzipSync(compressed).toString()).toBe(plainText);
    expect(plainText.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<plugin-repository>\n')).toBe(true);
    expect(gzip.etag).not.toBe(plain.etag);
    expect(pluginRepositoryAnswer(selection, false).etag).toBe(plain.etag);
  });
});
