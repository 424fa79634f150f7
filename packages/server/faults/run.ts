/**
 * `pnpm test:faults`: the reliability suite (issue 20). Runs each fault driver in turn against the real
 * server on loopback, prints a report of figures, and exits 1 when any rule was broken. See README.md here
 * for the drivers, their rules and every setting (FAULTS_*).
 *
 * Two profiles: by default the short one CI runs (every driver, small counts and durations, every rule
 * still checked, about 6 minutes on two cores), and with `--full` the counts and durations (about 30
 * minutes, 20 of them the soak) for a release or after a change to a driver's area.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_SDK_DIR } from '../src/sdk-hosting';
import { DEFAULT_SITE_DIR } from '../src/site-hosting';
import { runDatabaseFaults } from './database-faults';
import { runDiskFull } from './disk-full';
import { runFuzz } from './fuzz';
import { runKillUploads } from './kill-uploads';
import { runSlowClients } from './slow-clients';
import { runSoak } from './soak';
import { envNumber, type DriverResult } from './support';

const full = process.argv.slice(2).includes('--full');
/** The value with `--full`, else the short profile's; FAULTS_<NAME> overrides both. */
const setting = (name: string, fullValue: number, shortValue: number) =>
  envNumber(name, full ? fullValue : shortValue);

const DRIVERS: Record<string, () => Promise<DriverResult[]>> = {
  fuzz: async () => [
    await runFuzz({
      runsPerGroup: setting('FAULTS_FUZZ_RUNS', 10_000, 300),
      seed: envNumber('FAULTS_FUZZ_SEED', Date.now() % 1_000_000_007),
      concurrency: setting('FAULTS_FUZZ_CONCURRENCY', 4, 4),
      groups: (process.env.FAULTS_FUZZ_GROUPS ?? '')
        .split(',')
        .map((group) => group.trim())
        .filter(Boolean),
    }),
  ],
  kill: async () => {
    const common = {
      concurrency: setting('FAULTS_KILL_CONCURRENCY', 6, 4),
      minUpMs: setting('FAULTS_KILL_MIN_UP_MS', 500, 1000),
      maxUpMs: setting('FAULTS_KILL_MAX_UP_MS', 4000, 2500),
      minArchiveBytes: 20_000,
      maxArchiveBytes: setting('FAULTS_KILL_MAX_ARCHIVE_BYTES', 3_000_000, 1_000_000),
    };
    const results = [
      await runKillUploads({ ...common, database: 'postgres', kills: setting('FAULTS_KILLS', 10, 2) }),
    ];
    const pgliteKills = setting('FAULTS_KILLS_PGLITE', 4, 1);
    if (pgliteKills > 0)
      results.push(await runKillUploads({ ...common, database: 'pglite', kills: pgliteKills }));
    return results;
  },
  database: async () => [
    await runDatabaseFaults({
      durationMs: setting('FAULTS_DB_SECONDS', 60, 12) * 1000,
      minGapMs: setting('FAULTS_DB_MIN_GAP_MS', 1000, 1000),
      maxGapMs: setting('FAULTS_DB_MAX_GAP_MS', 4000, 2500),
      concurrency: setting('FAULTS_DB_CONCURRENCY', 4, 3),
    }),
  ],
  disk: async () => [
    await runDiskFull({ database: 'postgres', diskMb: setting('FAULTS_DISK_MB', 20, 20) }),
    // PGlite keeps its database on the same disk: 43 MB of it before a byte is uploaded.
    await runDiskFull({ database: 'pglite', diskMb: setting('FAULTS_DISK_MB_PGLITE', 80, 80) }),
  ],
  slow: async () => [
    await runSlowClients({
      clients: setting('FAULTS_SLOW_CLIENTS', 200, 45),
      downloadMb: setting('FAULTS_SLOW_DOWNLOAD_MB', 20, 10),
      idleSeconds: setting('FAULTS_SLOW_IDLE_SECONDS', 60, 10),
      p99LimitMs: setting('FAULTS_SLOW_P99_MS', 1000, 1000),
    }),
  ],
  soak: async () => {
    const minutes = setting('FAULTS_SOAK_MINUTES', 20, 5);
    return [
      await runSoak({
        durationMs: minutes * 60_000,
        // A quarter of the soak: JIT, caches and pools filling (the first minute and a half of the short one).
        warmUpMs: setting('FAULTS_SOAK_WARM_UP_SECONDS', minutes * 15, 90) * 1000,
        requestsPerSecond: setting('FAULTS_SOAK_RPS', 20, 10),
        sampleMs: setting('FAULTS_SOAK_SAMPLE_SECONDS', 10, 5) * 1000,
        // Three and a half minutes judge a coarser slope than twenty: the garbage collector's saw-tooth weighs
        // more in a short line.
        maxSlopeMbPerHour: setting('FAULTS_SOAK_MAX_SLOPE_MB_H', 60, 300),
      }),
    ];
  },
};

/**
 * The server serves the site and the widget SDK from their builds and answers 503 without them, which the
 * fuzzing driver would count against it: a clean clone builds them first (`pnpm build`), as `pnpm start`
 * does. An existing build is used as it is (`pnpm test` builds before running this beside the browser tests).
 */
function buildWhenMissing(): boolean {
  const builds = [join(DEFAULT_SITE_DIR, 'index.html'), join(DEFAULT_SDK_DIR, 'mp-widget.js')];
  if (builds.every((file) => existsSync(file))) return true;
  console.log('[faults] The site or the widget SDK is not built: building them (pnpm build)...');
  const root = fileURLToPath(new URL('../../..', import.meta.url));
  // Under `pnpm run`, npm_execpath is pnpm itself (also when pnpm came through npx).
  const pnpm = process.env.npm_execpath;
  const result = pnpm
    ? spawnSync(process.execPath, [pnpm, 'build'], { cwd: root, stdio: 'inherit' })
    : spawnSync('pnpm', ['build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status === 0) return true;
  console.error('[faults] pnpm build failed; see above.');
  return false;
}

async function main(): Promise<number> {
  const chosen = (process.env.FAULTS ?? Object.keys(DRIVERS).join(','))
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = chosen.filter((name) => !(name in DRIVERS));
  if (unknown.length > 0) {
    console.error(
      `Unknown fault driver(s): ${unknown.join(', ')}. Known: ${Object.keys(DRIVERS).join(', ')}.`,
    );
    return 2;
  }
  if (!buildWhenMissing()) return 1;
  const allowSkip = ['1', 'true', 'yes'].includes((process.env.FAULTS_ALLOW_SKIP ?? '').toLowerCase());
  const results: DriverResult[] = [];
  const suiteStarted = Date.now();
  console.log(
    full
      ? '[faults] The full profile: the counts and durations of the reliability issue.'
      : "[faults] The short profile of CI: every driver and rule, small counts (--full for the issue's).",
  );
  // The soak is steady traffic against a server of its own: in the short profile it runs beside the other
  // drivers, so that it gets minutes enough for memory to settle within the suite's six, and meets the load a
  // busy node meets. The full profile runs every driver alone.
  const alongside: string[] = full ? [] : chosen.filter((name) => name === 'soak');
  const inTurn = chosen.filter((name) => !alongside.includes(name));
  const runDriver = async (name: string): Promise<DriverResult[]> => {
    const started = Date.now();
    console.log(`\n[faults] ${name}: running...`);
    let produced: DriverResult[];
    try {
      produced = await DRIVERS[name]!();
    } catch (error) {
      produced = [
        {
          name,
          figures: {},
          failures: [`The driver itself failed: ${(error as Error).stack ?? String(error)}`],
        },
      ];
    }
    for (const result of produced) {
      // Drivers that run twice (PostgreSQL and PGlite) time themselves; the others are timed here.
      result.durationMs ??= Date.now() - started;
      results.push(result);
      printResult(result);
    }
    return produced;
  };
  const besides = Promise.all(alongside.map(runDriver));
  for (const name of inTurn) await runDriver(name);
  await besides;

  const broken = results.filter((result) => result.failures.length > 0 || (result.skipped && !allowSkip));
  console.log('\n=== Fault suite report ===');
  for (const result of results) {
    const verdict = result.skipped
      ? `SKIPPED (${result.skipped})`
      : result.failures.length
        ? 'FAILED'
        : 'passed';
    console.log(`${verdict.padEnd(8)} ${result.name} (${Math.round((result.durationMs ?? 0) / 1000)} s)`);
  }
  console.log(
    `Faults: ${results.length} run(s), ${results.length - broken.length} passed, ${broken.length} failed, ` +
      `${Math.round((Date.now() - suiteStarted) / 60_000)} min`,
  );
  if (process.env.FAULTS_REPORT) {
    await writeFile(process.env.FAULTS_REPORT, `${JSON.stringify(results, null, 2)}\n`);
    console.log(`The report is also in ${process.env.FAULTS_REPORT}.`);
  }
  return broken.length > 0 ? 1 : 0;
}

function printResult(result: DriverResult): void {
  console.log(`\n--- ${result.name} ---`);
  if (result.skipped) console.log(`  skipped: ${result.skipped}`);
  const width = Math.max(0, ...Object.keys(result.figures).map((key) => key.length));
  for (const [key, value] of Object.entries(result.figures)) console.log(`  ${key.padEnd(width)}  ${value}`);
  for (const failure of result.failures) console.log(`  BROKEN: ${failure}`);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
