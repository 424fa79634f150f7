import { buildApp } from './app';
import { connectRateLimitStore } from './auth/plugin';
import { describeDemoAccounts, setDemoPasswords } from './auth';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase, type DatabaseConnection } from './db/client';
import { migrate, MIGRATIONS_DIRECTORY } from './db/migrate';
import { DatabaseInUseError } from './db/directory-lock';
import { DemoCatalogueError, isCatalogueEmpty, loadDemoCatalogue } from './demo';
import { closeApp, GracefulStop, REQUEST_GRACE_MS } from './process/graceful-stop';
import { openFileStore } from './storage';
import { signingIdentity, signingOptionsFromEnv } from './trust/signing-key';

/**
 * The server's entry: configuration from the environment, the database (embedded PGlite in DATA_DIR, or
 * PostgreSQL at DATABASE_URL) migrated, the demo catalogue loaded into an empty database unless opted out,
 * then the HTTP server. Stops on SIGINT/SIGTERM within a deadline, also during start-up
 * (src/process/graceful-stop.ts).
 */
async function start(config: Config, stop: GracefulStop): Promise<void> {
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
  const opening = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  // Added before it opens: a signal while PGlite starts (seconds, for a new database) closes it once open,
  // rather than leaving its lock file. Closed last, after everything that uses it.
  stop.add('the database', async () => (await opening.catch(() => undefined))?.close());
  const database: DatabaseConnection = await opening.catch((error: unknown) => {
    throw config.databaseUrl ? unusableDatabase(config.databaseUrl, error) : error;
  });
  // Creating a new embedded database is one call of PGlite's that no signal interrupts (seconds on two
  // cores): a stop asked for meanwhile begins here, and the line tells when.
  console.log('The database is open.');
  const { signal } = stop;
  try {
    // A stop asked for during start-up ends it after the current step (a migration file, a batch of the
    // demo catalogue), each in a transaction of its own that is rolled back if cut short.
    const { applied } = await migrate(database, MIGRATIONS_DIRECTORY, signal);
    if (applied.length > 0) console.log(`Applied migrations: ${applied.join(', ')}`);
    signal.throwIfAborted();

    if (config.loadDemo && (await isCatalogueEmpty(database.db))) {
      console.log(
        'The catalogue is empty: loading the demo catalogue (opt out with --no-demo or DEMO=false)...',
      );
      try {
        const loaded = await loadDemoCatalogue(database, fileStore, { signal });
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

    signal.throwIfAborted();
    const app = await buildApp({
      database,
      fileStore,
      config,
      logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    });
    stop.add('the HTTP server and the application', (note) => closeApp(app, REQUEST_GRACE_MS, note));

    // The countersigning key is read, or made once for a new database (an RSA key takes a few seconds on a
    // busy machine), before the server answers: no upload waits for it.
    await signingIdentity(database.db, signingOptionsFromEnv(), config.publicUrl);
    signal.throwIfAborted();

    // One address in the log and on the console: the public one, which sign-in returns to.
    await app.listen({
      port: config.port,
      host: config.host,
      listenTextResolver: () => `Server listening; the marketplace is at ${config.publicUrl}`,
    });
    console.log(`The marketplace is serving at ${config.publicUrl}`);
    // The search index and the IDE feed are read in the background; answers arriving meanwhile wait for that
    // same read. The feed follows the index, so the first searches do not wait for the feed's fragments.
    // A stop ends the preparation (closing them, src/db/catalogue-follower.ts) rather than waiting for it.
    app.catalogueSearch
      .prepare()
      .catch((error: unknown) => app.log.error({ err: error }, 'The search index could not be built.'))
      .then(() => app.ideFeed.prepare())
      .catch((error: unknown) => app.log.error({ err: error }, 'The IDE feed could not be built.'));
  } catch (error) {
    // Stopping: the stop closes the database and exits; otherwise start-up failed.
    if (signal.aborted) return;
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

// First, so that a signal during start-up stops it too.
const stop = new GracefulStop().listen();

start(config, stop).catch((error: unknown) => {
  // A stop during start-up ends what start-up was doing with an error; the stop itself exits.
  if (stop.signal.aborted) return;
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
