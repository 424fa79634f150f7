/**
 * `pnpm bench api`: the read API under load. Seeds the demo catalogue (50,000 items by default) into
 * PostgreSQL and PGlite (reused by later runs), starts the server as a child process in production mode
 * with logging off, and loads /api/searchPlugins (a rotating set of realistic queries), /api/plugins/{id}
 * and /plugins/list?build=.. at 1 and 32 connections with autocannon, beside a static baseline: a plain
 * node:http server answering the same bytes from the same machine.
 *
 * Options: --plugins N (PostgreSQL, default 50000), --pglite-plugins N (default 50000), --engines
 * postgres,pglite, --connections 1,32, --duration S (per measurement, default 10), --reseed,
 * --postgres-url URL (an existing database to create the benchmark database from), --data-dir DIR,
 * --only feed (the IDE feed against its static baseline, nothing else), --only search (searchPlugins rotating
 * and repeated, nothing else: the figure `PERFORMANCE_METRICS=false` is compared with, src/admin/README.md).
 *
 * The feed is asked for as the IDE asks (Accept-Encoding: gzip); its static baseline serves the very bytes
 * the server sent, gzip-encoded, from a plain node:http server. Both are loaded with node:http clients that
 * discard the bytes (autocannon's handling of multi-megabyte bodies would set the pace instead). The
 * server's resident memory is sampled while the feed streams. The feed keeps whole answers until the
 * catalogue changes (src/ide-feed/README.md), so on PostgreSQL it is loaded a second time while a download
 * count changes every 200 ms (and is put back afterwards).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { startServerProcess } from '../test/support/server-process';
import { runLoad, runStreamingLoad, type LoadResult } from './api/load';
import { searchPaths } from './api/searches';
import { seedPglite, seedPostgres, type SeededDatabase } from './api/seed';

const serverDirectory = fileURLToPath(new URL('..', import.meta.url));

const { values: args } = parseArgs({
  options: {
    plugins: { type: 'string', default: '50000' },
    'pglite-plugins': { type: 'string', default: '50000' },
    engines: { type: 'string', default: 'postgres,pglite' },
    connections: { type: 'string', default: '1,32' },
    duration: { type: 'string', default: '10' },
    reseed: { type: 'boolean', default: false },
    'postgres-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/test' },
    'data-dir': { type: 'string', default: join(tmpdir(), 'marketplace-api-bench') },
    only: { type: 'string', default: '' },
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
const pglitePluginCount = positiveInteger('pglite-plugins', args['pglite-plugins']);
const durationSeconds = positiveInteger('duration', args.duration);
const connectionCounts = args.connections
  .split(',')
  .map((text) => positiveInteger('connections', text.trim()));
const engines = args.engines.split(',').map((text) => text.trim());
const feedOnly = args.only === 'feed';
const searchOnly = args.only === 'search';
if (args.only !== '' && !feedOnly && !searchOnly) {
  console.error(`--only takes feed or search, got "${args.only}".`);
  process.exit(2);
}
for (const engine of engines) {
  if (engine !== 'postgres' && engine !== 'pglite') {
    console.error(`--engines takes postgres and/or pglite, got "${engine}".`);
    process.exit(2);
  }
}

const log = (line: string) => console.log(line);

/**
 * Searches that each hold a word no earlier request used ("docker" + a made-up word): the server has not
 * seen the word, so it asks the database for its English stem before searching. Made-up words match
 * nothing, so these answers are small: the figure shows the cost of the stem lookup, not of ranking.
 */
function unseenWordPaths(first: number, count: number): string[] {
  const texts = ['docker', 'kotlin', 'database', 'git', 'theme'];
  const paths: string[] = [];
  for (let index = first; index < first + count; index++) {
    let word = '';
    for (let rest = index + 26 * 26; rest > 0; rest = Math.floor(rest / 26)) {
      word += String.fromCharCode(97 + (rest % 26));
    }
    paths.push(`/api/searchPlugins?search=${texts[index % texts.length]}+${word}&max=20`);
  }
  return paths;
}

/** Item pages of 500 listed items spread over the catalogue (ids of unlisted items would answer 404). */
async function pluginPaths(origin: string): Promise<string[]> {
  const first = (await (await fetch(`${origin}/api/searchPlugins?orderBy=name&max=1`)).json()) as {
    total: number;
  };
  const reachable = Math.min(first.total, 10_000);
  const paths: string[] = [];
  for (let page = 0; page < 5; page++) {
    const offset = Math.floor((reachable / 5) * page);
    const answer = (await (
      await fetch(`${origin}/api/searchPlugins?orderBy=name&max=100&offset=${offset}`)
    ).json()) as {
      plugins: { id: number }[];
    };
    for (const plugin of answer.plugins) paths.push(`/api/plugins/${plugin.id}`);
  }
  return paths;
}

const FEED_SCENARIO = 'plugins/list?build=, gzip, rotating builds';
const FEED_STATIC_SCENARIO = 'same bytes as plugins/list (gzip)';
const FEED_CHANGING_SCENARIO = 'plugins/list, same, a download every 200 ms';

const FEED_PATHS = [
  '/plugins/list?build=IU-253.28294.334',
  '/plugins/list?build=IC-252.23892.409',
  '/plugins/list?build=PY-251.23774.444',
  '/plugins/list?build=WS-243.22562.218',
];

interface RunningServer {
  origin: string;
  /** The server's process id, to sample its memory. */
  pid?: number | undefined;
  stop(): Promise<void>;
}

/** The IDE asks for feeds compressed. */
const IDE_HEADERS = { 'accept-encoding': 'gzip', 'user-agent': 'IntelliJ IDEA/252.23892.409' };

/** Resident memory of a process in MB (Linux /proc), sampled while a measurement runs. */
function residentMegabytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kilobytes = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kilobytes / 1024;
}

async function sampleMemory<T>(pid: number | undefined, run: () => Promise<T>): Promise<T> {
  if (pid === undefined) return run();
  const samples: number[] = [residentMegabytes(pid)];
  const timer = setInterval(() => samples.push(residentMegabytes(pid)), 250);
  try {
    return await run();
  } finally {
    clearInterval(timer);
    samples.push(residentMegabytes(pid));
    const sorted = [...samples].sort((a, b) => a - b);
    log(
      `            server memory (RSS) while streaming: start ${samples[0]!.toFixed(0)} MB, ` +
        `median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} MB, max ${sorted.at(-1)!.toFixed(0)} MB, ` +
        `end ${samples.at(-1)!.toFixed(0)} MB (${samples.length} samples)`,
    );
  }
}

/** The raw bytes of an answer (compressed as sent), with its type and encoding. */
async function rawAnswer(
  url: string,
  headers: Record<string, string>,
): Promise<{ body: Buffer; contentType: string; contentEncoding?: string | undefined }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        if (response.statusCode !== 200) {
          reject(new Error(`${url} answered ${response.statusCode}`));
          return;
        }
        resolve({
          body: Buffer.concat(chunks),
          contentType: String(response.headers['content-type'] ?? 'application/octet-stream'),
          contentEncoding: response.headers['content-encoding'],
        });
      });
      response.on('error', reject);
    }).on('error', reject);
  });
}

/**
 * Runs `run` while the catalogue changes the way downloads change it: every 200 ms a listed IntelliJ plugin's
 * download count moves (up, then back down, so the seeded catalogue is left as it was). The server's feed
 * reads each change at its next look (within a second) and forgets the answers it kept, so this measures
 * answers put together again after changes, not only answers kept.
 */
async function whileDownloadsCount<T>(databaseUrl: string, run: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query<{ id: number }>(
    `SELECT id FROM plugins WHERE listed AND family = 'intellij' ORDER BY id LIMIT 1`,
  );
  const id = rows[0]?.id;
  let moved = 0;
  let changes = 0;
  let stopped = false;
  const changing = (async () => {
    while (!stopped && id !== undefined) {
      const delta = moved === 0 ? 1 : -1;
      await client.query('UPDATE plugins SET downloads = downloads + $1 WHERE id = $2', [delta, id]);
      moved += delta;
      changes++;
      await sleep(200);
    }
  })();
  try {
    return await run();
  } finally {
    stopped = true;
    await changing;
    if (moved !== 0) {
      await client.query('UPDATE plugins SET downloads = downloads - $1 WHERE id = $2', [moved, id]);
    }
    await client.end();
    log(`            ${changes} download counts changed while loading`);
  }
}

async function startApiServer(database: SeededDatabase, responseCacheMs: number): Promise<RunningServer> {
  const server = await startServerProcess({
    // The feed's fragments hold download links: one public address for every run, so they are rendered once.
    startTimeoutMs: 600_000,
    env: {
      PUBLIC_URL: 'https://marketplace.bench.example',
      NODE_ENV: 'production',
      LOG_LEVEL: 'silent',
      DEMO: 'false',
      RESPONSE_CACHE_MS: String(responseCacheMs),
      DATABASE_URL: database.databaseUrl ?? '',
      DATA_DIR: database.dataDir || join(args['data-dir'], 'postgres-server'),
    },
  });
  return { origin: server.origin, pid: server.child.pid, stop: () => server.stop() };
}

async function startStaticServer(
  bodies: Record<string, { body: Buffer; contentType: string; contentEncoding?: string | undefined }>,
): Promise<RunningServer> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(serverDirectory, 'bench/api/static-server.ts')],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const encoded = Object.fromEntries(
    Object.entries(bodies).map(([path, answer]) => [
      path,
      {
        body: answer.body.toString('base64'),
        contentType: answer.contentType,
        contentEncoding: answer.contentEncoding,
      },
    ]),
  );
  child.stdin.end(JSON.stringify({ bodies: encoded }));
  const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
  const { port } = JSON.parse(chunk.toString()) as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

interface Row {
  engine: string;
  scenario: string;
  connections: number;
  result: LoadResult;
}
const rows: Row[] = [];

function printRow(row: Row) {
  const { result } = row;
  console.log(
    `  ${row.engine.padEnd(9)} ${row.scenario.padEnd(34)} ${String(row.connections).padStart(3)} conn ` +
      `${result.requestsPerSecond.toFixed(0).padStart(7)} req/s   p50 ${String(result.p50).padStart(4)} ms` +
      `   p99 ${String(result.p99).padStart(5)} ms${result.failures ? `   ${result.failures} failed` : ''}`,
  );
}

async function measure(
  engine: string,
  scenario: string,
  origin: string,
  paths: readonly string[] | ((connections: number) => readonly string[]),
  headers: Record<string, string> = {},
  load: typeof runLoad = runLoad,
) {
  for (const connections of connectionCounts) {
    const pathsNow = typeof paths === 'function' ? paths(connections) : paths;
    const result = await load({ origin, paths: pathsNow, connections, durationSeconds, headers });
    const row = { engine, scenario, connections, result };
    rows.push(row);
    printRow(row);
  }
}

async function warmUp(origin: string, paths: readonly string[], headers: Record<string, string> = {}) {
  for (const path of paths) {
    const response = await fetch(origin + path, { headers });
    if (!response.ok)
      throw new Error(`Warm-up: ${path} answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
  }
}

const REPEATED = {
  search: '/api/searchPlugins?search=git&orderBy=relevance&max=20',
  plugin: '/api/plugins/1',
};

async function benchmarkEngine(engine: string, database: SeededDatabase, count: number) {
  const searches = searchPaths();
  log(
    `\n${engine}: ${count} items, uncached (RESPONSE_CACHE_MS=0: no answer is replayed, every request is computed)`,
  );
  const uncached = await startApiServer(database, 0);
  try {
    if (searchOnly) {
      await warmUp(uncached.origin, searches);
      await measure(engine, 'searchPlugins, rotating queries', uncached.origin, searches);
    } else {
      const feedStarted = performance.now();
      await warmUp(uncached.origin, FEED_PATHS, IDE_HEADERS);
      log(`  the first feed answered after ${((performance.now() - feedStarted) / 1000).toFixed(1)} s`);
      await sampleMemory(uncached.pid, () =>
        measure(engine, FEED_SCENARIO, uncached.origin, FEED_PATHS, IDE_HEADERS, runStreamingLoad),
      );
      // The feed keeps whole answers until the catalogue changes: measure it changing too (PostgreSQL only,
      // where another client can write while the server runs).
      if (database.databaseUrl) {
        const databaseUrl = database.databaseUrl;
        await sampleMemory(uncached.pid, () =>
          whileDownloadsCount(databaseUrl, () =>
            measure(
              engine,
              FEED_CHANGING_SCENARIO,
              uncached.origin,
              FEED_PATHS,
              IDE_HEADERS,
              runStreamingLoad,
            ),
          ),
        );
      }
      if (!feedOnly) {
        const plugins = await pluginPaths(uncached.origin);
        await warmUp(uncached.origin, [...searches, ...plugins.slice(0, 50)]);
        await measure(engine, 'searchPlugins, rotating queries', uncached.origin, searches);
        // Each connection count gets words of its own, so none was seen by an earlier measurement.
        await measure(engine, 'searchPlugins, unseen word, no match', uncached.origin, (connections) =>
          unseenWordPaths(connections * 1_000_000, 200_000),
        );
        await measure(engine, 'plugins/{id}, rotating ids', uncached.origin, plugins);
      }
    }
  } finally {
    await uncached.stop();
  }
  if (feedOnly) return;
  log(`${engine}: repeated requests (the answer cache on, as in production)`);
  const cached = await startApiServer(database, 5000);
  try {
    await warmUp(cached.origin, Object.values(REPEATED));
    await measure(engine, 'searchPlugins, repeated', cached.origin, [REPEATED.search]);
    if (!searchOnly) await measure(engine, 'plugins/{id}, repeated', cached.origin, [REPEATED.plugin]);
  } finally {
    await cached.stop();
  }
}

async function staticBaseline(database: SeededDatabase) {
  const server = await startApiServer(database, 0);
  const bodies: Record<string, { body: Buffer; contentType: string; contentEncoding?: string | undefined }> =
    {};
  try {
    for (const path of feedOnly ? [] : Object.values(REPEATED)) {
      bodies[path] = await rawAnswer(server.origin + path, {});
    }
    for (const path of FEED_PATHS) bodies[path] = await rawAnswer(server.origin + path, IDE_HEADERS);
  } finally {
    await server.stop();
  }
  log(
    `\nstatic baseline: node:http answering the same bytes (${Object.values(bodies)
      .map((answer) => answer.body.length)
      .join(', ')} bytes)`,
  );
  const baseline = await startStaticServer(bodies);
  try {
    await measure('static', FEED_STATIC_SCENARIO, baseline.origin, FEED_PATHS, IDE_HEADERS, runStreamingLoad);
    if (feedOnly) return;
    await measure('static', 'same bytes as searchPlugins', baseline.origin, [REPEATED.search]);
    await measure('static', 'same bytes as plugins/{id}', baseline.origin, [REPEATED.plugin]);
  } finally {
    await baseline.stop();
  }
}

function find(engine: string, scenario: string, connections: number): LoadResult | undefined {
  return rows.find(
    (row) => row.engine === engine && row.scenario === scenario && row.connections === connections,
  )?.result;
}

function summary() {
  const most = Math.max(...connectionCounts);
  console.log(`\nGoals (PostgreSQL, ${most} connections):`);
  const search = find('postgres', 'searchPlugins, rotating queries', most);
  if (search) {
    const met = search.requestsPerSecond >= 2000 && search.p99 < 50;
    console.log(
      `  uncached search >= 2000 req/s with p99 < 50 ms: ${search.requestsPerSecond.toFixed(0)} req/s, ` +
        `p99 ${search.p99} ms -> ${met ? 'met' : 'NOT met'}`,
    );
  }
  for (const engine of engines) {
    const baseline = find('static', FEED_STATIC_SCENARIO, most);
    for (const [scenario, label] of [
      [FEED_SCENARIO, 'uncached feed'],
      [FEED_CHANGING_SCENARIO, 'uncached feed, downloads counted'],
    ] as const) {
      const feed = find(engine, scenario, most);
      if (!feed || !baseline) continue;
      const share = (feed.requestsPerSecond / baseline.requestsPerSecond) * 100;
      console.log(
        `  ${label} (${engine}) >= 30% of static: ${feed.requestsPerSecond.toFixed(0)} / ` +
          `${baseline.requestsPerSecond.toFixed(0)} req/s = ${share.toFixed(0)}%, p99 ${feed.p99} ms ` +
          `(static p99 ${baseline.p99} ms) -> ${share >= 30 ? 'met' : 'NOT met'}`,
      );
    }
  }
  for (const [scenario, staticScenario] of [
    ['searchPlugins, repeated', 'same bytes as searchPlugins'],
    ['plugins/{id}, repeated', 'same bytes as plugins/{id}'],
  ] as const) {
    const api = find('postgres', scenario, most);
    const baseline = find('static', staticScenario, most);
    if (api && baseline) {
      const share = (api.requestsPerSecond / baseline.requestsPerSecond) * 100;
      console.log(
        `  ${scenario} >= 40% of static: ${api.requestsPerSecond.toFixed(0)} / ${baseline.requestsPerSecond.toFixed(0)} ` +
          `req/s = ${share.toFixed(0)}% -> ${share >= 40 ? 'met' : 'NOT met'}`,
      );
    }
  }
}

const started = performance.now();
console.log(
  `API benchmark: ${durationSeconds} s per measurement at ${connectionCounts.join(' and ')} connections`,
);
console.log('Seeding (reused when an earlier run left the same catalogue):');
const databases = new Map<string, { database: SeededDatabase; count: number }>();
if (engines.includes('postgres')) {
  const database = await seedPostgres(args['postgres-url'], pluginCount, args.reseed, log);
  if (database.seededNow) log(`  PostgreSQL seeded in ${database.seedSeconds.toFixed(0)} s.`);
  databases.set('postgres', { database, count: pluginCount });
}
if (engines.includes('pglite')) {
  const database = await seedPglite(args['data-dir'], pglitePluginCount, args.reseed, log);
  if (database.seededNow) log(`  PGlite seeded in ${database.seedSeconds.toFixed(0)} s.`);
  databases.set('pglite', { database, count: pglitePluginCount });
}
for (const [engine, { database, count }] of databases) await benchmarkEngine(engine, database, count);
const first = [...databases.values()][0];
if (first) await staticBaseline(first.database);
summary();
console.log(`\nDone in ${((performance.now() - started) / 1000 / 60).toFixed(1)} min.`);
