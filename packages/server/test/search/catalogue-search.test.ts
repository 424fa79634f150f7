import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CatalogueSearch } from '../../src/search/catalogue-search';
import type { SearchRequest } from '../../src/search/catalogue-index';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../db/test-database';

// Starting PGlite and applying the migrations takes seconds on a busy machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const OWNER = 7;
const DEVELOPER = 8;

/**
 * The search index against a real database: whatever changes the catalogue (this process, another
 * connection, a transaction that commits late) is found by the next searches, on PGlite and PostgreSQL.
 */
describe.each(DATABASE_KINDS)('the search index on %s', (kind) => {
  let testDatabase: TestDatabase;
  let search: CatalogueSearch;

  beforeEach(async () => {
    testDatabase = await createTestDatabase({ kind });
    const { db } = testDatabase.database;
    await db.execute(sql`INSERT INTO users (id, login, name) VALUES (${OWNER}, 'owner', 'Owner'),
      (${DEVELOPER}, 'developer', 'Developer')`);
    await db.execute(
      sql`INSERT INTO vendors (id, name, url) VALUES (1, 'Acme Tools', 'https://acme.example.com')`,
    );
    await insertPlugin(1, 'Git Toolbox', { downloads: 500 });
    await insertPlugin(2, 'Docker Runner', { downloads: 300 });
    search = new CatalogueSearch(db, { lookEveryMs: 50 });
  });

  afterEach(async () => {
    await search?.close();
    await testDatabase?.dispose();
  });

  async function insertPlugin(
    id: number,
    name: string,
    options: { downloads?: number; listed?: boolean; description?: string } = {},
  ) {
    const listed = options.listed ?? true;
    await testDatabase.database.db.execute(sql`INSERT INTO plugins
      (id, family, xml_id, name, description, vendor_id, owner_id, downloads, lifecycle_state, approved,
       published_at)
      VALUES (${id}, 'intellij', ${`com.example.plugin${id}`}, ${name}, ${options.description ?? ''}, 1,
        ${OWNER}, ${options.downloads ?? 0}, ${listed ? 'published' : 'draft'}, ${listed},
        ${listed ? sql`now()` : null})`);
  }

  async function names(request: Partial<SearchRequest> = {}, viewer?: { userId: number; isAdmin: boolean }) {
    const result = await search.search({ max: 20, offset: 0, ...request }, viewer);
    return result.plugins.map((plugin) => plugin.name);
  }

  it('answers from what the database holds', async () => {
    expect(await names()).toEqual(['Git Toolbox', 'Docker Runner']);
    expect(await names({ search: 'dokcer' })).toEqual(['Docker Runner']);
  });

  it('reads a change this process made before the next search', async () => {
    expect(await names({ search: 'kotlin' })).toEqual([]);
    await insertPlugin(3, 'Kotlin Fest', { downloads: 1000 });
    await testDatabase.database.db.execute(sql`UPDATE plugins SET name = 'Git Tools' WHERE id = 1`);
    search.markChanged();
    expect(await names({ search: 'kotlin' })).toEqual(['Kotlin Fest']);
    expect(await names()).toEqual(['Kotlin Fest', 'Git Tools', 'Docker Runner']);
    expect(await names({ search: 'toolbox' })).toEqual([]);
  });

  it('finds changes made elsewhere within its look interval, without being told', async () => {
    expect(await names()).toEqual(['Git Toolbox', 'Docker Runner']);
    await insertPlugin(3, 'Kotlin Fest', { downloads: 1000 });
    await testDatabase.database.db.execute(sql`UPDATE plugins SET downloads = 100 WHERE id = 1`);
    await expect
      .poll(() => names(), { timeout: 5000 })
      .toEqual(['Kotlin Fest', 'Docker Runner', 'Git Toolbox']);
  });

  it('answers the same after building its index again from scratch', async () => {
    const rebuilding = new CatalogueSearch(testDatabase.database.db, { rebuildSlack: 0 });
    try {
      for (const name of ['Git Lens', 'Git Graph', 'Git Blame']) {
        await testDatabase.database.db.execute(sql`UPDATE plugins SET name = ${name} WHERE id = 1`);
        rebuilding.markChanged();
        const found = await rebuilding.search({ search: 'git', max: 5, offset: 0 }, undefined);
        expect(found.plugins.map((plugin) => plugin.name)).toEqual([name]);
      }
      const lens = await rebuilding.search({ search: 'lens', max: 5, offset: 0 }, undefined);
      expect(lens.total).toBe(0);
      expect((await rebuilding.search({ max: 5, offset: 0 }, undefined)).total).toBe(2);
    } finally {
      await rebuilding.close();
    }
  });

  it('follows tags, compatible products, developers, vendors and deletions', async () => {
    const { db } = testDatabase.database;
    await insertPlugin(3, 'Secret Draft', { listed: false });
    expect(await names({ products: ['PYCHARM'] })).toEqual(['Git Toolbox', 'Docker Runner']);
    expect(await names({}, { userId: DEVELOPER, isAdmin: false })).toEqual(['Git Toolbox', 'Docker Runner']);

    await db.execute(sql`INSERT INTO tags (id, name) VALUES (1, 'Containers')`);
    await db.execute(sql`INSERT INTO plugin_tags (plugin_id, tag_id) VALUES (2, 1)`);
    await db.execute(sql`INSERT INTO plugin_compatible_products (plugin_id, product) VALUES (1, 'IDEA')`);
    await db.execute(sql`INSERT INTO plugin_developers (plugin_id, user_id) VALUES (3, ${DEVELOPER})`);
    await db.execute(sql`UPDATE vendors SET url = 'https://tools.example.com' WHERE id = 1`);
    search.markChanged();
    expect(await names({ tags: ['containers'] })).toEqual(['Docker Runner']);
    expect(await names({ search: 'containers' })).toEqual(['Docker Runner']);
    expect(await names({ products: ['PYCHARM'] })).toEqual(['Docker Runner']);
    expect(await names({}, { userId: DEVELOPER, isAdmin: false })).toEqual([
      'Git Toolbox',
      'Docker Runner',
      'Secret Draft',
    ]);
    const [first] = (await search.search({ max: 1, offset: 0 }, undefined)).plugins;
    expect(first?.vendor.url).toBe('https://tools.example.com');

    await db.execute(sql`DELETE FROM plugins WHERE id = 2`);
    search.markChanged();
    expect(await names()).toEqual(['Git Toolbox']);
    expect((await search.countByProduct({}, undefined)).total).toBe(1);
  });
});

describe('the search index on postgres, beside other connections', () => {
  let testDatabase: TestDatabase;
  let other: pg.Client;
  let search: CatalogueSearch;

  beforeEach(async () => {
    testDatabase = await createTestDatabase({ kind: 'postgres' });
    other = new pg.Client({ connectionString: testDatabase.databaseUrl });
    await other.connect();
    for (const [id, name] of [
      [1, 'Git Toolbox'],
      [2, 'Docker Runner'],
    ] as const) {
      await other.query(
        `INSERT INTO plugins (id, family, xml_id, name, lifecycle_state, approved, published_at)
         VALUES ($1, 'intellij', $2, $3, 'published', true, now())`,
        [id, `com.example.plugin${id}`, name],
      );
    }
    search = new CatalogueSearch(testDatabase.database.db, { lookEveryMs: 60_000 });
  });

  afterEach(async () => {
    await search?.close();
    await other?.end();
    await testDatabase?.dispose();
  });

  it('does not miss a change whose transaction began before a look and committed after it', async () => {
    expect(await search.search({ search: 'kotlin', max: 5, offset: 0 }, undefined)).toMatchObject({
      total: 0,
    });
    // A slow writer stamps plugin 1 first; a quick one stamps plugin 2 later and commits at once.
    await other.query('BEGIN');
    await other.query(`UPDATE plugins SET name = 'Kotlin Toolbox' WHERE id = 1`);
    await testDatabase.database.db.execute(sql`UPDATE plugins SET name = 'Docker Tools' WHERE id = 2`);
    search.markChanged();
    const meanwhile = await search.search({ max: 5, offset: 0 }, undefined);
    expect(meanwhile.plugins.map((plugin) => plugin.name).sort()).toEqual(['Docker Tools', 'Git Toolbox']);
    // The slow writer commits after the look that read the quick one's later stamp.
    await other.query('COMMIT');
    search.markChanged();
    const after = await search.search({ search: 'kotlin', max: 5, offset: 0 }, undefined);
    expect(after.plugins.map((plugin) => plugin.name)).toEqual(['Kotlin Toolbox']);
  });
});
