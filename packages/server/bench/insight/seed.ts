import pg from 'pg';
import { openDatabase } from '../../src/db/client';
import { migrate, readMigrations } from '../../src/db/migrate';
import { BENCH_TODAY } from '../api/seed';

/*
 * The insight benchmark's data: the daily roll-ups (`insight_daily`, `insight_daily_by_dimension`) of
 * `events` downloads and update checks over the `days` days before BENCH_TODAY, in a database of their own.
 *
 * Nothing is streamed from Node. PostgreSQL draws a catalogue of `plugins` items with a Zipf-like
 * popularity (weight rank^-1.1), then plans how many downloads and update checks each item has on each day.
 * The plan is popularity x a growing trend x weekdays and holidays x noise, with new items ramping up, and
 * its sum is corrected to exactly `events`. Then, day after day, two sessions at once each simulate a day's
 * events in a temporary table. Each event gets a version, channel, IDE product, build branch and country
 * from skewed mixes. The day is rolled up with the roll-up job's grouping (src/insight/rollup.ts): one row
 * per combination, plus GROUPING SETS for the total and each single dimension, sorted as the job's sorted
 * aggregation leaves them. The days are written to the roll-up tables strictly in day order, one after the
 * other, so the heap's physical layout is that of a live database.
 *
 * The indexes (primary keys and day indexes) are dropped during the load and built again afterwards, which
 * is much faster. So they are denser than indexes grown day by day would be. Then VACUUM ANALYZE runs.
 *
 * Unique downloaders: the simulation draws downloaders, not downloads. About one in ten downloads is a
 * downloader's second download of the day, in the same combination. A downloader therefore belongs to one
 * combination a day, and distinct counts are exact row counts without count(DISTINCT): each dimension's
 * daily uniques equal the total's. Downloads, installs and update checks of every dimension add up to the
 * day's total, as the job's do.
 *
 * Every random draw comes from random() after setseed (a fixed seed per phase and per day, parallel query
 * off), so the same version of this file always produces the same rows. A comment on the database records
 * what it holds; a later run with the same SEED_VERSION (and unchanged migrations) reuses it.
 */

/** Change when the data this file generates changes: a database of another version is dropped and seeded again. */
export const SEED_VERSION = 1;
export const BENCH_DATABASE = 'mp_bench_insight';
const MARKER_PREFIX = 'marketplace insight benchmark: ';
const DAY_MS = 86_400_000;

export interface InsightSeedOptions {
  /** A connection string to any database of the server (the bench database is created beside it). */
  adminUrl: string;
  reseed: boolean;
  log: (line: string) => void;
  plugins?: number;
  events?: number;
  days?: number;
  database?: string;
  /**
   * Keep the tables' indexes while the days are written (as the live job does). Off, they are dropped and
   * built again at the end, which is faster; the heap is written in day order either way.
   */
  keepIndexes?: boolean;
  /** Sessions simulating days at once (the machine's cores). */
  workers?: number;
}

export interface ChosenPlugin {
  role: 'top' | 'median' | 'small';
  pluginId: number;
  rank: number;
  downloads: number;
  updateChecks: number;
}

export interface RollupSums {
  rows: number;
  downloads: number;
  downloadsUnique: number;
  installs: number;
  updateChecks: number;
  /** Rows with more unique downloaders or installs than downloads (must be 0). */
  uniquesOverDownloads: number;
}

export interface InsightSeedFacts {
  version: number;
  plugins: number;
  events: number;
  days: number;
  /** yyyy-MM-dd, inclusive. */
  firstDay: string;
  lastDay: string;
  downloads: number;
  updateChecks: number;
  chosen: ChosenPlugin[];
  /** Sums over each table ('combinations': insight_daily) and each dimension of insight_daily_by_dimension. */
  checks: Record<string, RollupSums>;
  seedSeconds: number;
  /** Seconds per phase of the seeding. */
  phases: Record<string, number>;
  indexesKept: boolean;
}

export interface InsightSeed extends InsightSeedFacts {
  databaseUrl: string;
  seededNow: boolean;
}

/** The IDE products by index; 0 is "not told" (downloads from the site or a build tool). */
const PRODUCTS = [
  '',
  'IU',
  'IC',
  'PY',
  'PC',
  'WS',
  'GO',
  'CL',
  'RD',
  'PS',
  'AI',
  'RM',
  'DB',
  'DS',
  'RR',
  'QA',
];

/** Which IDEs an item's users have, by the item's kind: [kind share, product weights]. */
const PRODUCT_FAMILIES: Array<[number, Record<string, number>]> = [
  [
    0.5,
    {
      IU: 36,
      IC: 26,
      PY: 8,
      PC: 5,
      WS: 4,
      GO: 4,
      CL: 3,
      RD: 3,
      PS: 3,
      AI: 2.5,
      RM: 1.5,
      DB: 1.5,
      DS: 0.8,
      RR: 0.7,
      QA: 0.5,
    },
  ],
  [0.2, { IU: 52, IC: 38, AI: 8, QA: 2 }],
  [0.1, { PY: 45, PC: 28, IU: 18, DS: 7, DB: 2 }],
  [0.08, { WS: 32, IU: 38, PS: 18, RM: 6, GO: 3, PY: 3 }],
  [0.04, { GO: 68, IU: 32 }],
  [0.04, { RD: 92, RR: 8 }],
  [0.04, { CL: 80, RR: 12, IU: 8 }],
];

/** ISO 3166 countries with a developer-population-like skew; '' is "not known". */
const COUNTRIES: Record<string, number> = {
  US: 16,
  CN: 10,
  DE: 7,
  IN: 6.5,
  RU: 4.5,
  JP: 4,
  GB: 3.8,
  FR: 3.2,
  BR: 3,
  KR: 2.6,
  CA: 2.4,
  PL: 2,
  NL: 1.8,
  ES: 1.7,
  IT: 1.6,
  UA: 1.5,
  TR: 1.3,
  AU: 1.3,
  '': 1.2,
  SE: 1,
  CH: 1,
  CZ: 0.9,
  TW: 0.9,
  VN: 0.9,
  ID: 0.9,
  MX: 0.8,
  BY: 0.7,
  IL: 0.7,
  KZ: 0.6,
  SG: 0.6,
  AT: 0.6,
  BE: 0.6,
  AR: 0.6,
  RO: 0.6,
  DK: 0.5,
  FI: 0.5,
  NO: 0.5,
  PT: 0.5,
  HK: 0.5,
  IR: 0.5,
  CO: 0.4,
  HU: 0.4,
  IE: 0.4,
  TH: 0.4,
  MY: 0.4,
  PH: 0.4,
  PK: 0.4,
  CL: 0.3,
  BG: 0.3,
  GR: 0.3,
  BD: 0.3,
  EG: 0.3,
  NG: 0.3,
  ZA: 0.3,
  AE: 0.3,
  NZ: 0.3,
  RS: 0.3,
  SK: 0.3,
  SA: 0.2,
  LT: 0.2,
  LV: 0.15,
  EE: 0.15,
};

/** IDE build branches and the day each was released (EAP: the day its early-access builds began). */
const BRANCHES: Array<{ branch: number; released: string; eap?: boolean }> = [
  { branch: 231, released: '2023-03-29' },
  { branch: 232, released: '2023-07-26' },
  { branch: 233, released: '2023-12-06' },
  { branch: 241, released: '2024-04-04' },
  { branch: 242, released: '2024-08-07' },
  { branch: 243, released: '2024-11-13' },
  { branch: 251, released: '2025-04-16' },
  { branch: 252, released: '2025-07-29' },
  { branch: 253, released: '2025-12-08' },
  { branch: 261, released: '2026-04-01' },
  { branch: 262, released: '2026-07-29' },
  { branch: 263, released: '2026-09-24', eap: true },
];

/** Slots of the lookup arrays: a draw picks slot 1 + floor(random() * SLOTS). */
const SLOTS = 1000;

/** Spreads SLOTS slots over the values by weight (largest remainders, so there are exactly SLOTS). */
function slotsOf(weights: ReadonlyArray<[number, number]>): number[] {
  const sum = weights.reduce((total, [, weight]) => total + weight, 0);
  const shares = weights.map(([value, weight]) => {
    const exact = (SLOTS * weight) / sum;
    return { value, count: Math.floor(exact), fraction: exact - Math.floor(exact) };
  });
  let missing = SLOTS - shares.reduce((total, share) => total + share.count, 0);
  for (const share of [...shares].sort((a, b) => b.fraction - a.fraction)) {
    if (missing-- <= 0) break;
    share.count++;
  }
  return shares.flatMap((share) => Array<number>(share.count).fill(share.value));
}

/** The branches of the IDEs in use on a day: the newest taking over in its first months, older ones fading. */
function branchSlots(day: string): number[] {
  const time = Date.parse(`${day}T00:00:00Z`);
  const released = BRANCHES.filter((entry) => !entry.eap && Date.parse(`${entry.released}T00:00:00Z`) <= time)
    .map((entry) => ({ ...entry, age: (time - Date.parse(`${entry.released}T00:00:00Z`)) / DAY_MS }))
    .reverse();
  const newest = released[0]!;
  const newestShare = 0.42 * Math.min(1, (newest.age + 1) / 75);
  const weights: Array<[number, number]> = [[newest.branch, newestShare]];
  let rest = 1 - newestShare;
  // The one before keeps most of the rest, each older one about half of the one after it.
  released.slice(1).forEach((entry, index) => {
    const share = index === released.length - 2 ? rest : rest * 0.55;
    weights.push([entry.branch, share]);
    rest -= share;
  });
  const eap = BRANCHES.find((entry) => entry.eap && Date.parse(`${entry.released}T00:00:00Z`) <= time);
  if (eap) weights.push([eap.branch, 0.015]);
  return slotsOf(weights);
}

const COUNTRY_CODES = Object.keys(COUNTRIES);
const COUNTRY_SLOTS = slotsOf(COUNTRY_CODES.map((code, index) => [index, COUNTRIES[code]!]));
const FAMILY_SLOTS = PRODUCT_FAMILIES.flatMap(([, weights]) =>
  slotsOf(Object.entries(weights).map(([code, weight]) => [PRODUCTS.indexOf(code), weight])),
);
// Simulated events hold numbers; these give the texts the roll-ups hold.
const productText = `(ARRAY[${PRODUCTS.map((code) => `'${code}'`).join(',')}])[product + 1]`;
const countryText = `(ARRAY[${COUNTRY_CODES.map((code) => `'${code}'`).join(',')}])[country + 1]`;
// Version n of an item is "major.minor.patch"; an EAP build is the next version's, marked -eap.
const versionText = `(1 + v / 30) || '.' || (v / 5 % 6) || '.' || (v % 5) || CASE WHEN eap THEN '-eap' ELSE '' END`;
const channelText = `CASE WHEN eap THEN 'eap' ELSE '' END`;
const branchText = `CASE WHEN branch = 0 THEN '' ELSE branch::text END`;

const EVENTS_TABLE = `CREATE TEMP TABLE bench_day_events (plugin_id integer, downloads integer, from_ide boolean,
  v integer, eap boolean, product integer, branch integer, country integer)`;

/**
 * One day's events into bench_day_events, from a plan of (plugin_id, downloads, repeats, update_checks):
 * a row per downloader (`downloads` 1, or 2 for the first `repeats`, who download twice) and per update
 * check (`downloads` 0). A download is an install when an IDE makes it (eight in ten); an IDE tells its
 * product and build. Most downloads are of the newest version, update checks come from installs of older
 * ones too. Parameters: $1 the day's index in the window, then dayParameters.
 */
function simulateDay(plan: string): string {
  return `INSERT INTO bench_day_events
    SELECT plugin_id, CASE WHEN NOT download THEN 0 WHEN repeated THEN 2 ELSE 1 END, from_ide,
      CASE WHEN eap THEN cur + 1
        ELSE cur - least(cur, floor(ln(1 - r_version) / CASE WHEN download THEN ${Math.log(0.3)}::float8 ELSE ${Math.log(0.5)}::float8 END)::int) END,
      eap,
      CASE WHEN from_ide THEN ($2::int[])[family * ${SLOTS} + 1 + floor(r_product * ${SLOTS})::int] ELSE 0 END,
      CASE WHEN from_ide THEN ($3::int[])[1 + floor(r_branch * ${SLOTS})::int] ELSE 0 END,
      ($4::int[])[1 + floor(r_country * ${SLOTS})::int]
    FROM (
      SELECT plugin_id, family, cur, download, repeated, r_version, r_product, r_branch, r_country,
        NOT download OR r_ide < 0.8 AS from_ide, has_eap AND r_eap < 0.04 AS eap
      FROM (
        SELECT p.plugin_id, i.family, i.has_eap,
          i.version_base + (($1 - i.created_day + i.phase) / i.release_interval) AS cur,
          g.n <= p.downloads - p.repeats AS download, g.n <= p.repeats AS repeated,
          random() AS r_ide, random() AS r_eap, random() AS r_version, random() AS r_product,
          random() AS r_branch, random() AS r_country
        FROM (${plan}) AS p JOIN bench_insight_plugins i ON i.plugin_id = p.plugin_id,
          generate_series(1, p.downloads - p.repeats + p.update_checks) AS g(n)
      ) AS drawn
    ) AS event`;
}

function dayParameters(index: number, day: string): unknown[] {
  return [index, intArray(FAMILY_SLOTS), intArray(branchSlots(day)), intArray(COUNTRY_SLOTS)];
}

/**
 * Writes a day's raw events into insight_events, drawn as the seed draws its days (for the items of the
 * seeded catalogue, about `events` in all, in time order), for the roll-up job to count. The day is
 * `index` days after the seed's first day. Returns the number of events written.
 */
export async function writeRawEvents(
  databaseUrl: string,
  index: number,
  day: string,
  events: number,
): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await prepareSession(client);
    await client.query(EVENTS_TABLE);
    await client.query(`SELECT setseed(${((index % 1000) / 1000 - 0.5).toFixed(6)})`);
    // Every item, in proportion to its weight, with the seed's noise, update-check share and repeats.
    const plan = `SELECT plugin_id, total - update_checks AS downloads, update_checks,
        least((total - update_checks) / 2, floor((total - update_checks) * 0.1 + random())::int) AS repeats
      FROM (
        SELECT plugin_id, total, least(total, floor(total * 0.6 + random())::int) AS update_checks
        FROM (
          SELECT plugin_id, floor(${events} * weight / (SELECT sum(weight) FROM bench_insight_plugins)
            * (0.85 + 0.3 * random()) + random())::int AS total
          FROM bench_insight_plugins ORDER BY plugin_id
        ) AS drawn
      ) AS split
      WHERE total > 0`;
    await client.query(simulateDay(plan), dayParameters(index, day));
    // A downloader who downloads twice does so with one visitor hash; each event at its own moment.
    const written = await client.query(
      `INSERT INTO insight_events (occurred_at, kind, plugin_id, version, channel, product_code, build, branch,
        from_ide, country, visitor)
      SELECT occurred_at, kind, plugin_id, version, channel, product_code, build, branch, from_ide, country, visitor
      FROM (
        SELECT $1::timestamptz + random() * interval '1 day' AS occurred_at,
          CASE WHEN downloads = 0 THEN 'update-check' ELSE 'download' END AS kind,
          plugin_id, ${versionText} AS version, ${channelText} AS channel, ${productText} AS product_code,
          CASE WHEN product = 0 THEN '' ELSE ${productText} || '-' || branch || '.' || (1000 + v) || '.' || (v % 50) END AS build,
          branch, from_ide, ${countryText} AS country, visitor
        FROM (SELECT *, floor(random() * 9e15)::bigint AS visitor FROM bench_day_events) AS e,
          generate_series(1, greatest(e.downloads, 1))
      ) AS event
      ORDER BY occurred_at`,
      [`${day}T00:00:00Z`],
    );
    return written.rowCount ?? 0;
  } finally {
    await client.end();
  }
}

function dayOf(firstDay: string, index: number): string {
  return new Date(Date.parse(`${firstDay}T00:00:00Z`) + index * DAY_MS).toISOString().slice(0, 10);
}

function marker(facts: InsightSeedFacts): string {
  return MARKER_PREFIX + JSON.stringify(facts);
}

function readMarker(comment: string | null | undefined): InsightSeedFacts | undefined {
  if (!comment?.startsWith(MARKER_PREFIX)) return undefined;
  try {
    return JSON.parse(comment.slice(MARKER_PREFIX.length)) as InsightSeedFacts;
  } catch {
    return undefined;
  }
}

function withDatabase(url: string, name: string): string {
  const next = new URL(url);
  next.pathname = `/${name}`;
  return next.toString();
}

/**
 * The benchmark database, seeded now or by an earlier run of the same SEED_VERSION, plugins, events and days
 * (and migrations that still match the files; new migrations are applied).
 */
export async function seedInsight(options: InsightSeedOptions): Promise<InsightSeed> {
  const { log } = options;
  const plugins = options.plugins ?? 20_000;
  const events = options.events ?? 100_000_000;
  const days = options.days ?? 730;
  const name = options.database ?? BENCH_DATABASE;
  const databaseUrl = withDatabase(options.adminUrl, name);
  const lastDay = dayOf(BENCH_TODAY.toISOString().slice(0, 10), -1);
  const firstDay = dayOf(lastDay, 1 - days);

  const admin = new pg.Client({ connectionString: options.adminUrl });
  await admin.connect();
  try {
    const existing = await admin.query<{ comment: string | null }>(
      `SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1`,
      [name],
    );
    const row = existing.rows[0];
    const facts = readMarker(row?.comment);
    const same =
      facts !== undefined &&
      facts.version === SEED_VERSION &&
      facts.plugins === plugins &&
      facts.events === events &&
      facts.days === days &&
      facts.lastDay === lastDay;
    if (row && same && !options.reseed) {
      const database = await openDatabase({ databaseUrl, dataDir: '', maxConnections: 1 });
      try {
        if (await migrationsStillMatch(databaseUrl)) {
          const migrated = await migrate(database);
          if (migrated.applied.length > 0) log(`  applied new migrations ${migrated.applied.join(', ')}`);
          log(
            `  reusing database ${name} (seed version ${SEED_VERSION}, seeded in ${facts.seedSeconds.toFixed(0)} s).`,
          );
          return { ...facts, databaseUrl, seededNow: false };
        }
        log(`  a migration applied to ${name} has changed since it was seeded; seeding again.`);
      } finally {
        await database.close();
      }
    } else if (row) {
      log(
        options.reseed
          ? `  --reseed: dropping ${name}.`
          : `  ${name} holds ${facts ? `seed version ${facts.version}, ${facts.events} events over ${facts.days} days` : 'something else'}; seeding again.`,
      );
    }
    if (row) await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }

  const started = performance.now();
  const database = await openDatabase({ databaseUrl, dataDir: '', maxConnections: 1 });
  try {
    await migrate(database);
  } finally {
    await database.close();
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const facts = await generate(client, {
      plugins,
      events,
      days,
      firstDay,
      lastDay,
      keepIndexes: options.keepIndexes ?? false,
      workers: options.workers ?? 2,
      databaseUrl,
      log,
    });
    facts.seedSeconds = (performance.now() - started) / 1000;
    await client.query(`COMMENT ON DATABASE ${name} IS '${marker(facts).replaceAll("'", "''")}'`);
    return { ...facts, databaseUrl, seededNow: true };
  } finally {
    await client.end();
  }
}

async function migrationsStillMatch(databaseUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const recorded = await client.query<{ name: string; checksum: string }>(
      'SELECT name, checksum FROM schema_migrations',
    );
    const files = new Map((await readMigrations()).map((migration) => [migration.name, migration.checksum]));
    return recorded.rows.every((migration) => files.get(migration.name) === migration.checksum);
  } finally {
    await client.end();
  }
}

interface GenerateOptions {
  plugins: number;
  events: number;
  days: number;
  firstDay: string;
  lastDay: string;
  keepIndexes: boolean;
  workers: number;
  databaseUrl: string;
  log: (line: string) => void;
}

/** Serial plans keep random() draws in one order (repeatable); the rest is room for sorting and hashing. */
async function prepareSession(client: pg.Client): Promise<void> {
  await client.query(`SET max_parallel_workers_per_gather = 0; SET jit = off; SET synchronous_commit = off;
    SET work_mem = '256MB'; SET temp_buffers = '256MB'; SET maintenance_work_mem = '2GB'`);
}

/** Postgres array literal of whole numbers. */
const intArray = (values: readonly number[]) => `{${values.join(',')}}`;

async function generate(client: pg.Client, options: GenerateOptions): Promise<InsightSeedFacts> {
  const { log, plugins, events, days, firstDay, lastDay } = options;
  const phases: Record<string, number> = {};
  let phaseStarted = performance.now();
  const phase = (label: string) => {
    const now = performance.now();
    phases[label] = Number(((now - phaseStarted) / 1000).toFixed(1));
    phaseStarted = now;
  };
  await prepareSession(client);

  log(
    `  drawing ${plugins.toLocaleString('en-US')} items and planning ${events.toLocaleString('en-US')} events over ${days} days (${firstDay} to ${lastDay})...`,
  );
  const familyShares = PRODUCT_FAMILIES.map(([share]) => share);
  const familyThresholds = familyShares.map((_, index) =>
    familyShares.slice(0, index + 1).reduce((sum, share) => sum + share, 0),
  );
  await client.query('SELECT setseed(0.2024)');
  // rank 1 is the most popular; ids are a shuffle of 1..plugins. Items ranked beyond 500 are new within
  // the window three times in ten; busy items release every couple of weeks, quiet ones every few months.
  await client.query(`CREATE TABLE bench_insight_plugins AS
    WITH drawn AS (
      SELECT rank, random() AS shuffle, random() AS r_new, random() AS r_created, random() AS r_family,
        random() AS r_interval, random() AS r_base, random() AS r_phase, random() AS r_eap
      FROM generate_series(1, ${plugins}) AS rank
    ), shaped AS (
      SELECT rank, shuffle, r_phase,
        power(rank, -1.1) AS weight,
        CASE WHEN rank > 500 AND r_new < 0.3 THEN floor(r_created * ${Math.max(1, days - 30)})::int ELSE 0 END AS created_day,
        CASE ${familyThresholds
          .slice(0, -1)
          .map((threshold, index) => `WHEN r_family < ${threshold} THEN ${index}`)
          .join(' ')} ELSE ${familyThresholds.length - 1} END AS family,
        greatest(7, round(12 + 100 * ln(rank) / ln(${Math.max(2, plugins)}) * (0.5 + r_interval)))::int AS release_interval,
        floor(r_base * 40)::int AS r_base_versions,
        r_eap < CASE WHEN rank <= 1000 THEN 0.5 ELSE 0.1 END AS has_eap
      FROM drawn
    )
    SELECT (row_number() OVER (ORDER BY shuffle))::int AS plugin_id, rank, weight, created_day, family,
      release_interval, CASE WHEN created_day = 0 THEN r_base_versions ELSE 0 END AS version_base,
      floor(r_phase * release_interval)::int AS phase, has_eap
    FROM shaped`);
  await client.query('ALTER TABLE bench_insight_plugins ADD PRIMARY KEY (plugin_id)');

  // The calendar: a slow growth over the window, quiet weekends, a dip over the year-end holidays.
  await client.query(`CREATE TABLE bench_insight_days AS
    SELECT d AS day_index, day::date AS day,
      (1 + 0.3 * d / ${Math.max(1, days - 1)}.0)
      * CASE extract(isodow FROM day) WHEN 6 THEN 0.62 WHEN 7 THEN 0.66 WHEN 1 THEN 1.03 ELSE 1 END
      * CASE WHEN (extract(month FROM day) = 12 AND extract(day FROM day) >= 23)
          OR (extract(month FROM day) = 1 AND extract(day FROM day) <= 2) THEN 0.7 ELSE 1 END AS factor
    FROM generate_series(0, ${days - 1}) AS d, LATERAL (SELECT '${firstDay}'::date + d) AS t(day)`);

  // Expected events of an item on a day: its weight x the day's factor x (new items) a two-month ramp,
  // scaled so that they add up to `events`.
  const expected = `p.weight * c.factor * CASE WHEN p.created_day = 0 THEN 1
      ELSE least(1, (c.day_index - p.created_day + 1) / 60.0) END`;
  const [scale] = (
    await client.query<{ scale: number }>(`SELECT ${events}::float8 / sum(${expected}) AS scale
      FROM bench_insight_plugins p JOIN bench_insight_days c ON c.day_index >= p.created_day`)
  ).rows;
  // Each item-day: the expected count with +-15% noise, rounded at random (so small items have days with
  // none); six in ten of an installed item's events are update checks, fewer in a new item's first months.
  await client.query('SELECT setseed(0.1121)');
  await client.query(`CREATE UNLOGGED TABLE bench_insight_plan AS
    SELECT day_index, plugin_id, total - update_checks AS downloads, update_checks,
      least((total - update_checks) / 2, floor((total - update_checks) * 0.1 + random())::int) AS repeats
    FROM (
      SELECT day_index, plugin_id, total,
        least(total, floor(total * 0.6 * CASE WHEN created_day = 0 THEN 1
          ELSE least(1, (day_index - created_day + 1) / 120.0) END + random())::int) AS update_checks
      FROM (
        SELECT c.day_index, p.plugin_id, p.created_day,
          floor(${scale!.scale} * ${expected} * (0.85 + 0.3 * random()) + random())::int AS total
        FROM bench_insight_days c JOIN bench_insight_plugins p ON c.day_index >= p.created_day
        ORDER BY c.day_index, p.plugin_id
      ) AS drawn
    ) AS split
    WHERE total > 0`);
  // The rounding leaves the sum a little off `events`: the top item's update checks take up the difference.
  const [sum] = (
    await client.query<{ total: string }>(
      'SELECT sum(downloads + update_checks)::bigint AS total FROM bench_insight_plan',
    )
  ).rows;
  const difference = events - Number(sum!.total);
  await client.query(`UPDATE bench_insight_plan AS plan
    SET update_checks = plan.update_checks + (${difference} / n) + CASE WHEN nth <= abs(${difference} % n) THEN sign(${difference})::int ELSE 0 END
    FROM (
      SELECT day_index, plugin_id, row_number() OVER (ORDER BY day_index) AS nth, count(*) OVER () AS n
      FROM bench_insight_plan WHERE plugin_id = (SELECT plugin_id FROM bench_insight_plugins WHERE rank = 1)
    ) AS top
    WHERE plan.day_index = top.day_index AND plan.plugin_id = top.plugin_id`);
  await client.query('CREATE INDEX ON bench_insight_plan (day_index)');
  await client.query('ANALYZE bench_insight_plugins; ANALYZE bench_insight_days; ANALYZE bench_insight_plan');
  const [planned] = (
    await client.query<{ downloads: string; update_checks: string; rows: string }>(
      `SELECT sum(downloads)::bigint AS downloads, sum(update_checks)::bigint AS update_checks,
        count(*) AS rows FROM bench_insight_plan`,
    )
  ).rows;
  log(
    `    planned ${Number(planned!.downloads).toLocaleString('en-US')} downloads + ${Number(planned!.update_checks).toLocaleString('en-US')} update checks on ${Number(planned!.rows).toLocaleString('en-US')} item-days (rounding off by ${difference}, given to the top item)`,
  );
  phase('plan');

  const dropped: string[] = [];
  if (!options.keepIndexes) {
    // The same definitions are created again after the load (including any a later migration added).
    const indexes = await client.query<{ name: string; definition: string; constraint: string | null }>(
      `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS definition, c.conname AS constraint
      FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
      LEFT JOIN pg_constraint c ON c.conindid = i.oid AND c.contype IN ('p', 'u')
      WHERE x.indrelid IN ('insight_daily'::regclass, 'insight_daily_by_dimension'::regclass)`,
    );
    for (const index of indexes.rows) {
      if (index.constraint) {
        const table = index.definition.match(/ ON (?:ONLY )?(\S+) /)![1]!;
        const [constraint] = (
          await client.query<{ definition: string }>(
            `SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conname = $1`,
            [index.constraint],
          )
        ).rows;
        dropped.push(`ALTER TABLE ${table} ADD CONSTRAINT ${index.constraint} ${constraint!.definition}`);
        await client.query(`ALTER TABLE ${table} DROP CONSTRAINT ${index.constraint}`);
      } else {
        dropped.push(index.definition);
        await client.query(`DROP INDEX ${index.name}`);
      }
    }
  }

  // The roll-up job's two statements (src/insight/rollup.ts) over the simulated events: a row is one
  // downloader (`downloads` 1 or 2) or one update check (`downloads` 0).
  const counters = `sum(downloads) AS downloads, count(*) FILTER (WHERE downloads > 0) AS downloads_unique,
      sum(CASE WHEN from_ide THEN downloads ELSE 0 END) AS installs,
      count(*) FILTER (WHERE downloads = 0) AS update_checks`;
  const rollUpCombinations = `INSERT INTO bench_day_combinations
    SELECT plugin_id, $1::date, ${versionText}, ${channelText}, ${productText}, branch, ${countryText},
      downloads, downloads_unique, installs, update_checks
    FROM (
      SELECT plugin_id, v, eap, product, branch, country, ${counters}
      FROM bench_day_events GROUP BY plugin_id, v, eap, product, branch, country
    ) AS combination
    ORDER BY plugin_id, v, eap, product, branch, country`;
  const rollUpDimensions = `INSERT INTO bench_day_dimensions
    SELECT plugin_id, dimension, $1::date, value, downloads, downloads_unique, installs, update_checks
    FROM (
      SELECT plugin_id,
        CASE WHEN GROUPING(v) = 0 THEN 'version' WHEN GROUPING(product) = 0 THEN 'product'
          WHEN GROUPING(branch) = 0 THEN 'branch' WHEN GROUPING(country) = 0 THEN 'country'
          WHEN GROUPING(eap) = 0 THEN 'channel' ELSE 'total' END AS dimension,
        CASE WHEN GROUPING(v) = 0 THEN ${versionText} WHEN GROUPING(product) = 0 THEN ${productText}
          WHEN GROUPING(branch) = 0 THEN ${branchText} WHEN GROUPING(country) = 0 THEN ${countryText}
          WHEN GROUPING(eap) = 0 THEN ${channelText} ELSE '' END AS value,
        ${counters}
      FROM bench_day_events
      GROUP BY GROUPING SETS ((plugin_id), (plugin_id, v, eap), (plugin_id, product), (plugin_id, branch),
        (plugin_id, country), (plugin_id, eap))
    ) AS dimension
    ORDER BY dimension, plugin_id, value`;

  log(
    `  writing the roll-ups day by day with ${options.workers} workers${options.keepIndexes ? ' (indexes kept)' : ''}...`,
  );
  const timing = { simulate: 0, rollUp: 0, write: 0, wait: 0 };
  let lastReport = performance.now();
  let daysDone = 0;
  // Days are simulated and rolled up by several sessions at once, each into its own temporary tables, but
  // written to the roll-up tables strictly one after the other in day order, as the job writes them.
  const written: Array<Promise<void>> = [];
  const markWritten: Array<() => void> = [];
  for (let index = 0; index < days; index++) {
    written.push(new Promise((resolve) => markWritten.push(resolve)));
  }
  const work = async (worker: number) => {
    const session = new pg.Client({ connectionString: options.databaseUrl });
    await session.connect();
    try {
      await prepareSession(session);
      await session.query(`${EVENTS_TABLE};
        CREATE TEMP TABLE bench_day_combinations (LIKE insight_daily);
        CREATE TEMP TABLE bench_day_dimensions (LIKE insight_daily_by_dimension)`);
      for (let index = worker; index < days; index += options.workers) {
        const day = dayOf(firstDay, index);
        let mark = performance.now();
        await session.query(`SELECT setseed(${((index + 1) / (days + 1)).toFixed(6)})`);
        await session.query(
          simulateDay(
            'SELECT plugin_id, downloads, repeats, update_checks FROM bench_insight_plan WHERE day_index = $1',
          ),
          dayParameters(index, day),
        );
        timing.simulate += performance.now() - mark;
        mark = performance.now();
        await session.query(rollUpCombinations, [day]);
        await session.query(rollUpDimensions, [day]);
        timing.rollUp += performance.now() - mark;
        mark = performance.now();
        if (index > 0) await written[index - 1];
        timing.wait += performance.now() - mark;
        mark = performance.now();
        await session.query(`BEGIN;
          INSERT INTO insight_daily SELECT * FROM bench_day_combinations;
          INSERT INTO insight_daily_by_dimension SELECT * FROM bench_day_dimensions;
          COMMIT`);
        timing.write += performance.now() - mark;
        markWritten[index]!();
        await session.query('TRUNCATE bench_day_events, bench_day_combinations, bench_day_dimensions');
        daysDone++;
        if (performance.now() - lastReport > 15_000 || daysDone === days) {
          lastReport = performance.now();
          log(
            `    ${day}: ${daysDone} / ${days} days (in all sessions: simulating ${(timing.simulate / 1000).toFixed(0)} s, ` +
              `rolling up ${(timing.rollUp / 1000).toFixed(0)} s, writing ${(timing.write / 1000).toFixed(0)} s, waiting ${(timing.wait / 1000).toFixed(0)} s)`,
          );
        }
      }
    } finally {
      await session.end();
    }
  };
  await Promise.all(Array.from({ length: options.workers }, (_, worker) => work(worker)));
  phases.simulate = Number((timing.simulate / 1000).toFixed(1));
  phases.rollUp = Number((timing.rollUp / 1000).toFixed(1));
  phases.write = Number((timing.write / 1000).toFixed(1));
  phase('days');

  if (dropped.length > 0) {
    log(`  building the ${dropped.length} indexes...`);
    await client.query('SET max_parallel_maintenance_workers = 2');
    for (const statement of dropped) await client.query(statement);
    phase('indexes');
  }

  const chosen = await choosePlugins(client, plugins);
  await client.query('DROP TABLE bench_insight_plan');
  log('  VACUUM ANALYZE...');
  await client.query('VACUUM ANALYZE');
  phase('vacuum');

  log('  checking that the roll-ups add up...');
  const sums = await client.query<{
    dimension: string;
    rows: string;
    downloads: string;
    downloads_unique: string;
    installs: string;
    update_checks: string;
    uniques_over_downloads: string;
  }>(`SELECT dimension, count(*) AS rows, sum(downloads)::bigint AS downloads,
      sum(downloads_unique)::bigint AS downloads_unique, sum(installs)::bigint AS installs,
      sum(update_checks)::bigint AS update_checks,
      count(*) FILTER (WHERE downloads_unique > downloads OR installs > downloads) AS uniques_over_downloads
    FROM (
      SELECT 'combinations' AS dimension, downloads, downloads_unique, installs, update_checks FROM insight_daily
      UNION ALL
      SELECT dimension, downloads, downloads_unique, installs, update_checks FROM insight_daily_by_dimension
    ) AS rows
    GROUP BY dimension ORDER BY dimension`);
  const checks = Object.fromEntries(
    sums.rows.map((row) => [
      row.dimension,
      {
        rows: Number(row.rows),
        downloads: Number(row.downloads),
        downloadsUnique: Number(row.downloads_unique),
        installs: Number(row.installs),
        updateChecks: Number(row.update_checks),
        uniquesOverDownloads: Number(row.uniques_over_downloads),
      },
    ]),
  );
  phase('check');
  const combinations = checks.combinations!;
  return {
    version: SEED_VERSION,
    plugins,
    events,
    days,
    firstDay,
    lastDay,
    downloads: combinations.downloads,
    updateChecks: combinations.updateChecks,
    chosen,
    checks,
    seedSeconds: 0,
    phases,
    indexesKept: options.keepIndexes,
  };
}

/**
 * The items the benchmark asks about, among those listed for the whole window: the most popular, the one
 * at the middle rank and the least popular.
 */
async function choosePlugins(client: pg.Client, plugins: number): Promise<ChosenPlugin[]> {
  const wanted: Array<[ChosenPlugin['role'], string]> = [
    ['top', 'rank'],
    ['median', `abs(rank - ${Math.ceil(plugins / 2)})`],
    ['small', 'rank DESC'],
  ];
  const chosen: ChosenPlugin[] = [];
  for (const [role, order] of wanted) {
    const [row] = (
      await client.query<{ plugin_id: number; rank: number; downloads: string; update_checks: string }>(
        `SELECT p.plugin_id, p.rank::int AS rank, sum(plan.downloads)::bigint AS downloads,
          sum(plan.update_checks)::bigint AS update_checks
        FROM (SELECT plugin_id, rank FROM bench_insight_plugins WHERE created_day = 0 ORDER BY ${order} LIMIT 1) AS p
        JOIN bench_insight_plan plan ON plan.plugin_id = p.plugin_id
        GROUP BY 1, 2`,
      )
    ).rows;
    chosen.push({
      role,
      pluginId: row!.plugin_id,
      rank: row!.rank,
      downloads: Number(row!.downloads),
      updateChecks: Number(row!.update_checks),
    });
  }
  return chosen;
}
