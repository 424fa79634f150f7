/**
 * `pnpm bench insight`: the statistics of insight (GET /statistic/{measure}/{dimension}) over roll-ups worth
 * 100 million events (downloads and update checks) over two years, and the roll-up job of one day.
 *
 * Seeds a PostgreSQL database of its own (`mp_bench_insight`, bench/insight/seed.ts) on the first run and
 * reuses it while its seed version matches. Then calls the server's own `readStatistic`
 * (src/insight/statistics.ts) directly, without HTTP, for the most popular item, the item of the middle rank
 * and the least popular one:
 *
 *   downloads-count by day, week and month over two years (fill=full: the charts)
 *   downloads-count by version, product and country over two years (the breakdowns)
 *   downloads-count by day over two years with product=IU (a filtered chart)
 *
 * each warmed up and then run `--runs` times one after the other (p50, p95, p99, max), and the two-year day
 * chart again with `--concurrency` calls in flight at once. EXPLAIN (ANALYZE, BUFFERS) of the slowest
 * statement shows where its time goes. Last, it writes one day's worth of raw events (100M / 730) into
 * insight_events and times `rollUpDay` (src/insight/rollup.ts) on that day, then removes that day again so
 * the database is left as it was seeded.
 *
 * Options: --runs N (default 200), --warmup N (default 20), --concurrency N (default 8), --reseed,
 * --skip-rollup, --postgres-url URL (any database of the server; the benchmark's is created beside it), and
 * for smaller data --plugins N (20000), --events N (100000000), --days N (730), --database NAME
 * (mp_bench_insight; another size in the same database replaces it).
 */
import { parseArgs } from 'node:util';
import type { SQL } from 'drizzle-orm';
import type { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { openDatabase, type Database } from '../src/db/client';
import { rollUpDay } from '../src/insight/rollup';
import { checkStatisticRequest, readStatistic, type StatisticRequest } from '../src/insight/statistics';
import { BENCH_TODAY } from './api/seed';
import {
  BENCH_DATABASE,
  seedInsight,
  writeRawEvents,
  type ChosenPlugin,
  type InsightSeed,
} from './insight/seed';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '200' },
    warmup: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '8' },
    plugins: { type: 'string', default: '20000' },
    events: { type: 'string', default: '100000000' },
    days: { type: 'string', default: '730' },
    database: { type: 'string', default: BENCH_DATABASE },
    reseed: { type: 'boolean', default: false },
    'skip-rollup': { type: 'boolean', default: false },
    'postgres-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/test' },
  },
});

function positiveInteger(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) {
    console.error(`--${name} must be a whole number of at least 1, got "${text}".`);
    process.exit(2);
  }
  return value;
}

const runs = positiveInteger('runs', args.runs);
const warmup = positiveInteger('warmup', args.warmup);
const concurrency = positiveInteger('concurrency', args.concurrency);
const GOAL_MS = 50;
const log = (line: string) => console.log(line);
const number = (value: number) => value.toLocaleString('en-US');
const megabytes = (bytes: number) =>
  `${(bytes / 1024 / 1024).toLocaleString('en-US', { maximumFractionDigits: 0 })} MB`;

interface Scenario {
  key: string;
  label: string;
  request: (plugin: ChosenPlugin) => StatisticRequest;
}

interface Figures {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
  count: number;
}

interface Row {
  scenario: Scenario;
  plugin: ChosenPlugin;
  first: number;
  sequential: Figures;
  points: number;
  statement?: CapturedStatement;
}

interface CapturedStatement {
  sql: string;
  params: unknown[];
}

function figuresOf(samples: number[]): Figures {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (quantile: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1)]!;
  return {
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    max: sorted.at(-1)!,
    mean: sorted.reduce((sum, value) => sum + value, 0) / sorted.length,
    count: sorted.length,
  };
}

const ms = (value: number) => value.toFixed(value < 10 ? 2 : 1).padStart(7);

/**
 * The database with `execute` watched: the statements readStatistic sends, in the form node-postgres gets
 * them, for EXPLAIN.
 */
function watched(db: Database, captured: CapturedStatement[]): Database {
  const dialect = (db as unknown as { dialect: PgDialect }).dialect;
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property === 'execute') {
        return (statement: SQL) => {
          const query = dialect.sqlToQuery(statement);
          captured.push({ sql: query.sql, params: query.params });
          return target.execute(statement);
        };
      }
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}

const started = performance.now();
log(
  `Insight benchmark: ${runs} runs per query after ${warmup} to warm up, ${concurrency} at once for the charts`,
);
log('Seeding (reused when an earlier run left the same data):');
const seed: InsightSeed = await seedInsight({
  adminUrl: args['postgres-url'],
  reseed: args.reseed,
  log,
  plugins: positiveInteger('plugins', args.plugins),
  events: positiveInteger('events', args.events),
  days: positiveInteger('days', args.days),
  database: args.database,
});
if (seed.seededNow) log(`  seeded in ${(seed.seedSeconds / 60).toFixed(1)} min`);
await describeSeed(seed);

const startDate = seed.firstDay;
const endDate = seed.lastDay;
const base = (plugin: ChosenPlugin): Omit<StatisticRequest, 'dimension'> => ({
  pluginId: plugin.pluginId,
  measure: 'downloads-count',
  startDate,
  endDate,
  filters: {},
  fill: true,
});
const span = seed.days === 730 ? '2 years' : `${seed.days} days`;
const SCENARIOS: Scenario[] = [
  { key: 'day', label: `chart by day, ${span}`, request: (p) => ({ ...base(p), dimension: 'day' }) },
  { key: 'week', label: `chart by week, ${span}`, request: (p) => ({ ...base(p), dimension: 'week' }) },
  { key: 'month', label: `chart by month, ${span}`, request: (p) => ({ ...base(p), dimension: 'month' }) },
  { key: 'version', label: `by version, ${span}`, request: (p) => ({ ...base(p), dimension: 'version' }) },
  { key: 'product', label: `by product, ${span}`, request: (p) => ({ ...base(p), dimension: 'product' }) },
  { key: 'country', label: `by country, ${span}`, request: (p) => ({ ...base(p), dimension: 'country' }) },
  {
    key: 'day-iu',
    label: `chart by day, ${span}, product=IU`,
    request: (p) => ({ ...base(p), dimension: 'day', filters: { product: 'IU' } }),
  },
];

const database = await openDatabase({
  databaseUrl: seed.databaseUrl,
  dataDir: '',
  maxConnections: Math.max(2, concurrency),
});
const rows: Row[] = [];
const concurrent: Array<{ plugin: ChosenPlugin; figures: Figures; perSecond: number }> = [];
try {
  const db = database.db;
  log(`\nreadStatistic (src/insight/statistics.ts), downloads-count ${startDate} to ${endDate}, in ms:`);
  log(
    `  ${'query'.padEnd(36)} ${'item'.padEnd(22)} ${'points'.padStart(6)} ${'first'.padStart(7)} ${'p50'.padStart(7)} ${'p95'.padStart(7)} ${'p99'.padStart(7)} ${'max'.padStart(7)}`,
  );
  for (const scenario of SCENARIOS) {
    for (const plugin of seed.chosen) {
      const request = scenario.request(plugin);
      checkStatisticRequest(request);
      const captured: CapturedStatement[] = [];
      let mark = performance.now();
      const points = await readStatistic(watched(db, captured), request);
      const first = performance.now() - mark;
      for (let run = 1; run < warmup; run++) await readStatistic(db, request);
      const samples: number[] = [];
      for (let run = 0; run < runs; run++) {
        mark = performance.now();
        await readStatistic(db, request);
        samples.push(performance.now() - mark);
      }
      const row: Row = {
        scenario,
        plugin,
        first,
        sequential: figuresOf(samples),
        points: points.length,
        ...(captured[0] ? { statement: captured[0] } : {}),
      };
      rows.push(row);
      const { p50, p95, p99, max } = row.sequential;
      log(
        `  ${scenario.label.padEnd(36)} ${`${plugin.role} #${plugin.pluginId}`.padEnd(22)} ${String(row.points).padStart(6)} ${ms(first)} ${ms(p50)} ${ms(p95)} ${ms(p99)} ${ms(max)}${p99 >= GOAL_MS ? '  > 50 ms' : ''}`,
      );
    }
  }

  log(
    `\nThe day chart over ${span} with ${concurrency} calls in flight at once (${concurrency} x ${runs} calls after ${concurrency} x ${warmup} to warm up), in ms:`,
  );
  for (const plugin of seed.chosen) {
    const request = SCENARIOS[0]!.request(plugin);
    // Every connection of the pool open and warm before the clock starts.
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let run = 0; run < warmup; run++) await readStatistic(db, request);
      }),
    );
    const samples: number[] = [];
    const wallStarted = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let run = 0; run < runs; run++) {
          const mark = performance.now();
          await readStatistic(db, request);
          samples.push(performance.now() - mark);
        }
      }),
    );
    const perSecond = samples.length / ((performance.now() - wallStarted) / 1000);
    const figures = figuresOf(samples);
    concurrent.push({ plugin, figures, perSecond });
    log(
      `  ${`${plugin.role} #${plugin.pluginId}`.padEnd(22)} ${perSecond.toFixed(0).padStart(6)} calls/s   p50 ${ms(figures.p50)}   p95 ${ms(figures.p95)}   p99 ${ms(figures.p99)}   max ${ms(figures.max)}`,
    );
  }

  await explainSlowest(seed.databaseUrl, rows);
  if (!args['skip-rollup']) await measureRollUp(db, seed);
} finally {
  await database.close();
}

const charts = rows.filter((row) => row.scenario.key === 'day');
const worstChart = charts.reduce((a, b) => (b.sequential.p99 > a.sequential.p99 ? b : a));
const worstConcurrent = concurrent.reduce((a, b) => (b.figures.p99 > a.figures.p99 ? b : a));
const missed = rows.filter((row) => row.sequential.p99 >= GOAL_MS);
log(
  `\nVerdict: "2-year chart query < ${GOAL_MS} ms p99" (${span} here): ${worstChart.sequential.p99 < GOAL_MS ? 'MET' : 'MISSED'} ` +
    `(worst p99 ${worstChart.sequential.p99.toFixed(2)} ms, ${worstChart.plugin.role} item, one at a time; ` +
    `${worstConcurrent.figures.p99.toFixed(2)} ms with ${concurrency} at once${worstConcurrent.figures.p99 < GOAL_MS ? '' : ', over the goal'}).`,
);
if (missed.length > 0) {
  log(
    `  Over ${GOAL_MS} ms p99: ${missed.map((row) => `${row.scenario.label} (${row.plugin.role}, ${row.sequential.p99.toFixed(0)} ms)`).join('; ')}.`,
  );
}
log(`\nDone in ${((performance.now() - started) / 1000 / 60).toFixed(1)} min.`);

/** What the seed holds: events, rows and whether they add up, and the size of each table and index. */
async function describeSeed(seed: InsightSeed): Promise<void> {
  const { checks } = seed;
  log(
    `  ${number(seed.plugins)} items, ${seed.firstDay} to ${seed.lastDay} (${seed.days} days): ` +
      `${number(seed.downloads + seed.updateChecks)} events = ${number(seed.downloads)} downloads + ${number(seed.updateChecks)} update checks`,
  );
  const total = checks.total!;
  const addsUp = Object.values(checks).every(
    (sums) =>
      sums.downloads === total.downloads &&
      sums.installs === total.installs &&
      sums.updateChecks === total.updateChecks &&
      sums.uniquesOverDownloads === 0,
  );
  log(
    `  the roll-ups add up: ${addsUp ? 'yes' : 'NO'} (every table and dimension sums to ${number(total.downloads)} downloads, ` +
      `${number(total.installs)} installs, ${number(total.updateChecks)} update checks; no row has more unique downloaders or installs than downloads)`,
  );
  log(
    `  rows: insight_daily ${number(checks.combinations!.rows)}; insight_daily_by_dimension ${number(
      Object.entries(checks)
        .filter(([dimension]) => dimension !== 'combinations')
        .reduce((sum, [, sums]) => sum + sums.rows, 0),
    )} (${Object.entries(checks)
      .filter(([dimension]) => dimension !== 'combinations')
      .map(([dimension, sums]) => `${dimension} ${number(sums.rows)}`)
      .join(', ')})`,
  );
  for (const plugin of seed.chosen) {
    log(
      `  ${plugin.role.padEnd(6)} item #${plugin.pluginId} (popularity rank ${number(plugin.rank)}): ` +
        `${number(plugin.downloads)} downloads + ${number(plugin.updateChecks)} update checks`,
    );
  }
  const client = new pg.Client({ connectionString: seed.databaseUrl });
  await client.connect();
  try {
    const sizes = await client.query<{ name: string; kind: string; table: string; bytes: string }>(
      `SELECT c.relname AS name, c.relkind AS kind, coalesce(t.relname, c.relname) AS table,
        CASE WHEN c.relkind = 'r' THEN pg_total_relation_size(c.oid) ELSE pg_relation_size(c.oid) END AS bytes
      FROM pg_class c LEFT JOIN pg_index x ON x.indexrelid = c.oid LEFT JOIN pg_class t ON t.oid = x.indrelid
      WHERE coalesce(t.relname, c.relname) IN ('insight_daily', 'insight_daily_by_dimension')
      ORDER BY 3, c.relkind DESC, 1`,
    );
    for (const row of sizes.rows) {
      if (row.kind === 'r') {
        const [heap] = (
          await client.query<{ bytes: string }>(`SELECT pg_relation_size($1::regclass) AS bytes`, [row.name])
        ).rows;
        log(
          `  ${row.name}: ${megabytes(Number(row.bytes))} in all (pg_total_relation_size), table ${megabytes(Number(heap!.bytes))}`,
        );
      } else {
        log(`    index ${row.name}: ${megabytes(Number(row.bytes))}`);
      }
    }
    const [size] = (
      await client.query<{ bytes: string }>(`SELECT pg_database_size(current_database()) AS bytes`)
    ).rows;
    log(`  database ${new URL(seed.databaseUrl).pathname.slice(1)}: ${megabytes(Number(size!.bytes))}`);
  } finally {
    await client.end();
  }
  log(
    `  seed phases (s): ${Object.entries(seed.phases)
      .map(([phase, seconds]) => `${phase} ${seconds}`)
      .join(', ')}`,
  );
}

/** EXPLAIN (ANALYZE, BUFFERS) of the statement of the slowest query (by p99) and of the 2-year day chart. */
async function explainSlowest(databaseUrl: string, measured: readonly Row[]): Promise<void> {
  const slowest = measured.reduce((a, b) => (b.sequential.p99 > a.sequential.p99 ? b : a));
  const chart = measured
    .filter((row) => row.scenario.key === 'day')
    .reduce((a, b) => (b.sequential.p99 > a.sequential.p99 ? b : a));
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (const row of slowest === chart ? [slowest] : [slowest, chart]) {
      if (!row.statement) continue;
      log(
        `\nEXPLAIN (ANALYZE, BUFFERS) of ${row === slowest ? 'the slowest query' : 'the slowest 2-year day chart'}: ` +
          `${row.scenario.label}, ${row.plugin.role} item #${row.plugin.pluginId} (p99 ${row.sequential.p99.toFixed(1)} ms)`,
      );
      log(`  ${row.statement.sql.replace(/\s+/g, ' ')}`);
      log(`  params: ${JSON.stringify(row.statement.params)}`);
      const plan = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, BUFFERS) ${row.statement.sql}`,
        row.statement.params,
      );
      for (const line of plan.rows) log(`    ${line['QUERY PLAN']}`);
    }
  } finally {
    await client.end();
  }
}

/**
 * Writes one day's worth of raw events (the seed's events / days, drawn as the seed draws its days) on the day
 * after the seeded window, times the roll-up job on that day, and removes the day again.
 */
async function measureRollUp(db: Database, seed: InsightSeed): Promise<void> {
  const day = BENCH_TODAY.toISOString().slice(0, 10);
  const perDay = Math.round((seed.downloads + seed.updateChecks) / seed.days);
  const client = new pg.Client({ connectionString: seed.databaseUrl });
  await client.connect();
  try {
    await client.query(`SELECT insight_events_partition($1::date)`, [day]);
    await removeDay(client, day);
    let mark = performance.now();
    const inserted = await writeRawEvents(seed.databaseUrl, seed.days, day, perDay);
    const insertSeconds = (performance.now() - mark) / 1000;
    await client.query('ANALYZE insight_events');
    log(
      `\nThe roll-up job: ${number(inserted)} raw events of ${day} written to insight_events in ${insertSeconds.toFixed(1)} s; rollUpDay(db, '${day}'):`,
    );
    const timings: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      mark = performance.now();
      await rollUpDay(db, day);
      timings.push(performance.now() - mark);
    }
    const [written] = (
      await client.query<{ combinations: string; dimensions: string; downloads: string }>(
        `SELECT (SELECT count(*) FROM insight_daily WHERE day = $1) AS combinations,
          (SELECT count(*) FROM insight_daily_by_dimension WHERE day = $1) AS dimensions,
          (SELECT sum(downloads) FROM insight_daily WHERE day = $1) AS downloads`,
        [day],
      )
    ).rows;
    log(
      `  ${timings.map((time, index) => `${index === 0 ? 'first' : 'again (replacing the day)'} ${(time / 1000).toFixed(2)} s`).join(', ')}; ` +
        `it wrote ${number(Number(written!.combinations))} insight_daily and ${number(Number(written!.dimensions))} insight_daily_by_dimension rows ` +
        `(${number(Number(written!.downloads))} downloads)`,
    );
    await removeDay(client, day);
  } finally {
    await client.end();
  }
}

/** Deletes a day's raw events and roll-ups (the benchmark's own day), leaving the seeded days as they were. */
async function removeDay(client: pg.Client, day: string): Promise<void> {
  await client.query(
    `DELETE FROM insight_events WHERE occurred_at >= $1::timestamptz AND occurred_at < $1::timestamptz + interval '1 day'`,
    [`${day}T00:00:00Z`],
  );
  await client.query(`DELETE FROM insight_daily WHERE day = $1`, [day]);
  await client.query(`DELETE FROM insight_daily_by_dimension WHERE day = $1`, [day]);
  await client.query('VACUUM insight_events, insight_daily, insight_daily_by_dimension');
}
