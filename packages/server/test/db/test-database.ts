import { createHash, randomBytes } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase, type DatabaseConnection, type DatabaseKind } from '../../src/db/client';
import { migrate, readMigrations } from '../../src/db/migrate';

/** The PostgreSQL server of the test machines and CI: trust authentication, user postgres. */
export const TEST_POSTGRES_ADMIN_URL =
  process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export const DATABASE_KINDS: readonly DatabaseKind[] = ['pglite', 'postgres'];

export interface TestDatabase {
  readonly database: DatabaseConnection;
  readonly kind: DatabaseKind;
  /** PostgreSQL only: the URL of the fresh database, to open more connections to it. */
  readonly databaseUrl: string | undefined;
  /** Closes the connection and, on PostgreSQL, drops the database. */
  dispose(): Promise<void>;
}

export interface TestDatabaseOptions {
  /** Default: `TEST_DATABASE=postgres` selects PostgreSQL, anything else PGlite in memory. */
  kind?: DatabaseKind;
  /** Apply the migrations first (default true). */
  migrate?: boolean;
}

/** The kind chosen by the environment: CI runs the suite once more with TEST_DATABASE=postgres. */
export function defaultTestDatabaseKind(): DatabaseKind {
  return process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'pglite';
}

/** A fresh, empty database of its own for one test or suite: PGlite in memory, or a new PostgreSQL database. */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const kind = options.kind ?? defaultTestDatabaseKind();
  let testDatabase: TestDatabase;
  const migrated = options.migrate ?? true;
  if (kind === 'pglite') {
    // Migrated PGlite databases start from a copy made once (migratedPgliteDump); `migrate` below then
    // finds nothing to apply.
    const initialDump = migrated ? await migratedPgliteDump() : undefined;
    const database = await openDatabase({ dataDir: '', inMemory: true, initialDump });
    testDatabase = { database, kind, databaseUrl: undefined, dispose: () => database.close() };
  } else {
    testDatabase = await createPostgresTestDatabase();
  }
  if (migrated) {
    try {
      await migrate(testDatabase.database);
    } catch (error) {
      await testDatabase.dispose();
      throw error;
    }
  }
  return testDatabase;
}

async function createPostgresTestDatabase(): Promise<TestDatabase> {
  const name = `mp_test_${Date.now().toString(36)}_${randomBytes(6).toString('hex')}`;
  await withAdminClient((admin) => admin.query(`CREATE DATABASE ${name}`));
  const url = new URL(TEST_POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  let database: DatabaseConnection;
  try {
    database = await openDatabase({ databaseUrl, dataDir: '', maxConnections: 4 });
  } catch (error) {
    await dropPostgresDatabase(name);
    throw error;
  }
  return {
    database,
    kind: 'postgres',
    databaseUrl,
    dispose: async () => {
      await database.close();
      await dropPostgresDatabase(name);
    },
  };
}

async function dropPostgresDatabase(name: string): Promise<void> {
  await withAdminClient((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

async function withAdminClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

let migratedDump: Promise<Blob> | undefined;

/** The dump below, read or made once per test file (a file may open several databases). */
function migratedPgliteDump(): Promise<Blob> {
  migratedDump ??= readOrMakeMigratedPgliteDump().catch((error: unknown) => {
    migratedDump = undefined;
    throw error;
  });
  return migratedDump;
}

/**
 * A dump of an in-memory PGlite database with every migration applied, made once per set of migration files
 * (and PGlite version) and kept in the system's temporary folder: creating a PGlite database and migrating
 * it takes about 3.5 s on the test machines, loading the dump 0.7 s, and the suite makes hundreds. The
 * migrations themselves are still applied for real: here, and by test/db/migrate.test.ts.
 */
async function readOrMakeMigratedPgliteDump(): Promise<Blob> {
  const migrations = await readMigrations();
  // The package's own version (its exports hide package.json): a new PGlite may not read an older dump.
  const pgliteEntry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const pglitePackage = pgliteEntry.slice(0, pgliteEntry.lastIndexOf('/dist/'));
  const pgliteVersion = (
    JSON.parse(await readFile(join(pglitePackage, 'package.json'), 'utf8')) as { version: string }
  ).version;
  const key = createHash('sha256')
    .update(pgliteVersion)
    .update(migrations.map((migration) => `${migration.name}:${migration.checksum}`).join('\n'))
    .digest('hex')
    .slice(0, 16);
  const file = join(tmpdir(), `marketplace-test-pglite-${key}.tar`);
  const kept = await readFile(file).catch(() => undefined);
  if (kept) return new Blob([kept]);

  const database = await openDatabase({ dataDir: '', inMemory: true });
  try {
    await migrate(database);
    const client = (database.db as unknown as { $client: PGlite }).$client;
    const dump = await client.dumpDataDir('none');
    // Written under a name of its own and renamed: two test workers may make it at once.
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    await writeFile(partial, new Uint8Array(await dump.arrayBuffer()));
    await rename(partial, file);
    return dump;
  } finally {
    await database.close();
  }
}
