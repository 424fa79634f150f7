import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Assume } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzleNodePostgres } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { ConnectionUsage } from './connection-usage';
import { lockDirectory } from './directory-lock';
import { listenForNotifications, type NotificationListener, type NotificationOptions } from './notifications';
import * as schema from './schema';

export { schema };
export type Schema = typeof schema;

/** What both drivers answer to `execute`: a result with the rows (PGlite's Results, node-postgres's QueryResult). */
export interface RowsQueryResultHKT extends PgQueryResultHKT {
  type: RowsResult<Assume<this['row'], Record<string, unknown>>>;
}

export interface RowsResult<Row> {
  rows: Row[];
}

/** The Drizzle database, whichever driver is underneath (both extend PgDatabase). */
export type Database = PgDatabase<RowsQueryResultHKT, Schema>;

/** A transaction of {@link Database}, for helpers that must run inside a caller's transaction. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/** Something that runs queries: the database itself or an open transaction. */
export type Queryable = Database | Transaction;

export type DatabaseKind = 'pglite' | 'postgres';

/**
 * Runs a multi-statement SQL script inside one transaction on a single connection, after `prelude` (for
 * example an advisory lock). Drizzle's `execute` sends one statement per call through the extended
 * protocol, which a migration file with functions and triggers does not fit.
 */
export type ScriptRunner = <T>(
  body: (exec: (script: string) => Promise<Array<Record<string, unknown>>>) => Promise<T>,
) => Promise<T>;

export interface DatabaseConnection {
  readonly db: Database;
  readonly kind: DatabaseKind;
  /** Runs SQL scripts in one transaction; used by the migrator. */
  readonly inScriptTransaction: ScriptRunner;
  /** Pool use and query timing, for the performance figures (src/db/connection-usage.ts). */
  readonly usage?: ConnectionUsage;
  /**
   * PostgreSQL only: listens to notifications on a connection of its own (src/db/notifications.ts), so a
   * node hears at once what other nodes changed. The embedded database is one process's: nothing to hear.
   */
  readonly listen?: (options: NotificationOptions) => NotificationListener;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** A PostgreSQL connection string; without it the embedded PGlite is used. */
  databaseUrl?: string | undefined;
  /** PGlite keeps its files in `${dataDir}/pglite`. */
  dataDir: string;
  /** PGlite only: keep the database in memory (tests). */
  inMemory?: boolean;
  /**
   * PGlite in memory only: start from this copy of a database (PGlite's `dumpDataDir`) instead of an empty
   * one. Tests start from one made after the migrations, which costs a fraction of creating and migrating.
   */
  initialDump?: Blob;
  /** PostgreSQL only: the most connections the pool opens. */
  maxConnections?: number;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseConnection> {
  if (options.databaseUrl) {
    return openPostgres(options.databaseUrl, options.maxConnections ?? 10);
  }
  return openPglite(options.inMemory ? undefined : join(options.dataDir, 'pglite'), options.initialDump);
}

async function openPglite(directory: string | undefined, initialDump?: Blob): Promise<DatabaseConnection> {
  let unlock = async () => {};
  if (directory) {
    await mkdir(directory, { recursive: true });
    unlock = await lockDirectory(directory);
  }
  let client: PGlite;
  try {
    client = await PGlite.create(directory ?? 'memory://', {
      extensions: { pg_trgm },
      ...(initialDump && !directory ? { loadDataDir: initialDump } : {}),
    });
  } catch (error) {
    await unlock();
    throw error;
  }
  // One connection, queries one at a time: "waiting" is not known, the timing is.
  const usage = new ConnectionUsage(() => ({ kind: 'pglite', total: 1, idle: 0, waiting: 0, max: 1 }));
  client.query = usage.timed(client.query.bind(client));
  const transaction = client.transaction.bind(client);
  client.transaction = (callback) =>
    transaction((tx) => {
      tx.query = usage.timed(tx.query);
      return callback(tx);
    });
  const db: Database = drizzlePglite({ client, schema });
  return {
    db,
    kind: 'pglite',
    usage,
    inScriptTransaction: (body) =>
      client.transaction((tx) =>
        body(async (script) => {
          const results = await tx.exec(script);
          return results.at(-1)?.rows ?? [];
        }),
      ),
    close: async () => {
      await client.close();
      await unlock();
    },
  };
}

async function openPostgres(databaseUrl: string, maxConnections: number): Promise<DatabaseConnection> {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: maxConnections,
    // Short queries over large tables (statistics of a popular item) were costed high enough to be
    // JIT-compiled, which took longer than running them: measured with `pnpm bench insight`.
    options: '-c jit=off',
  });
  // An idle client losing its server connection must not crash the process; the pool replaces it.
  pool.on('error', (error) => console.error('PostgreSQL connection error:', error.message));
  // Nor may a checked-out one (a transaction waiting between two statements): pg-pool listens on idle
  // clients only, and an 'error' event without a listener ends the process. Its next query fails instead
  // (answered 503, src/outage.ts) and the pool drops it when it is released.
  pool.on('connect', (client) => {
    client.on('error', (error) => console.error('PostgreSQL connection lost:', error.message));
  });
  const usage = new ConnectionUsage(() => ({
    kind: 'postgres',
    total: pool.totalCount,
    idle: pool.idleCount,
    waiting: pool.waitingCount,
    max: maxConnections,
  }));
  // Each new connection's queries are timed (the pool's own query() goes through a connection's).
  pool.on('connect', (client) => {
    client.query = usage.timed(client.query.bind(client));
  });
  // Fail at start-up, with the server's own message, rather than at the first request.
  const probe = await pool.connect();
  probe.release();
  const db: Database = drizzleNodePostgres({ client: pool, schema });
  return {
    db,
    kind: 'postgres',
    usage,
    inScriptTransaction: async (body) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await body(async (script) => {
          const results: unknown = await client.query(script);
          const last = Array.isArray(results) ? results.at(-1) : results;
          return (last as pg.QueryResult<Record<string, unknown>> | undefined)?.rows ?? [];
        });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    listen: (options) => listenForNotifications(databaseUrl, options),
    close: () => pool.end(),
  };
}
