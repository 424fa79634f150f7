import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DatabaseConnection, type DatabaseKind } from '../../src/db/client';
import { migrate } from '../../src/db/migrate';

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
  if (kind === 'pglite') {
    const database = await openDatabase({ dataDir: '', inMemory: true });
    testDatabase = { database, kind, databaseUrl: undefined, dispose: () => database.close() };
  } else {
    testDatabase = await createPostgresTestDatabase();
  }
  if (options.migrate ?? true) {
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
