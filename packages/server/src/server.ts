import { buildApp } from './app';
import { connectRateLimitStore } from './auth/plugin';
import { describeDemoAccounts, setDemoPasswords } from './auth';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase, type DatabaseConnection } from './db/client';
import { migrate } from './db/migrate';
import { DatabaseInUseError } from './db/directory-lock';
import { DemoCatalogueError, isCatalogueEmpty, loadDemoCatalogue } from './demo';
import { openFileStore } from './storage';
import { signingIdentity, signingOptionsFromEnv } from './trust/signing-key';

/**
 * The server's entry: configuration from the environment, the database (embedded PGlite in DATA_DIR, or
 * PostgreSQL at DATABASE_URL) migrated, the demo catalogue loaded into an empty database unless opted out,
 * then the HTTP server. Stops cleanly on SIGINT/SIGTERM.
 */
async function start(config: Config): Promise<void> {
  // The file store first: a bucket that cannot be used stops the start before the database is touched.
  if (config.storage.s3) {
    console.log(`Checking the S3 bucket "${config.storage.s3.bucket}" for files...`);
  }
  const fileStore = await openFileStore(config);
  // So is a configured Redis that cannot be used (the rate limits every node shares).
  if (config.auth.redisUrl) (await connectRateLimitStore(config.auth.redisUrl)).disconnect();
  const where = config.databaseUrl
    ? 'PostgreSQL (DATABASE_URL)'
    : `the embedded database in ${config.dataDir}`;
  console.log(`Opening ${where}...`);
  const database: DatabaseConnection = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
  }).catch((error: unknown) => {
    throw config.databaseUrl ? unusableDatabase(config.databaseUrl, error) : error;
  });
  try {
    const { applied } = await migrate(database);
    if (applied.length > 0) console.log(`Applied migrations: ${applied.join(', ')}`);

    if (config.loadDemo && (await isCatalogueEmpty(database.db))) {
      console.log(
        'The catalogue is empty: loading the demo catalogue (opt out with --no-demo or DEMO=false)...',
      );
      try {
        const loaded = await loadDemoCatalogue(database, fileStore);
        console.log(
          `Loaded ${loaded.plugins} demo items, ${loaded.versions} versions and ${loaded.reviews} reviews.`,
        );
        console.log(describeDemoAccounts(await setDemoPasswords(database.db), config.publicUrl));
      } catch (error) {
        // Another server process sharing this database loaded it first: the catalogue is there, go on.
        if (!(error instanceof DemoCatalogueError)) throw error;
        console.log(`The demo catalogue was not loaded here: ${error.message}`);
      }
    }

    const app = await buildApp({
      database,
      fileStore,
      config,
      logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    });
    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      console.log(`${signal}: stopping...`);
      await app.close();
      await database.close();
      process.exit(0);
    };
    process.on('SIGINT', () => void stop('SIGINT'));
    process.on('SIGTERM', () => void stop('SIGTERM'));

    // The countersigning key is read, or made once for a new database (an RSA key takes a few seconds on a
    // busy machine), before the server answers: no upload waits for it.
    await signingIdentity(database.db, signingOptionsFromEnv(), config.publicUrl);

    // One address in the log and on the console: the public one, which sign-in returns to.
    await app.listen({
      port: config.port,
      host: config.host,
      listenTextResolver: () => `Server listening; the marketplace is at ${config.publicUrl}`,
    });
    console.log(`The marketplace is serving at ${config.publicUrl}`);
    // The search index and the IDE feed are read in the background; answers arriving meanwhile wait for that
    // same read. The feed follows the index, so the first searches do not wait for the feed's fragments.
    app.catalogueSearch
      .prepare()
      .catch((error: unknown) => app.log.error({ err: error }, 'The search index could not be built.'))
      .then(() => app.ideFeed.prepare())
      .catch((error: unknown) => app.log.error({ err: error }, 'The IDE feed could not be built.'));
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }
}

/** A PostgreSQL server that cannot be reached or refuses the connection: one line naming the setting. */
function unusableDatabase(databaseUrl: string, error: unknown): ConfigError {
  let where = 'the server it names';
  try {
    const url = new URL(databaseUrl);
    where = `${url.hostname}:${url.port || '5432'}${url.pathname}`;
  } catch {
    // pg reads forms URL does not; its own message says what is wrong.
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new ConfigError(`DATABASE_URL (${where}) cannot be used (${reason}): check DATABASE_URL.`);
}

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`Cannot start: ${error.message}`);
    process.exit(2);
  }
  throw error;
}

start(config).catch((error: unknown) => {
  const code = (error as { code?: string }).code;
  if (code === 'EADDRINUSE') {
    console.error(`Cannot start: port ${config.port} on ${config.host} is in use. Set PORT to another port.`);
  } else if (error instanceof DatabaseInUseError || error instanceof ConfigError) {
    // ConfigError here: a setting checked against the world at start (an S3 bucket that cannot be used).
    console.error(`Cannot start: ${error.message}`);
  } else {
    console.error('Cannot start:', error);
  }
  process.exit(1);
});
