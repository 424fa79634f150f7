import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { DatabaseConnection } from './client';

export const MIGRATIONS_DIRECTORY = fileURLToPath(new URL('./migrations/', import.meta.url));

/** Any fixed number; every migrator takes this lock so that two servers starting at once take turns. */
const MIGRATION_LOCK_KEY = 7_214_530_001;

const MIGRATION_FILE = /^(\d{4})_([a-z0-9_]+)\.sql$/;

export interface Migration {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

export async function readMigrations(directory = MIGRATIONS_DIRECTORY): Promise<Migration[]> {
  const files = (await readdir(directory)).filter((file) => file.endsWith('.sql')).sort();
  const migrations: Migration[] = [];
  for (const file of files) {
    const match = MIGRATION_FILE.exec(file);
    if (!match) {
      throw new MigrationError(`Migration file ${file} is not named NNNN_lower_case_name.sql.`);
    }
    const version = Number(match[1]);
    const previous = migrations.at(-1);
    if (previous?.version === version) {
      throw new MigrationError(`Migrations ${previous.name} and ${file} share the number ${match[1]}.`);
    }
    const sql = await readFile(`${directory}/${file}`, 'utf8');
    const checksum = createHash('sha256').update(sql).digest('hex');
    migrations.push({ version, name: file, sql, checksum });
  }
  return migrations;
}

export interface MigrateResult {
  /** File names applied by this call, in order. */
  applied: string[];
}

/**
 * Applies every migration not yet recorded in `schema_migrations`, each in its own transaction that first
 * takes an advisory lock, so concurrent migrators wait for each other and apply each file exactly once.
 * A recorded migration whose file has changed since is an error: the schema it describes is not the one
 * the database has. An aborted `signal` (the server stopping) stops it between two files.
 */
export async function migrate(
  database: DatabaseConnection,
  directory = MIGRATIONS_DIRECTORY,
  signal?: AbortSignal,
): Promise<MigrateResult> {
  const migrations = await readMigrations(directory);
  const applied: string[] = [];
  for (const migration of migrations) {
    signal?.throwIfAborted();
    const didApply = await database.inScriptTransaction(async (exec) => {
      await exec(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY});
        CREATE TABLE IF NOT EXISTS schema_migrations (
          version integer PRIMARY KEY,
          name text NOT NULL,
          checksum text NOT NULL,
          applied_at timestamptz NOT NULL DEFAULT now()
        );`);
      const recorded = await exec(
        `SELECT name, checksum FROM schema_migrations WHERE version = ${migration.version}`,
      );
      const row = recorded[0];
      if (row) {
        if (row.name !== migration.name || row.checksum !== migration.checksum) {
          throw new MigrationError(
            `Migration ${migration.version} was applied as ${String(row.name)} but the file ${migration.name} ` +
              'now has other contents. Add a new migration instead of editing an applied one.',
          );
        }
        return false;
      }
      try {
        await exec(migration.sql);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new MigrationError(`Migration ${migration.name} failed: ${reason}`, { cause: error });
      }
      await exec(
        `INSERT INTO schema_migrations (version, name, checksum) VALUES (${migration.version}, ` +
          `${quoteLiteral(migration.name)}, ${quoteLiteral(migration.checksum)})`,
      );
      return true;
    });
    if (didApply) applied.push(migration.name);
  }
  return { applied };
}

/** The names are checked against MIGRATION_FILE and checksums are hex, so this only guards the quoting. */
function quoteLiteral(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}
