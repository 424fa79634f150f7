/**
 * `pnpm bench commerce`: quotes and the sales tab on the 50,000-item catalogue with a million sales. Reuses
 * the API benchmark's PostgreSQL catalogue (`mp_bench_api_<N>`, seeded by bench/api/seed.ts when missing),
 * gives its paid and freemium items the demo generator's selling set-up and a history of exactly `--sales`
 * sales (a few big items with `--big-item-sales` each), starts the server as a child process in production
 * mode with logging off and RESPONSE_CACHE_MS=0, and loads with autocannon at 1 and 32 connections:
 *
 *   GET .../apply/{code}?quantity=5&licenseKind=ORGANIZATION&billingPeriod=YEARLY   a quote with a valid coupon
 *   GET .../quote?quantity=1                                                          a quote without one
 *   GET .../sales-info?startDate&endDate    (a year)     the sales tab: totals and the first page, as the vendor
 *   GET .../analytics?startDate&endDate     (two years)  revenue per month, conversion, countries
 *
 * and times one full download of the CSV report (a year). The vendor's calls carry a permanent API token of
 * a user made a developer of the big items (created for the run and revoked after).
 *
 * Options: --duration S (per measurement, default 10), --connections 1,32, --reseed (the commerce data; the
 * catalogue itself is `pnpm bench api --reseed`'s), --postgres-url URL, --plugins N (default 50000),
 * --sales N (default 1000000), --big-items N (default 4), --big-item-sales N (default 100000).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { createApiToken, revokeApiToken } from '../src/auth/api-tokens';
import { createOffer, generateCoupons } from '../src/commerce/offers';
import { openDatabase } from '../src/db/client';
import { ApiError } from '../src/plugins/app/errors';
import { startServerProcess } from '../test/support/server-process';
import { runLoad, type LoadResult } from './api/load';
import { BENCH_TODAY, seedPostgres } from './api/seed';
import { seedCommerce, type CommerceSeed } from './commerce/seed';

const { values: args } = parseArgs({
  options: {
    plugins: { type: 'string', default: '50000' },
    sales: { type: 'string', default: '1000000' },
    'big-items': { type: 'string', default: '4' },
    'big-item-sales': { type: 'string', default: '100000' },
    connections: { type: 'string', default: '1,32' },
    duration: { type: 'string', default: '10' },
    reseed: { type: 'boolean', default: false },
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

const pluginCount = positiveInteger('plugins', args.plugins);
const salesCount = positiveInteger('sales', args.sales);
const bigItemCount = positiveInteger('big-items', args['big-items']);
const bigItemSales = positiveInteger('big-item-sales', args['big-item-sales']);
const durationSeconds = positiveInteger('duration', args.duration);
const connectionCounts = args.connections
  .split(',')
  .map((text) => positiveInteger('connections', text.trim()));

const log = (line: string) => console.log(line);
const DAY_MS = 86_400_000;
const day = (offsetDays: number) =>
  new Date(BENCH_TODAY.getTime() + offsetDays * DAY_MS).toISOString().slice(0, 10);
/** The history ends the day before the benchmark's "today". */
const LAST_DAY = day(-1);
const YEAR_START = day(-365);
const TWO_YEARS_START = day(-730);

interface Access {
  token: string;
  tokenId: number;
  userId: number;
  couponCode: string;
}

/**
 * The vendor's side: a user who develops the big items and a token for it, and a coupon of the big item
 * valid now for organizations (the generated ones may have expired since the data was made: then the
 * benchmark adds an offer of its own, as a vendor would).
 */
async function prepareAccess(databaseUrl: string, seed: CommerceSeed): Promise<Access> {
  const database = await openDatabase({ databaseUrl, dataDir: '', maxConnections: 2 });
  const db = database.db;
  try {
    const [user] = (
      await db.execute<{ id: number }>(sql`
        INSERT INTO users (login, name, email, email_verified)
        VALUES ('bench-vendor', 'Benchmark Vendor', 'bench-vendor@bench.example', true)
        ON CONFLICT (login) DO UPDATE SET name = EXCLUDED.name RETURNING id`)
    ).rows;
    const userId = user!.id;
    for (const item of seed.bigItems) {
      await db.execute(sql`INSERT INTO plugin_developers (plugin_id, user_id) VALUES (${item.id}, ${userId})
        ON CONFLICT DO NOTHING`);
    }
    const big = seed.bigItems[0]!;
    const validNow = sql`o.plugin_id = ${big.id} AND o.valid_from <= now() AND o.valid_until > now()
      AND (o.license_kinds = '{}' OR 'ORGANIZATION' = ANY(o.license_kinds))`;
    const [coupon] = (
      await db.execute<{ code: string }>(sql`SELECT c.code FROM coupons c JOIN offers o ON o.id = c.offer_id
        WHERE ${validNow} AND (o.max_uses_per_coupon IS NULL OR c.uses < o.max_uses_per_coupon)
        ORDER BY c.id LIMIT 1`)
    ).rows;
    let couponCode = coupon?.code;
    if (!couponCode) {
      const [offer] = (
        await db.execute<{ id: number }>(
          sql`SELECT o.id FROM offers o WHERE ${validNow} ORDER BY o.id LIMIT 1`,
        )
      ).rows;
      let offerId = offer?.id;
      // The longest window from today that no offer of the item for organizations overlaps.
      for (const days of [60, 14, 2, 1]) {
        if (offerId !== undefined) break;
        try {
          offerId = (
            await createOffer(db, big.id, userId, {
              name: 'Benchmark team offer',
              discountKind: 'PERCENT',
              discountValue: 15,
              validFrom: new Date().toISOString().slice(0, 10),
              validUntil: new Date(Date.now() + (days - 1) * DAY_MS).toISOString().slice(0, 10),
              licenseKinds: ['ORGANIZATION'],
              maxUsesPerCoupon: null,
            })
          ).id;
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
        }
      }
      if (offerId === undefined) throw new Error(`No offer of item ${big.id} can be valid today.`);
      couponCode = (await generateCoupons(db, big.id, offerId, 1))[0]?.code;
    }
    const created = await createApiToken(db, {
      userId,
      name: 'pnpm bench commerce',
      scopes: ['manage'],
      expiresInDays: 1,
    });
    return { token: created.token, tokenId: created.id, userId, couponCode: couponCode! };
  } finally {
    await database.close();
  }
}

async function revokeAccess(databaseUrl: string, access: Access): Promise<void> {
  const database = await openDatabase({ databaseUrl, dataDir: '', maxConnections: 1 });
  try {
    await revokeApiToken(database.db, access.userId, access.tokenId);
  } finally {
    await database.close();
  }
}

interface Row {
  scenario: string;
  connections: number;
  result: LoadResult;
}
const rows: Row[] = [];

function printRow(row: Row) {
  const { result } = row;
  console.log(
    `  ${row.scenario.padEnd(44)} ${String(row.connections).padStart(3)} conn ` +
      `${result.requestsPerSecond.toFixed(0).padStart(7)} req/s   p50 ${String(result.p50).padStart(4)} ms` +
      `   p99 ${String(result.p99).padStart(5)} ms${result.failures ? `   ${result.failures} failed` : ''}`,
  );
}

async function measure(
  scenario: string,
  origin: string,
  paths: readonly string[],
  headers: Record<string, string> = {},
) {
  for (const connections of connectionCounts) {
    const result = await runLoad({ origin, paths, connections, durationSeconds, headers });
    const row = { scenario, connections, result };
    rows.push(row);
    printRow(row);
  }
}

async function getJson<T>(origin: string, path: string, headers: Record<string, string>): Promise<T> {
  const response = await fetch(origin + path, { headers: { accept: 'application/json', ...headers } });
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

interface Download {
  firstByteMs: number;
  totalMs: number;
  bytes: number;
  lines: number;
}

/** One download of the CSV report, read to its end: time to the first byte and to the last, and its size. */
function download(origin: string, path: string, headers: Record<string, string>): Promise<Download> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let firstByteMs = 0;
    let bytes = 0;
    let lines = 0;
    const request = httpRequest(origin + path, { headers }, (response) => {
      if (response.statusCode !== 200) {
        reject(new Error(`${path} answered ${response.statusCode}`));
        response.resume();
        return;
      }
      response.on('data', (chunk: Buffer) => {
        if (bytes === 0) firstByteMs = performance.now() - started;
        bytes += chunk.length;
        for (let index = chunk.indexOf(10); index !== -1; index = chunk.indexOf(10, index + 1)) lines++;
      });
      response.on('end', () => resolve({ firstByteMs, totalMs: performance.now() - started, bytes, lines }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

function find(scenario: string, connections: number): LoadResult | undefined {
  return rows.find((row) => row.scenario === scenario && row.connections === connections)?.result;
}

const SCENARIOS = {
  apply: 'apply/{code}, ORGANIZATION x5 YEARLY',
  quote: 'quote?quantity=1',
  salesInfo: 'sales-info, a year (totals + page 1)',
  analytics: 'analytics, two years',
} as const;

const started = performance.now();
console.log(
  `Commerce benchmark: ${durationSeconds} s per measurement at ${connectionCounts.join(' and ')} connections`,
);
console.log('Seeding (reused when an earlier run left the same data):');
const catalogue = await seedPostgres(args['postgres-url'], pluginCount, false, log);
if (catalogue.seededNow) log(`  PostgreSQL catalogue seeded in ${catalogue.seedSeconds.toFixed(0)} s.`);
const databaseUrl = catalogue.databaseUrl as string;
const seed = await seedCommerce({
  databaseUrl,
  plugins: pluginCount,
  sales: salesCount,
  bigItems: bigItemCount,
  bigItemSales,
  reseed: args.reseed,
  log,
});
if (seed.seededNow) log(`  commerce data written in ${seed.seedSeconds.toFixed(0)} s.`);
log(
  `  rows: ${Object.entries(seed.counts)
    .map(([table, count]) => `${table} ${count.toLocaleString('en-US')}`)
    .join(', ')}`,
);
for (const item of seed.bigItems) {
  log(
    `  big item ${item.id} "${item.name}" (vendor ${item.vendorId}): ${item.sales.toLocaleString('en-US')} sales`,
  );
}
const big = seed.bigItems[0]!;
const access = await prepareAccess(databaseUrl, seed);
const owner = { authorization: `Bearer ${access.token}` };
const base = `/api/marketplace/plugin/${big.id}`;
const paths = {
  apply: `${base}/apply/${access.couponCode}?quantity=5&licenseKind=ORGANIZATION&billingPeriod=YEARLY`,
  quote: `${base}/quote?quantity=1`,
  salesInfo: `${base}/sales-info?startDate=${YEAR_START}&endDate=${LAST_DAY}`,
  analytics: `${base}/analytics?startDate=${TWO_YEARS_START}&endDate=${LAST_DAY}`,
  report: `${base}/full-report?startDate=${YEAR_START}&endDate=${LAST_DAY}`,
};

const dataDir = await mkdtemp(join(tmpdir(), 'marketplace-commerce-bench-'));
const server = await startServerProcess({
  startTimeoutMs: 600_000,
  env: {
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DEMO: 'false',
    RESPONSE_CACHE_MS: '0',
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
  },
});
const downloads: Download[] = [];
try {
  const origin = server.origin;
  // The server reads its search index and renders the IDE feed in the background after it starts serving;
  // a search and a feed wait for that, so the measurements below do not share the machine with it.
  const backgroundStarted = performance.now();
  await (await fetch(`${origin}/api/searchPlugins?search=git&max=1`)).arrayBuffer();
  await (
    await fetch(`${origin}/plugins/list?build=IU-253.28294.334`, { headers: { 'accept-encoding': 'gzip' } })
  ).arrayBuffer();
  log(
    `\nThe server's start in the background (search index, IDE feed) took ${((performance.now() - backgroundStarted) / 1000).toFixed(1)} s more.`,
  );
  log(`The big item ${big.id}, coupon ${access.couponCode}; uncached (RESPONSE_CACHE_MS=0):`);
  const applied = await getJson<{ totalMinor: number; coupon: { applied: boolean; reason: string | null } }>(
    origin,
    paths.apply,
    {},
  );
  if (!applied.coupon.applied) throw new Error(`The coupon does not apply: ${applied.coupon.reason}`);
  const info = await getJson<{ total: number; totals: { netMinor: number } }>(origin, paths.salesInfo, owner);
  const analytics = await getJson<{ months: unknown[]; trialConversionPercent: number | null }>(
    origin,
    paths.analytics,
    owner,
  );
  log(
    `  a year: ${info.total.toLocaleString('en-US')} sales, net $${(info.totals.netMinor / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}; ` +
      `analytics: ${analytics.months.length} months, trial conversion ${analytics.trialConversionPercent ?? '-'}%; ` +
      `apply: total $${(applied.totalMinor / 100).toFixed(2)}`,
  );
  await getJson(origin, paths.quote, {});
  await measure(SCENARIOS.apply, origin, [paths.apply]);
  await measure(SCENARIOS.quote, origin, [paths.quote]);
  await measure(SCENARIOS.salesInfo, origin, [paths.salesInfo], owner);
  await measure(SCENARIOS.analytics, origin, [paths.analytics], owner);
  log('\nThe CSV report of a year (full-report), downloaded alone, three times:');
  for (let attempt = 1; attempt <= 3; attempt++) {
    const result = await download(origin, paths.report, owner);
    downloads.push(result);
    log(
      `  download ${attempt}: ${(result.bytes / 1e6).toFixed(2)} MB, ${(result.lines - 1).toLocaleString('en-US')} sales, ` +
        `first byte after ${result.firstByteMs.toFixed(0)} ms, complete after ${result.totalMs.toFixed(0)} ms ` +
        `(${(result.bytes / 1e6 / (result.totalMs / 1000)).toFixed(1)} MB/s)`,
    );
  }
} finally {
  await server.stop();
  await revokeAccess(databaseUrl, access);
  await rm(dataDir, { recursive: true, force: true });
}

const most = Math.max(...connectionCounts);
const least = Math.min(...connectionCounts);
console.log(
  `\nGoals (the issue sets none beyond reporting; ${salesCount.toLocaleString('en-US')} sales, the big item ${big.sales.toLocaleString('en-US')}):`,
);
for (const [key, scenario] of Object.entries(SCENARIOS)) {
  const one = find(scenario, least);
  const many = find(scenario, most);
  if (!one || !many) continue;
  console.log(
    `  ${key.padEnd(10)} alone p50 ${one.p50} ms; at ${most} connections ${many.requestsPerSecond.toFixed(0)} req/s, ` +
      `p50 ${many.p50} ms, p99 ${many.p99} ms${many.failures + one.failures ? `, ${many.failures + one.failures} failed` : ''}`,
  );
}
if (downloads.length > 0) {
  const first = downloads[0]!;
  const best = downloads.reduce((a, b) => (b.totalMs < a.totalMs ? b : a));
  console.log(
    `  report     one download of a year (${(first.lines - 1).toLocaleString('en-US')} sales, ${(first.bytes / 1e6).toFixed(2)} MB): ` +
      `${(first.totalMs / 1000).toFixed(2)} s (best of three ${(best.totalMs / 1000).toFixed(2)} s)`,
  );
}
console.log(`\nDone in ${((performance.now() - started) / 1000 / 60).toFixed(1)} min.`);
