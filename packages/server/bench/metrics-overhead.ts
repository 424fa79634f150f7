/**
 * `pnpm bench metrics-overhead`: what collecting performance figures costs (src/admin/README.md,
 * Performance and caches). Starts the server twice on the same database, one with PERFORMANCE_METRICS=true
 * and one with false, and loads the same URLs at 32 connections in interleaved 5-second rounds (on/off, then
 * off/on, so warm-up and the machine's other load fall on both), then prints the mean of each.
 *
 * Settings (environment): AB_DATABASE_URL (default: the database `pnpm bench api --plugins 3000` seeds),
 * AB_CACHE (RESPONSE_CACHE_MS, default 5000: replayed answers; 0: every search computed), AB_PATHS (comma-
 * separated), AB_ROUNDS (default 6).
 */
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { startServerProcess } from '../test/support/server-process';
import { runLoad } from './api/load';

const databaseUrl = process.env.AB_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/mp_bench_api_3000';
async function start(enabled: boolean) {
  return startServerProcess({
    startTimeoutMs: 600_000,
    env: {
      PUBLIC_URL: 'https://marketplace.bench.example',
      NODE_ENV: 'production',
      LOG_LEVEL: 'silent',
      DEMO: 'false',
      RESPONSE_CACHE_MS: process.env.AB_CACHE ?? '5000',
      DATABASE_URL: databaseUrl,
      DATA_DIR: join(tmpdir(), `ab-${enabled}`),
      PERFORMANCE_METRICS: String(enabled),
    },
  });
}
const paths = (process.env.AB_PATHS ?? '/api/searchPlugins?search=git&orderBy=relevance&max=20').split(',');
const on = await start(true);
const off = await start(false);
const results: Record<string, number[]> = { on: [], off: [] };
try {
  for (const server of [on, off])
    for (const path of paths) await fetch(server.origin + path).then((r) => r.arrayBuffer());
  for (let round = 0; round < Number(process.env.AB_ROUNDS ?? 6); round++) {
    for (const [name, server] of round % 2 === 0
      ? ([
          ['on', on],
          ['off', off],
        ] as const)
      : ([
          ['off', off],
          ['on', on],
        ] as const)) {
      const result = await runLoad({
        origin: server.origin,
        paths,
        connections: 32,
        durationSeconds: 5,
        headers: {},
      });
      results[name]!.push(result.requestsPerSecond);
      console.log(
        `round ${round} ${name}: ${result.requestsPerSecond.toFixed(0)} req/s p99 ${result.p99} ms`,
      );
    }
  }
} finally {
  await on.stop();
  await off.stop();
}
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
console.log(
  `mean on ${mean(results.on!).toFixed(0)}, off ${mean(results.off!).toFixed(0)}, on/off ${((mean(results.on!) / mean(results.off!)) * 100).toFixed(1)}%`,
);
