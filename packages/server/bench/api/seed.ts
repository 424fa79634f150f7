import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, type DatabaseConnection } from '../../src/db/client';
import { migrate, readMigrations } from '../../src/db/migrate';
import { DEFAULT_DEMO_SEED, loadDemoCatalogue } from '../../src/demo';
import type { FileStore } from '../../src/storage';

/** The day the benchmark catalogue's history ends on, fixed so every run measures the same data. */
export const BENCH_TODAY = new Date('2026-11-21T00:00:00Z');

/**
 * The API benchmark reads rows, not files: archives, icons and screenshots are hashed (so rows refer to
 * the same hashes as a real load) but not written, which keeps seeding bound by the database.
 */
const hashOnlyFileStore: FileStore = {
  async put(content) {
    const hash = createHash('sha256');
    let size = 0;
    if (content instanceof Uint8Array) {
      hash.update(content);
      size = content.length;
    } else {
      for await (const chunk of content) {
        hash.update(chunk as Buffer);
        size += (chunk as Buffer).length;
      }
    }
    return { hash: hash.digest('hex'), size };
  },
  async adopt(_path, file) {
    return file;
  },
  async open() {
    return undefined;
  },
  async has() {
    return false;
  },
  async remove() {
    return false;
  },
  async *list() {},
  async flush() {},
};

export interface SeededDatabase {
  /** DATABASE_URL for PostgreSQL, or undefined with dataDir for PGlite. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** True when this run loaded the catalogue (false: an earlier run's identical catalogue was reused). */
  seededNow: boolean;
  seedSeconds: number;
}

/**
 * Whether every migration the database recorded is still the file of that name (a changed file would stop
 * the server at start). New files are fine: the server applies them when it starts.
 */
async function migrationsStillMatch(
  recorded: readonly { name: string; checksum: string }[],
): Promise<boolean> {
  const files = new Map((await readMigrations()).map((migration) => [migration.name, migration.checksum]));
  return recorded.every((migration) => files.get(migration.name) === migration.checksum);
}

function marker(plugins: number): string {
  return `marketplace api benchmark: ${plugins} plugins, seed ${DEFAULT_DEMO_SEED}, today ${BENCH_TODAY.toISOString().slice(0, 10)}`;
}

async function load(
  database: DatabaseConnection,
  plugins: number,
  log: (line: string) => void,
): Promise<void> {
  await migrate(database);
  let lastReport = 0;
  await loadDemoCatalogue(database, hashOnlyFileStore, {
    plugins,
    today: BENCH_TODAY,
    batchSize: 500,
    onProgress(loaded, total) {
      const now = performance.now();
      if (now - lastReport < 15_000 && loaded < total) return;
      lastReport = now;
      log(`    ${loaded} / ${total} items`);
    },
  });
  // Loading updates each plugin row several times (tag, rating and download triggers), which leaves the
  // table several times its size in dead rows; a live database's autovacuum keeps it compact, so the
  // benchmark starts from a compacted table with fresh planner statistics.
  await database.db.execute(sql`VACUUM (FULL, ANALYZE) plugins`);
  await database.db.execute(sql`VACUUM ANALYZE`);
}

/**
 * A PostgreSQL database holding the demo catalogue with `plugins` items, created and seeded on the first
 * run and reused afterwards (its comment records what it holds), unless `reseed` is asked.
 */
export async function seedPostgres(
  adminUrl: string,
  plugins: number,
  reseed: boolean,
  log: (line: string) => void,
): Promise<SeededDatabase> {
  const name = `mp_bench_api_${plugins}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const existing = await admin.query<{ comment: string | null }>(
      `SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1`,
      [name],
    );
    const row = existing.rows[0];
    if (row && row.comment === marker(plugins) && !reseed) {
      const seeded = new pg.Client({ connectionString: url.toString() });
      await seeded.connect();
      const recorded = await seeded.query<{ name: string; checksum: string }>(
        'SELECT name, checksum FROM schema_migrations',
      );
      await seeded.end();
      if (await migrationsStillMatch(recorded.rows)) {
        log(`  PostgreSQL: reusing database ${name} (${marker(plugins)}).`);
        return { databaseUrl: url.toString(), dataDir: '', seededNow: false, seedSeconds: 0 };
      }
      log(`  PostgreSQL: a migration of ${name} has changed since it was seeded; seeding again.`);
    }
    if (row) await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  log(`  PostgreSQL: seeding ${plugins} items into ${name}...`);
  const started = performance.now();
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
  try {
    await load(database, plugins, log);
  } finally {
    await database.close();
  }
  const adminAfter = new pg.Client({ connectionString: adminUrl });
  await adminAfter.connect();
  await adminAfter.query(`COMMENT ON DATABASE ${name} IS '${marker(plugins)}'`);
  await adminAfter.end();
  return {
    databaseUrl: url.toString(),
    dataDir: '',
    seededNow: true,
    seedSeconds: (performance.now() - started) / 1000,
  };
}

/** The same for PGlite, in `${directory}/pglite-<plugins>`; a marker file says it is complete. */
export async function seedPglite(
  directory: string,
  plugins: number,
  reseed: boolean,
  log: (line: string) => void,
): Promise<SeededDatabase> {
  const dataDir = join(directory, `pglite-${plugins}`);
  const markerFile = join(dataDir, 'bench-catalogue.txt');
  if (!reseed && existsSync(markerFile) && (await readFile(markerFile, 'utf8')) === marker(plugins)) {
    const database = await openDatabase({ dataDir });
    const recorded = await database.db.execute(sql`SELECT name, checksum FROM schema_migrations`);
    await database.close();
    if (await migrationsStillMatch(recorded.rows as { name: string; checksum: string }[])) {
      log(`  PGlite: reusing ${dataDir} (${marker(plugins)}).`);
      return { databaseUrl: undefined, dataDir, seededNow: false, seedSeconds: 0 };
    }
    log(`  PGlite: a migration of ${dataDir} has changed since it was seeded; seeding again.`);
  }
  await rm(dataDir, { recursive: true, force: true });
  log(`  PGlite: seeding ${plugins} items into ${dataDir}...`);
  const started = performance.now();
  const database = await openDatabase({ dataDir });
  try {
    await load(database, plugins, log);
  } finally {
    await database.close();
  }
  await writeFile(markerFile, marker(plugins));
  return {
    databaseUrl: undefined,
    dataDir,
    seededNow: true,
    seedSeconds: (performance.now() - started) / 1000,
  };
}
