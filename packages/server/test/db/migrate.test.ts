import { sql } from 'drizzle-orm';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../src/db/client';
import { migrate, MigrationError, readMigrations } from '../../src/db/migrate';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './test-database';

// Starting PGlite and applying the migrations takes seconds on a busy machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

describe.each(DATABASE_KINDS)('migrations on %s', (kind) => {
  let testDatabase: TestDatabase | undefined;
  afterEach(async () => {
    await testDatabase?.dispose();
    testDatabase = undefined;
  });

  it('apply every file once, and a second run applies nothing', async () => {
    testDatabase = await createTestDatabase({ kind, migrate: false });
    const files = (await readMigrations()).map((migration) => migration.name);
    const first = await migrate(testDatabase.database);
    expect(first.applied).toEqual(files);
    const second = await migrate(testDatabase.database);
    expect(second.applied).toEqual([]);
    const recorded = await testDatabase.database.db.execute<{ name: string }>(
      sql`SELECT name FROM schema_migrations ORDER BY version`,
    );
    expect(recorded.rows.map((row) => row.name)).toEqual(files);
  });

  it('apply each file exactly once when two migrators start at once', async () => {
    testDatabase = await createTestDatabase({ kind, migrate: false });
    const other = testDatabase.databaseUrl
      ? await openDatabase({ databaseUrl: testDatabase.databaseUrl, dataDir: '' })
      : testDatabase.database;
    try {
      const [first, second] = await Promise.all([migrate(testDatabase.database), migrate(other)]);
      const files = (await readMigrations()).map((migration) => migration.name);
      expect([...first.applied, ...second.applied].sort()).toEqual(files);
    } finally {
      if (other !== testDatabase.database) await other.close();
    }
  });

  it('leave nothing behind when a migration fails, and say which file failed', async () => {
    testDatabase = await createTestDatabase({ kind, migrate: false });
    const directory = await mkdtemp(join(tmpdir(), 'mp-migrations-'));
    try {
      await writeFile(join(directory, '0001_first.sql'), 'CREATE TABLE first_table (id integer);');
      await writeFile(
        join(directory, '0002_broken.sql'),
        'CREATE TABLE second_table (id integer); SELECT * FROM table_that_does_not_exist;',
      );
      await expect(migrate(testDatabase.database, directory)).rejects.toThrow(
        /Migration 0002_broken\.sql failed: .*table_that_does_not_exist/,
      );
      const tables = await testDatabase.database.db.execute<{ name: string }>(
        sql`SELECT table_name AS name FROM information_schema.tables
            WHERE table_name IN ('first_table', 'second_table') ORDER BY 1`,
      );
      expect(tables.rows.map((row) => row.name)).toEqual(['first_table']);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('refuse to continue when an applied migration file was edited', async () => {
    testDatabase = await createTestDatabase({ kind, migrate: false });
    const directory = await mkdtemp(join(tmpdir(), 'mp-migrations-'));
    try {
      await writeFile(join(directory, '0001_first.sql'), 'CREATE TABLE first_table (id integer);');
      await migrate(testDatabase.database, directory);
      await writeFile(join(directory, '0001_first.sql'), 'CREATE TABLE first_table (id bigint);');
      const attempt = migrate(testDatabase.database, directory);
      await expect(attempt).rejects.toBeInstanceOf(MigrationError);
      await expect(attempt).rejects.toThrow(/Add a new migration instead of editing an applied one/);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});

describe('migration files', () => {
  it('are rejected when misnamed', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'mp-migrations-'));
    try {
      await writeFile(join(directory, '1_first.sql'), 'SELECT 1;');
      await expect(readMigrations(directory)).rejects.toThrow(/is not named NNNN_lower_case_name\.sql/);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
