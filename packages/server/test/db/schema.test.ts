import { is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as schema from '../../src/db/schema';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './test-database';

// Starting PGlite and applying the migrations takes seconds on a busy machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const tables = (Object.values(schema) as unknown[]).filter((value): value is PgTable => is(value, PgTable));

interface ColumnRow extends Record<string, unknown> {
  table_name: string;
  column_name: string;
  type: string;
  not_null: boolean;
}

describe.each(DATABASE_KINDS)('the Drizzle schema on %s', (kind) => {
  let testDatabase: TestDatabase;
  beforeAll(async () => {
    testDatabase = await createTestDatabase({ kind });
  });
  afterAll(async () => {
    await testDatabase.dispose();
  });

  it('has the tables, columns, types and nullability the migrations create (a partitioned table once, not per partition)', async () => {
    const result = await testDatabase.database.db.execute<ColumnRow>(sql`
      SELECT c.relname AS table_name, a.attname AS column_name,
             format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null
      FROM pg_attribute a
      JOIN pg_class c ON c.oid = a.attrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
        AND a.attnum > 0 AND NOT a.attisdropped
        AND c.relname <> 'schema_migrations'`);
    const inDatabase = result.rows
      .map((row) => `${row.table_name}.${row.column_name} ${row.type}${row.not_null ? ' not null' : ''}`)
      .sort();
    const inSchema = tables
      .flatMap((table) => {
        const config = getTableConfig(table);
        return config.columns.map(
          (column) =>
            `${config.name}.${column.name} ${normaliseType(column.getSQLType())}${column.notNull ? ' not null' : ''}`,
        );
      })
      .sort();
    expect(inDatabase).toContain('plugins.search_vector tsvector not null');
    expect(inSchema).toEqual(inDatabase);
  });

  it('names every index the migrations create', async () => {
    const result = await testDatabase.database.db.execute<{ name: string }>(sql`
      SELECT i.indexname AS name FROM pg_indexes i
      JOIN pg_class c ON c.relname = i.tablename AND c.relnamespace = current_schema()::regnamespace
      WHERE i.schemaname = current_schema() AND NOT c.relispartition
        AND i.indexname NOT LIKE '%_pkey' AND i.indexname NOT LIKE '%_key'`);
    const inSchema = tables.flatMap((table) =>
      getTableConfig(table).indexes.map((index) => index.config.name),
    );
    expect(inSchema).toContain('plugins_name_trgm_idx');
    expect(inSchema.sort()).toEqual(result.rows.map((row) => row.name).sort());
  });
});

/** `serial` is integer with a sequence default; format_type() shows the integer. */
function normaliseType(type: string): string {
  if (type === 'serial') return 'integer';
  return type === 'bigserial' ? 'bigint' : type;
}
