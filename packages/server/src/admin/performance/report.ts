import type { CacheInfo, LatencyBucket, LatencySummary, PerformanceReport } from '@marketplace/api-contract';
import type { CacheRegistry } from '../caches/registry';
import type { PoolUse } from '../../db/connection-usage';
import { BUCKET_BOUNDS_MS, type LatencyHistogram, type PerformanceMetrics } from './metrics';

/** Routes shown in the report: the busiest this many (all of them are in /metrics). */
const ROUTES_SHOWN = 100;

const round = (value: number) => Math.round(value * 1000) / 1000;

export function latencySummary(histogram: LatencyHistogram): LatencySummary {
  return {
    count: histogram.count,
    meanMs: histogram.count === 0 ? 0 : round(histogram.sumMs / histogram.count),
    p50Ms: round(histogram.quantile(0.5)),
    p95Ms: round(histogram.quantile(0.95)),
    p99Ms: round(histogram.quantile(0.99)),
    maxMs: round(histogram.maxMs),
  };
}

/** The histogram's buckets from the first to the last that holds anything (empty ones between included). */
export function latencyBuckets(histogram: LatencyHistogram): LatencyBucket[] {
  let first = -1;
  let last = -1;
  histogram.buckets.forEach((count, index) => {
    if (count === 0) return;
    if (first < 0) first = index;
    last = index;
  });
  if (first < 0) return [];
  const buckets: LatencyBucket[] = [];
  for (let index = first; index <= last; index++) {
    const bound = BUCKET_BOUNDS_MS[index]!;
    buckets.push({ upToMs: Number.isFinite(bound) ? round(bound) : null, count: histogram.buckets[index]! });
  }
  return buckets;
}

export function cacheInfos(caches: CacheRegistry): CacheInfo[] {
  return caches.list().map((cache) => {
    const questions = cache.hits + cache.misses;
    return {
      name: cache.name,
      description: cache.description,
      entries: cache.entries,
      bytes: Math.max(0, Math.round(cache.bytes)),
      builtAt: cache.builtAt,
      hits: cache.hits,
      misses: cache.misses,
      hitRate: questions === 0 ? null : cache.hits / questions,
      reloading: cache.reloading,
      lastReload: cache.lastReload,
    };
  });
}

export interface ReportSources {
  metrics: PerformanceMetrics;
  caches: CacheRegistry;
  pool: PoolUse;
  node: string;
}

export function performanceReport({ metrics, caches, pool, node }: ReportSources): PerformanceReport {
  const totals = metrics.total();
  const routes = metrics
    .routeStatistics()
    .sort((a, b) => b.requests - a.requests)
    .slice(0, ROUTES_SHOWN)
    .map((statistics) => ({
      method: statistics.method,
      route: statistics.route,
      requests: statistics.requests,
      clientErrors: statistics.clientErrors,
      serverErrors: statistics.serverErrors,
      latency: latencySummary(statistics.latency),
    }));
  const memory = process.memoryUsage();
  return {
    enabled: metrics.enabled,
    since: metrics.since,
    enabledChangedAt: metrics.enabledChangedAt,
    now: Date.now(),
    node,
    uptimeSeconds: Math.round(process.uptime()),
    memory: { rssBytes: memory.rss, heapUsedBytes: memory.heapUsed },
    totals: {
      requests: totals.requests,
      clientErrors: totals.clientErrors,
      serverErrors: totals.serverErrors,
      latency: latencySummary(totals.latency),
    },
    histogram: latencyBuckets(totals.latency),
    routes,
    caches: cacheInfos(caches),
    database: {
      kind: pool.kind,
      pool: { total: pool.total, idle: pool.idle, waiting: pool.waiting, max: pool.max },
      queries: latencySummary(metrics.queries),
      queryErrors: metrics.queryErrors,
      slowQueryMs: metrics.slowQueryMs,
      slowQueries: metrics.slowQueries().map((query) => ({
        text: query.text,
        count: query.count,
        meanMs: round(query.totalMs / query.count),
        maxMs: round(query.maxMs),
        lastAt: query.lastAt,
      })),
    },
  };
}
