import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { migrate } from '../../db/migrate';
import {
  DEFAULT_DEMO_PLUGIN_COUNT,
  DEFAULT_DEMO_SEED,
  isCatalogueEmpty,
  loadDemoCatalogue,
} from '../../demo';
import { storageConfigFromEnv } from '../../config';
import { openFileStore } from '../../storage';
import { databaseLocation, openConfiguredDatabase, UsageError, type Command } from '../command';

/** More than this is not a demo any more; it also bounds the time and disk a typo can cost. */
const MAX_PLUGINS = 1_000_000;

export const seedCommand: Command = {
  name: 'seed',
  summary: 'Fill the database with a generated demo catalogue (for demos and benchmarks)',
  usage: `Usage: mp seed [--plugins N] [--seed N] [--today YYYY-MM-DD] [--replace]

Generates a deterministic catalogue (items of every family, versions with real plugin archives, a year
of daily downloads, reviews, featured items) and loads it into the database: DATABASE_URL when set,
otherwise the embedded database in DATA_DIR (default ./.data). Files go to DATA_DIR/files, or to
the S3 bucket when S3_BUCKET is set (as for the server).

Options:
  --plugins N        how many items (default ${DEFAULT_DEMO_PLUGIN_COUNT})
  --seed N           the random seed; the same seed gives the same catalogue (default ${DEFAULT_DEMO_SEED})
  --today YYYY-MM-DD the last day of the download history (default: today)
  --replace          delete the existing catalogue, users included, before loading (otherwise the
                     database must be empty)`,
  async run(args, io) {
    const options = parseSeedArguments(args);
    const location = databaseLocation(io);
    // The server's file store: the S3 bucket when S3_BUCKET is set, else DATA_DIR/files.
    const fileStore = await openFileStore(
      { dataDir: location.dataDir, storage: storageConfigFromEnv(io.env) },
      { deferDurability: true },
    );
    const database = await openConfiguredDatabase(location);
    try {
      await migrate(database);
      if (!(await isCatalogueEmpty(database.db))) {
        if (!options.replace) {
          throw new UsageError(
            `${location.description} already holds a catalogue. Run with --replace to delete it first, ` +
              'or point DATABASE_URL / DATA_DIR at an empty database.',
          );
        }
        io.err(`Deleting the catalogue in ${location.description}...`);
        await database.db.execute(
          sql`TRUNCATE users, vendors, tags, plugins, plugin_versions, reviews, insight_events, insight_daily,
            insight_daily_by_dimension RESTART IDENTITY CASCADE`,
        );
      }
      io.err(`Seeding ${options.plugins} items into ${location.description}...`);
      const started = performance.now();
      let lastReport = started;
      const result = await loadDemoCatalogue(database, fileStore, {
        plugins: options.plugins,
        seed: options.seed,
        today: options.today,
        onProgress: (loaded, total) => {
          const now = performance.now();
          if (now - lastReport < 2000 && loaded < total) return;
          lastReport = now;
          io.err(`  ${loaded} / ${total} items (${((now - started) / 1000).toFixed(1)} s)`);
        },
      });
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      io.out(
        `Seeded ${result.plugins} items, ${result.versions} versions, ${result.reviews} reviews, ` +
          `${result.downloadCounters} daily download counters, ${result.users} users and ${result.files} files ` +
          `in ${seconds} s.`,
      );
      return 0;
    } finally {
      await database.close();
    }
  },
};

interface SeedOptions {
  plugins: number;
  seed: number;
  today: Date | undefined;
  replace: boolean;
}

function parseSeedArguments(args: string[]): SeedOptions {
  let values: { plugins?: string; seed?: string; today?: string; replace?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        plugins: { type: 'string' },
        seed: { type: 'string' },
        today: { type: 'string' },
        replace: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return {
    plugins: wholeNumber('--plugins', values.plugins, DEFAULT_DEMO_PLUGIN_COUNT, 1, MAX_PLUGINS),
    seed: wholeNumber('--seed', values.seed, DEFAULT_DEMO_SEED, 0, 2 ** 31 - 1),
    today: values.today === undefined ? undefined : parseDay(values.today),
    replace: values.replace ?? false,
  };
}

function wholeNumber(
  name: string,
  text: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (text === undefined) return fallback;
  const cleaned = text.replaceAll('_', '');
  const value = /^\d+$/.test(cleaned) ? Number(cleaned) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(`${name} must be a whole number from ${min} to ${max}, got "${text}".`);
  }
  return value;
}

function parseDay(text: string): Date {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(text) ? new Date(`${text}T00:00:00Z`) : undefined;
  if (!day || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== text) {
    throw new UsageError(`--today must be a date written YYYY-MM-DD, got "${text}".`);
  }
  return day;
}
