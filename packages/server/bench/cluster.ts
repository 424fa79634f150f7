/**
 * `pnpm bench cluster`: search and item-page throughput through the load balancer with one node in rotation
 * and with two, side by side. Starts the cluster of cluster/cluster.ts (two server nodes on one PostgreSQL
 * database, Redis and s3rver, behind haproxy on loopback) with the demo catalogue, warms both nodes, then
 * loads /api/searchPlugins (the rotating searches of `pnpm bench api`) and /api/plugins/{id} with autocannon
 * through haproxy: first with node b out of rotation (haproxy's `maint` state), then with both. The nodes
 * replay no kept answers (RESPONSE_CACHE_MS=0) unless asked, so every request does its work on a node.
 *
 * On a 2-core machine the nodes, PostgreSQL, haproxy and the load generator share the same two cores: the
 * point is that nothing breaks or slows with two nodes, not a linear speed-up.
 *
 * The machine's load drifts (other work, the database's caches), so the two layouts are measured in turns,
 * one node, two, two, one (`--rounds 2`, the default: each layout twice), and the table gives the means.
 *
 * Options: --connections N (default 16), --duration S (per measurement, default 10), --rounds N (default
 * 2), --response-cache-ms MS (the nodes' RESPONSE_CACHE_MS, default 0).
 */
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { residentBytes, sleep } from '../faults/support';
import { startCluster, type Cluster } from '../cluster/cluster';
import { runLoad, type LoadResult } from './api/load';
import { searchPaths } from './api/searches';

const { values: args } = parseArgs({
  options: {
    connections: { type: 'string', default: '16' },
    duration: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '2' },
    'response-cache-ms': { type: 'string', default: '0' },
  },
});

function wholeNumber(name: string, text: string, min: number): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min) {
    console.error(`--${name} must be a whole number of at least ${min}, got "${text}".`);
    process.exit(2);
  }
  return value;
}
const connections = wholeNumber('connections', args.connections, 1);
const durationSeconds = wholeNumber('duration', args.duration, 1);
const rounds = wholeNumber('rounds', args.rounds, 1);
const responseCacheMs = wholeNumber('response-cache-ms', args['response-cache-ms'], 0);

/** The item pages of every listed item (the demo has a few hundred). */
async function pluginPaths(origin: string): Promise<string[]> {
  const paths: string[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = (await (
      await fetch(`${origin}/api/searchPlugins?orderBy=name&max=100&offset=${offset}`)
    ).json()) as {
      plugins: { id: number }[];
      total: number;
    };
    for (const plugin of page.plugins) paths.push(`/api/plugins/${plugin.id}`);
    if (page.plugins.length === 0 || offset + 100 >= page.total || offset >= 900) break;
  }
  return paths;
}

const log = (line: string) => console.log(line);
const round = (value: number) => (Number.isFinite(value) ? Math.round(value) : NaN);

let cluster: Cluster | undefined;
const stopAll = async () => {
  await cluster?.stop();
  cluster = undefined;
};
process.on('SIGINT', () => void stopAll().then(() => process.exit(130)));

try {
  log('Starting the cluster (two nodes, demo catalogue)...');
  cluster = await startCluster({
    nodes: 2,
    demo: true,
    label: 'bench',
    env: { RESPONSE_CACHE_MS: String(responseCacheMs), PERFORMANCE_METRICS: 'true' },
    log: (line) => log(`  ${line}`),
  });
  const [a, b] = cluster.nodes;
  const origin = cluster.url;
  const scenarios: { name: string; paths: string[] }[] = [
    { name: 'searchPlugins, rotating searches', paths: searchPaths() },
    { name: 'plugins/{id}, every listed item', paths: await pluginPaths(origin) },
  ];
  log(
    `Load: autocannon, ${connections} keep-alive connections, ${durationSeconds} s each, through haproxy at ${origin}; ` +
      `nodes' RESPONSE_CACHE_MS=${responseCacheMs}.`,
  );

  // Both nodes warmed (the JIT, the search index, the database's pages) before anything is measured.
  for (const node of [a!, b!]) {
    for (const scenario of scenarios) {
      await runLoad({ origin: node.url, paths: scenario.paths, connections: 4, durationSeconds: 2 });
    }
  }

  const results = new Map<string, { one: LoadResult[]; two: LoadResult[] }>();
  const measure = async (nodesInRotation: 1 | 2) => {
    await cluster!.setNodeState(b!.name, nodesInRotation === 1 ? 'maint' : 'ready');
    await cluster!.waitForBalancer(b!.name, nodesInRotation === 2);
    await sleep(500);
    for (const scenario of scenarios) {
      const before = await cluster!.balancerView();
      const result = await runLoad({ origin, paths: scenario.paths, connections, durationSeconds });
      const after = await cluster!.balancerView();
      const served = cluster!.nodes
        .map((node) => `${node.name} ${after[node.name]!.total - before[node.name]!.total}`)
        .join(', ');
      log(
        `  ${nodesInRotation} node${nodesInRotation === 1 ? ' ' : 's'} | ${scenario.name}: ${round(result.requestsPerSecond)} req/s, ` +
          `p50 ${result.p50} ms, p99 ${result.p99} ms, ${result.failures} errors (requests per node: ${served})`,
      );
      const entry = results.get(scenario.name) ?? { one: [], two: [] };
      (nodesInRotation === 1 ? entry.one : entry.two).push(result);
      results.set(scenario.name, entry);
    }
  };
  // One, two, two, one, one, two...: drift of the machine's load falls on both layouts alike.
  for (let turn = 0; turn < rounds * 2; turn++) await measure(turn % 4 === 0 || turn % 4 === 3 ? 1 : 2);

  const memory = await Promise.all(
    cluster.nodes.map(
      async (node) => `${node.name} ${Math.round((await residentBytes(node.pid!)) / 1024 / 1024)} MB`,
    ),
  );

  const header = [
    'scenario',
    '1 node req/s',
    'p50',
    'p99',
    'errors',
    '2 nodes req/s',
    'p50',
    'p99',
    'errors',
    'ratio',
  ];
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const summary = (runs: LoadResult[]) => ({
    requestsPerSecond: mean(runs.map((run) => run.requestsPerSecond)),
    p50: mean(runs.map((run) => run.p50)),
    p99: mean(runs.map((run) => run.p99)),
    failures: runs.reduce((sum, run) => sum + run.failures, 0),
  });
  const rows = [...results].map(([name, runs]) => {
    const one = summary(runs.one);
    const two = summary(runs.two);
    return [
      name,
      String(round(one.requestsPerSecond)),
      `${round(one.p50)} ms`,
      `${round(one.p99)} ms`,
      String(one.failures),
      String(round(two.requestsPerSecond)),
      `${round(two.p50)} ms`,
      `${round(two.p99)} ms`,
      String(two.failures),
      `${(two.requestsPerSecond / one.requestsPerSecond).toFixed(2)}x`,
    ];
  });
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join(' | ');
  log('');
  log(
    `Through the load balancer, ${connections} connections, means of ${rounds} run(s) of ${durationSeconds} s per layout (${cpus().length} cores):`,
  );
  log(line(header));
  log(widths.map((width) => '-'.repeat(width)).join('-|-'));
  for (const row of rows) log(line(row));
  log(`Nodes' resident memory after the runs: ${memory.join(', ')}.`);
  const failures = [...results.values()]
    .flatMap(({ one, two }) => [...one, ...two])
    .reduce((sum, run) => sum + run.failures, 0);
  await stopAll();
  if (failures > 0) {
    console.error(`${failures} request(s) failed: a cluster must answer every request.`);
    process.exit(1);
  }
} catch (error) {
  console.error(`The benchmark failed: ${(error as Error).message}`);
  await stopAll();
  process.exit(1);
}
