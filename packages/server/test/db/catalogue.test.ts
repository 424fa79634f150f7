import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  buildBoundColumns,
  InvalidBuildNumberError,
  recordDownload,
  selectLatestVersionPerChannel,
  selectLatestVersions,
} from '../../src/db/catalogue-queries';
import type { Database } from '../../src/db/client';
import {
  downloadCounts,
  pluginTags,
  plugins,
  pluginVersions,
  reviews,
  tags,
  users,
  vendors,
} from '../../src/db/schema';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './test-database';

// Starting PGlite and applying the migrations takes seconds on a busy machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const FILE_HASH = 'a'.repeat(64);

describe.each(DATABASE_KINDS)('the catalogue on %s', (kind) => {
  let testDatabase: TestDatabase;
  let db: Database;
  let vendorId: number;
  let userIds: number[];

  beforeAll(async () => {
    testDatabase = await createTestDatabase({ kind });
    db = testDatabase.database.db;
    const [vendor] = await db.insert(vendors).values({ name: 'Acme Tools' }).returning();
    vendorId = vendor!.id;
    const inserted = await db
      .insert(users)
      .values(Array.from({ length: 30 }, (_, index) => ({ login: `user${index}`, name: `User ${index}` })))
      .returning({ id: users.id });
    userIds = inserted.map((user) => user.id);
  });
  afterAll(async () => {
    await testDatabase.dispose();
  });

  async function insertPlugin(values: Partial<typeof plugins.$inferInsert> & { name: string }) {
    const [plugin] = await db
      .insert(plugins)
      .values({
        family: 'intellij',
        xmlId: `com.acme.${values.name.toLowerCase().replaceAll(' ', '.')}`,
        vendorId,
        lifecycleState: 'published',
        approved: true,
        ...values,
      })
      .returning();
    return plugin!;
  }

  async function insertVersion(
    pluginId: number,
    version: string,
    options: { since: string; until?: string; channel?: string; hidden?: boolean; createdAt: string },
  ) {
    const [row] = await db
      .insert(pluginVersions)
      .values({
        pluginId,
        version,
        channel: options.channel ?? '',
        sinceBuild: options.since,
        untilBuild: options.until ?? null,
        ...buildBoundColumns(options.since, options.until),
        fileHash: FILE_HASH,
        fileSize: 100,
        fileName: `plugin-${version}.jar`,
        hidden: options.hidden ?? false,
        approvalState: 'approved',
        createdAt: new Date(options.createdAt),
      })
      .returning();
    return row!;
  }

  async function search(query: string): Promise<string[]> {
    const result = await db
      .select({ name: plugins.name })
      .from(plugins)
      .where(sql`${plugins.searchVector} @@ websearch_to_tsquery('english', ${query})`)
      .orderBy(
        sql`ts_rank(${plugins.searchVector}, websearch_to_tsquery('english', ${query})) DESC`,
        plugins.name,
      );
    return result.map((row) => row.name);
  }

  it('finds plugins by name, xml id, vendor, tags and description, names first', async () => {
    const [tag] = await db
      .insert(tags)
      .values({ name: 'Formatting', families: ['intellij'] })
      .returning();
    const brackets = await insertPlugin({
      name: 'Bracket Colorizer',
      description: '<p>Paints <b>matching</b> pairs in distinct colours.</p>',
    });
    await insertPlugin({ name: 'Pair Painter', description: '<p>Works like a bracket colorizer.</p>' });
    await db.insert(pluginTags).values({ pluginId: brackets.id, tagId: tag!.id });

    expect(await search('bracket colorizer')).toEqual(['Bracket Colorizer', 'Pair Painter']);
    expect(await search('acme')).toEqual(['Bracket Colorizer', 'Pair Painter']);
    expect(await search('formatting')).toEqual(['Bracket Colorizer']);
    expect(await search('com.acme.pair.painter')).toEqual(['Pair Painter']);
    expect(await search('painter')).toEqual(['Pair Painter']);
    expect(await search('matching')).toEqual(['Bracket Colorizer']);
    // Markup is not text: a search for a tag name in the description finds nothing.
    expect(await search('b')).toEqual([]);

    await db.update(tags).set({ name: 'Code Style' }).where(eq(tags.id, tag!.id));
    expect(await search('formatting')).toEqual([]);
    expect(await search('code style')).toEqual(['Bracket Colorizer']);
    await db.update(vendors).set({ name: 'Globex' }).where(eq(vendors.id, vendorId));
    expect(await search('globex')).toEqual(['Bracket Colorizer', 'Pair Painter']);
    await db.delete(pluginTags).where(eq(pluginTags.pluginId, brackets.id));
    expect(await search('code style')).toEqual([]);
  });

  it('suggests names despite a typo (trigram similarity)', async () => {
    await insertPlugin({ name: 'Rainbow Indents' });
    const result = await db
      .select({ name: plugins.name })
      .from(plugins)
      .where(sql`${plugins.name} % ${'Rainbw Indnts'}`);
    expect(result.map((row) => row.name)).toEqual(['Rainbow Indents']);
  });

  it('keeps the rating count, total and mean exact through inserts, edits and deletes', async () => {
    const plugin = await insertPlugin({ name: 'Rated Plugin' });
    const ratingOf = async () => {
      const [row] = await db
        .select({ count: plugins.ratingCount, total: plugins.ratingTotal, mean: plugins.ratingMean })
        .from(plugins)
        .where(eq(plugins.id, plugin.id));
      return row;
    };
    expect(await ratingOf()).toEqual({ count: 0, total: 0, mean: 0 });
    const inserted = await db
      .insert(reviews)
      .values([
        { pluginId: plugin.id, authorId: userIds[0]!, rating: 5 },
        { pluginId: plugin.id, authorId: userIds[1]!, rating: 4 },
      ])
      .returning();
    expect(await ratingOf()).toEqual({ count: 2, total: 9, mean: 4.5 });
    await db.update(reviews).set({ rating: 1 }).where(eq(reviews.id, inserted[0]!.id));
    expect(await ratingOf()).toEqual({ count: 2, total: 5, mean: 2.5 });
    await db.delete(reviews).where(eq(reviews.id, inserted[1]!.id));
    expect(await ratingOf()).toEqual({ count: 1, total: 1, mean: 1 });
    await expect(
      db.insert(reviews).values({ pluginId: plugin.id, authorId: userIds[0]!, rating: 3 }),
    ).rejects.toThrow();
    await expect(
      db.insert(reviews).values({ pluginId: plugin.id, authorId: userIds[2]!, rating: 6 }),
    ).rejects.toThrow();
    expect(await ratingOf()).toEqual({ count: 1, total: 1, mean: 1 });
  });

  it('keeps the rating aggregate exact when many reviews arrive at once', async () => {
    const plugin = await insertPlugin({ name: 'Popular Plugin' });
    const ratings = userIds.map((_, index) => (index % 5) + 1);
    await Promise.all(
      userIds.map((authorId, index) =>
        db.transaction(async (tx) => {
          await tx.insert(reviews).values({ pluginId: plugin.id, authorId, rating: ratings[index]! });
        }),
      ),
    );
    const [row] = await db
      .select({ count: plugins.ratingCount, total: plugins.ratingTotal })
      .from(plugins)
      .where(eq(plugins.id, plugin.id));
    expect(row).toEqual({ count: userIds.length, total: ratings.reduce((sum, value) => sum + value, 0) });
  });

  it('answers the newest compatible version per plugin and channel', async () => {
    const plugin = await insertPlugin({
      name: 'Versioned Plugin',
      lastUpdatedAt: new Date('2025-12-01T00:00:00Z'),
    });
    await insertVersion(plugin.id, '1.0', {
      since: '233',
      until: '241.*',
      createdAt: '2026-01-01T00:00:00Z',
    });
    await insertVersion(plugin.id, '1.1', {
      since: '233',
      until: '241.*',
      createdAt: '2026-02-01T00:00:00Z',
    });
    await insertVersion(plugin.id, '2.0', { since: '242', createdAt: '2026-03-01T00:00:00Z' });
    await insertVersion(plugin.id, '2.1-eap', {
      since: '243',
      channel: 'eap',
      createdAt: '2026-04-01T00:00:00Z',
    });
    await insertVersion(plugin.id, '2.2', { since: '242', hidden: true, createdAt: '2026-05-01T00:00:00Z' });

    const newest = async (build?: string, channel?: string) => {
      const rows = await selectLatestVersions(db, {
        pluginIds: [plugin.id],
        channel,
        buildComponents: build ? buildBoundColumns(build, null).sinceComponents : undefined,
      });
      return rows.map((row) => row.version.version);
    };
    expect(await newest()).toEqual(['2.0']);
    expect(await newest('IU-241.14494.240')).toEqual(['1.1']);
    expect(await newest('IU-233.1')).toEqual(['1.1']);
    expect(await newest('IU-232.9999')).toEqual([]);
    expect(await newest('IU-252.23892.409')).toEqual(['2.0']);
    expect(await newest('IU-243.1', 'eap')).toEqual(['2.1-eap']);
    expect(await newest('IU-242.1', 'eap')).toEqual([]);

    const perChannel = await selectLatestVersionPerChannel(db, plugin.id);
    expect(perChannel.map((row) => [row.channel, row.version]).sort()).toEqual([
      ['', '2.0'],
      ['eap', '2.1-eap'],
    ]);
    // The update date follows the newest visible version (the hidden 2.2 does not count).
    const [touched] = await db.select().from(plugins).where(eq(plugins.id, plugin.id));
    expect(touched!.lastUpdatedAt.toISOString()).toBe('2026-04-01T00:00:00.000Z');
  });

  it('leaves plugins that are not listed out of the feeds', async () => {
    const hidden = await insertPlugin({ name: 'Blocked Plugin', blockState: 'blocked' });
    await insertVersion(hidden.id, '1.0', { since: '241', createdAt: '2026-01-01T00:00:00Z' });
    expect(await selectLatestVersions(db, { pluginIds: [hidden.id] })).toEqual([]);
    const all = await selectLatestVersions(db, { pluginIds: [hidden.id], listedOnly: false });
    expect(all.map((row) => row.version.version)).toEqual(['1.0']);
  });

  it('counts a download in the version, the plugin and the day together', async () => {
    const plugin = await insertPlugin({ name: 'Downloaded Plugin' });
    const version = await insertVersion(plugin.id, '1.0', {
      since: '241',
      createdAt: '2026-01-01T00:00:00Z',
    });
    const day = new Date('2026-11-20T23:59:00Z');
    expect(await recordDownload(db, version.id, day)).toBe(true);
    expect(await recordDownload(db, version.id, day)).toBe(true);
    expect(await recordDownload(db, version.id, new Date('2026-11-21T00:01:00Z'))).toBe(true);
    expect(await recordDownload(db, 987_654)).toBe(false);
    const counts = await db
      .select({ day: downloadCounts.day, count: downloadCounts.count })
      .from(downloadCounts)
      .where(eq(downloadCounts.versionId, version.id))
      .orderBy(downloadCounts.day);
    expect(counts).toEqual([
      { day: '2026-11-20', count: 2 },
      { day: '2026-11-21', count: 1 },
    ]);
    const [pluginRow] = await db.select().from(plugins).where(eq(plugins.id, plugin.id));
    const [versionRow] = await db.select().from(pluginVersions).where(eq(pluginVersions.id, version.id));
    expect([pluginRow!.downloads, versionRow!.downloads]).toEqual([3, 3]);
  });

  it('refuses build bounds that are not build numbers', () => {
    expect(() => buildBoundColumns('two hundred', null)).toThrow(InvalidBuildNumberError);
    expect(() => buildBoundColumns('241', '24x.*')).toThrow(/"24x\.\*" is not a build number/);
    expect(buildBoundColumns('241', '243.*')).toEqual({
      sinceComponents: [241, 0],
      untilComponents: [243, Number.MAX_SAFE_INTEGER],
    });
  });
});
