import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { THEME_TAG_ID } from '@marketplace/core';
import { asc, eq, sql } from 'drizzle-orm';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client';
import {
  downloadCounts,
  featuredPlugins,
  plugins,
  pluginDevelopers,
  pluginDocumentationTabs,
  pluginScreenshots,
  pluginTags,
  pluginThemes,
  pluginVersions,
  reviews,
  users,
  vendors,
} from '../../src/db/schema';
import { DemoCatalogueError, loadDemoCatalogue, type LoadDemoCatalogueResult } from '../../src/demo';
import { createFileStore, type DiskFileStore } from '../../src/storage';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../db/test-database';
import { readZipEntries } from './zip-entries';

// Loading a catalogue (archives, icons, a year of counters) takes seconds on a busy machine.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const PLUGIN_COUNT = 60;
const today = new Date('2026-11-21T00:00:00Z');
const fingerprints = new Map<string, string>();

describe.each(DATABASE_KINDS)('the demo catalogue loaded into %s', (kind) => {
  let testDatabase: TestDatabase;
  let db: Database;
  let directory: string;
  let fileStore: DiskFileStore;
  let loaded: LoadDemoCatalogueResult;

  beforeAll(async () => {
    testDatabase = await createTestDatabase({ kind });
    db = testDatabase.database.db;
    directory = await mkdtemp(join(tmpdir(), 'mp-demo-'));
    fileStore = createFileStore(directory);
    loaded = await loadDemoCatalogue(testDatabase.database, fileStore, {
      plugins: PLUGIN_COUNT,
      seed: 11,
      today,
    });
  });
  afterAll(async () => {
    await testDatabase?.dispose();
    await rm(directory, { recursive: true, force: true });
  });

  it('reports what it loaded, and the rows are there', async () => {
    const [counted] = await db
      .select({
        plugins: sql<number>`(SELECT count(*)::int FROM plugins)`,
        versions: sql<number>`(SELECT count(*)::int FROM plugin_versions)`,
        reviews: sql<number>`(SELECT count(*)::int FROM reviews)`,
        counters: sql<number>`(SELECT count(*)::int FROM download_counts)`,
        users: sql<number>`(SELECT count(*)::int FROM users)`,
      })
      .from(sql`(SELECT 1) AS one`);
    expect(counted).toEqual({
      plugins: PLUGIN_COUNT,
      versions: loaded.versions,
      reviews: loaded.reviews,
      counters: loaded.downloadCounters,
      users: loaded.users,
    });
    expect(loaded.reviews).toBeGreaterThan(0);
  });

  it('stores a valid archive for every version whose plugin.xml matches the row', async () => {
    const rows = await db
      .select({ version: pluginVersions, plugin: plugins, vendor: vendors })
      .from(pluginVersions)
      .innerJoin(plugins, eq(plugins.id, pluginVersions.pluginId))
      .innerJoin(vendors, eq(vendors.id, plugins.vendorId))
      .orderBy(asc(pluginVersions.id));
    expect(rows.length).toBe(loaded.versions);
    const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', processEntities: true });
    for (const { version, plugin, vendor } of rows) {
      const opened = await fileStore.open(version.fileHash);
      expect(opened, `archive of version ${version.id}`).toBeDefined();
      const archive = await buffer(opened!.stream);
      expect(archive.length).toBe(version.fileSize);
      expect(createHash('sha256').update(archive).digest('hex')).toBe(version.fileHash);
      let entries = await readZipEntries(archive);
      if (version.fileName.endsWith('.zip')) {
        const slug = version.fileName.slice(0, -`-${version.version}.zip`.length);
        const inner = `${slug}/lib/${slug}.jar`;
        expect([...entries.keys()], `${version.fileName} holds <name>/lib/<name>.jar`).toEqual([inner]);
        entries = await readZipEntries(entries.get(inner)!);
      } else {
        expect(version.fileName.endsWith('.jar')).toBe(true);
      }
      const xml = entries.get('META-INF/plugin.xml');
      expect(xml, `plugin.xml of ${version.fileName}`).toBeDefined();
      const descriptor = parser.parse(xml!.toString('utf8'))['idea-plugin'];
      expect(descriptor.id).toBe(plugin.xmlId);
      expect(descriptor.name).toBe(plugin.name);
      expect(String(descriptor.version)).toBe(version.version);
      expect(descriptor.vendor['#text']).toBe(vendor.name);
      expect(descriptor.vendor.email).toBe(vendor.email);
      expect(descriptor.vendor.url).toBe(vendor.url);
      expect(descriptor.description).toBe(plugin.description);
      expect(descriptor['change-notes']).toBe(version.notes);
      expect(String(descriptor['idea-version']['since-build'])).toBe(version.sinceBuild);
      expect(descriptor['idea-version']['until-build']).toBe(version.untilBuild ?? undefined);
    }
  });

  it('keeps totals consistent: plugin downloads, version downloads, daily counters and ratings', async () => {
    const mismatches = await db.execute<{ id: number }>(sql`
      SELECT p.id FROM plugins p
      LEFT JOIN (SELECT plugin_id, sum(downloads) AS total FROM plugin_versions GROUP BY plugin_id) v
        ON v.plugin_id = p.id
      LEFT JOIN (SELECT plugin_id, count(*) AS count, sum(rating) AS total FROM reviews GROUP BY plugin_id) r
        ON r.plugin_id = p.id
      WHERE p.downloads <> coalesce(v.total, 0)
         OR p.rating_count <> coalesce(r.count, 0) OR p.rating_total <> coalesce(r.total, 0)`);
    expect(mismatches.rows).toEqual([]);
    const overCounted = await db.execute<{ id: number }>(sql`
      SELECT v.id FROM plugin_versions v
      JOIN (SELECT version_id, sum(count) AS total FROM download_counts GROUP BY version_id) d
        ON d.version_id = v.id
      WHERE d.total > v.downloads`);
    expect(overCounted.rows).toEqual([]);
    const [range] = await db
      .select({
        first: sql<string>`min(${downloadCounts.day})::text`,
        last: sql<string>`max(${downloadCounts.day})::text`,
      })
      .from(downloadCounts);
    expect(range).toEqual({ first: '2025-11-22', last: '2026-11-21' });
  });

  it('has the demo accounts without passwords, and the developer manages their items', async () => {
    const accounts = await db
      .select({ login: users.login, isAdmin: users.isAdmin, passwordHash: users.passwordHash })
      .from(users)
      .where(sql`${users.login} IN ('admin', 'developer', 'visitor')`)
      .orderBy(users.id);
    expect(accounts).toEqual([
      { login: 'admin', isAdmin: true, passwordHash: null },
      { login: 'developer', isAdmin: false, passwordHash: null },
      { login: 'visitor', isAdmin: false, passwordHash: null },
    ]);
    const managed = await db
      .select({ pluginId: pluginDevelopers.pluginId })
      .from(pluginDevelopers)
      .innerJoin(users, eq(users.id, pluginDevelopers.userId))
      .where(eq(users.login, 'developer'));
    expect(managed.length).toBeGreaterThan(0);
    // New rows after the demo ones get fresh ids.
    const [created] = await db
      .insert(users)
      .values({ login: 'someone-new', name: 'Someone New' })
      .returning();
    expect(created!.id).toBe(loaded.users + 1);
    await db.delete(users).where(eq(users.id, created!.id));
  });

  it('marks themes with tag 164 and their colour schemes, and features items per product', async () => {
    const themes = await db
      .select({ dark: pluginThemes.dark })
      .from(pluginThemes)
      .innerJoin(pluginTags, eq(pluginTags.pluginId, pluginThemes.pluginId))
      .where(eq(pluginTags.tagId, THEME_TAG_ID));
    expect(themes.length).toBeGreaterThan(0);
    const featured = await db.select().from(featuredPlugins);
    expect(new Set(featured.map((row) => row.product)).has('IDEA')).toBe(true);
  });

  it('stores every file a row refers to', async () => {
    const hashes = await db.execute<{ hash: string }>(sql`
      SELECT icon_hash AS hash FROM plugins WHERE icon_hash IS NOT NULL
      UNION SELECT file_hash FROM ${pluginScreenshots}
      UNION SELECT content_hash FROM ${pluginDocumentationTabs}
      UNION SELECT file_hash FROM ${pluginVersions}`);
    const stored = new Set<string>();
    for await (const hash of fileStore.list()) stored.add(hash);
    expect(hashes.rows.filter((row) => !stored.has(row.hash))).toEqual([]);
    expect(stored.size).toBe(loaded.files);
  });

  it('refuses to load into a database that already has a catalogue, changing nothing', async () => {
    const before = await db.select({ count: sql<number>`count(*)::int` }).from(reviews);
    await expect(
      loadDemoCatalogue(testDatabase.database, fileStore, { plugins: 5, today }),
    ).rejects.toBeInstanceOf(DemoCatalogueError);
    expect(await db.select({ count: sql<number>`count(*)::int` }).from(reviews)).toEqual(before);
  });

  it('gives the same catalogue as every other load with the same seed', async () => {
    const fingerprint = await catalogueFingerprint(db);
    for (const other of fingerprints.values()) expect(fingerprint).toBe(other);
    fingerprints.set(kind, fingerprint);
  });
});

/**
 * A digest of the catalogue's rows in a fixed order, to compare loads across runs and engines. Rows are
 * turned into text by the database and times into epoch milliseconds, so driver conventions do not matter.
 */
async function catalogueFingerprint(db: Database): Promise<string> {
  const hash = createHash('sha256');
  const epoch = (column: string) => `(extract(epoch FROM ${column}) * 1000)::bigint`;
  for (const query of [
    `SELECT id, family, xml_id, name, description, downloads, rating_count, rating_total, lifecycle_state,
            approved, block_state, hidden, ${epoch('created_at')}, ${epoch('last_updated_at')}, icon_hash
     FROM plugins ORDER BY id`,
    `SELECT id, plugin_id, version, channel, since_build, until_build, file_hash, downloads, ${epoch('created_at')}
     FROM plugin_versions ORDER BY id`,
    `SELECT id, plugin_id, author_id, rating, text, ${epoch('created_at')} FROM reviews ORDER BY id`,
    `SELECT plugin_id, version_id, day::text, count FROM download_counts ORDER BY plugin_id, day, version_id`,
    `SELECT product, plugin_id, position FROM featured_plugins ORDER BY product, position`,
    `SELECT id, login, name FROM users WHERE login <> 'someone-new' ORDER BY id`,
  ]) {
    const result = await db.execute<{ row: string }>(sql.raw(`SELECT q::text AS row FROM (${query}) q`));
    for (const { row } of result.rows) hash.update(row).update('\n');
  }
  return hash.digest('hex');
}

describe.each(DATABASE_KINDS)('two demo loads at once on %s', (kind) => {
  it('load the catalogue once; the other is told the database is not empty', async () => {
    const testDatabase = await createTestDatabase({ kind });
    const directory = await mkdtemp(join(tmpdir(), 'mp-demo-'));
    const other = testDatabase.databaseUrl
      ? await openDatabase({ databaseUrl: testDatabase.databaseUrl, dataDir: '' })
      : testDatabase.database;
    try {
      const fileStore = createFileStore(directory);
      const outcomes = await Promise.allSettled([
        loadDemoCatalogue(testDatabase.database, fileStore, { plugins: 4, today }),
        loadDemoCatalogue(other, fileStore, { plugins: 4, today }),
      ]);
      expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
      const failure = outcomes.find((outcome) => outcome.status === 'rejected');
      expect(failure?.reason).toBeInstanceOf(DemoCatalogueError);
      const [row] = await testDatabase.database.db
        .select({ count: sql<number>`count(*)::int` })
        .from(plugins);
      expect(row?.count).toBe(4);
    } finally {
      if (other !== testDatabase.database) await other.close();
      await testDatabase.dispose();
      await rm(directory, { recursive: true, force: true });
    }
  });
});
