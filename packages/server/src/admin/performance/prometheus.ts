import { collectDefaultMetrics, Registry, type Metric } from 'prom-client';
import type { CacheRegistry } from '../caches/registry';
import type { PoolUse } from '../../db/connection-usage';
import { BUCKET_BOUNDS_MS, type LatencyHistogram, type PerformanceMetrics } from './metrics';

type Labels = Record<string, string | number>;
interface MetricValue {
  value: number;
  labels?: Labels;
  metricName?: string;
}

/**
 * Every fourth bucket bound of the in-memory histograms (about 2.4 times the previous one, 0.05 ms to 33 s):
 * the exported `le` bounds coincide with bounds the histograms keep, so their cumulative counts are exact.
 */
const EXPORTED_BOUNDS = BUCKET_BOUNDS_MS.map((bound, index) => ({ bound, index })).filter(
  ({ bound, index }) => index % 4 === 0 && Number.isFinite(bound),
);

function leOf(milliseconds: number): string {
  return String(Number((milliseconds / 1000).toPrecision(6)));
}

/** A histogram's `_bucket`, `_sum` and `_count` lines for one label set, in seconds. */
function histogramValues(name: string, histogram: LatencyHistogram, labels: Labels = {}): MetricValue[] {
  const values: MetricValue[] = [];
  let cumulative = 0;
  let next = 0;
  for (const { bound, index } of EXPORTED_BOUNDS) {
    for (; next <= index; next++) cumulative += histogram.buckets[next]!;
    values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: leOf(bound) }, value: cumulative });
  }
  values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: '+Inf' }, value: histogram.count });
  values.push({ metricName: `${name}_sum`, labels, value: histogram.sumMs / 1000 });
  values.push({ metricName: `${name}_count`, labels, value: histogram.count });
  return values;
}

/**
 * A metric read from this process's own figures when scraped (prom-client formats and escapes it): the
 * figures are kept once, in {@link PerformanceMetrics}, not observed twice.
 */
function readMetric(
  name: string,
  help: string,
  type: 'counter' | 'gauge' | 'histogram',
  read: () => MetricValue[],
): Metric {
  const metric = {
    name,
    help,
    type,
    aggregator: 'sum',
    get: async () => ({ name, help, type, aggregator: 'sum', values: read() }),
    reset: () => {},
  };
  return metric as unknown as Metric;
}

export interface PrometheusSources {
  metrics: PerformanceMetrics;
  caches: CacheRegistry;
  pool: () => PoolUse;
}

/**
 * The registry /metrics answers from: prom-client's default process metrics (CPU, memory, event loop
 * delay, garbage collection, handles) and the marketplace's own figures, under `marketplace_`. Made on the
 * first scrape only, so processes nobody scrapes (tests) do not sample the event loop.
 */
export function prometheusRegistry({ metrics, caches, pool }: PrometheusSources): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const routes = () => metrics.routeStatistics();
  const add = (metric: Metric) => registry.registerMetric(metric);
  add(
    readMetric(
      'marketplace_performance_collecting',
      'Whether figures are being collected (1) or not (0)',
      'gauge',
      () => [{ value: metrics.enabled ? 1 : 0 }],
    ),
  );
  add(
    readMetric(
      'marketplace_performance_since_seconds',
      'When collection started or was last reset, in seconds since 1970',
      'gauge',
      () => [{ value: metrics.since / 1000 }],
    ),
  );
  add(
    readMetric(
      'marketplace_http_requests_total',
      'Requests answered, by method and route pattern',
      'counter',
      () =>
        routes().map((route) => ({
          labels: { method: route.method, route: route.route },
          value: route.requests,
        })),
    ),
  );
  add(
    readMetric(
      'marketplace_http_request_errors_total',
      'Answers with an error status, by method, route pattern and kind (client: 4xx, server: 5xx)',
      'counter',
      () =>
        routes().flatMap((route) => [
          { labels: { method: route.method, route: route.route, kind: 'client' }, value: route.clientErrors },
          { labels: { method: route.method, route: route.route, kind: 'server' }, value: route.serverErrors },
        ]),
    ),
  );
  add(
    readMetric(
      'marketplace_http_request_duration_seconds',
      'Time from the request to the answer sent, by method and route pattern',
      'histogram',
      () =>
        routes().flatMap((route) =>
          histogramValues('marketplace_http_request_duration_seconds', route.latency, {
            method: route.method,
            route: route.route,
          }),
        ),
    ),
  );
  add(
    readMetric('marketplace_db_query_duration_seconds', 'Database query time', 'histogram', () =>
      histogramValues('marketplace_db_query_duration_seconds', metrics.queries),
    ),
  );
  add(
    readMetric('marketplace_db_query_errors_total', 'Database queries that failed', 'counter', () => [
      { value: metrics.queryErrors },
    ]),
  );
  add(
    readMetric(
      'marketplace_db_slow_queries_total',
      'Queries at least as slow as SLOW_QUERY_MS (the texts are in GET /api/performance)',
      'counter',
      () => [{ value: metrics.slowQueries().reduce((sum, query) => sum + query.count, 0) }],
    ),
  );
  add(
    readMetric(
      'marketplace_db_pool_connections',
      'Database connections by state (total, idle, waiting requests, max)',
      'gauge',
      () => {
        const use = pool();
        return (['total', 'idle', 'waiting', 'max'] as const).map((state) => ({
          labels: { state },
          value: use[state],
        }));
      },
    ),
  );
  const perCache = (read: (cache: ReturnType<CacheRegistry['list']>[number]) => number) => () =>
    caches.list().map((cache) => ({ labels: { cache: cache.name }, value: read(cache) }));
  add(
    readMetric(
      'marketplace_cache_entries',
      'Entries held, by cache',
      'gauge',
      perCache((cache) => cache.entries),
    ),
  );
  add(
    readMetric(
      'marketplace_cache_bytes',
      'Approximate bytes held, by cache',
      'gauge',
      perCache((cache) => Math.round(cache.bytes)),
    ),
  );
  add(
    readMetric(
      'marketplace_cache_hits_total',
      'Questions answered from the cache',
      'counter',
      perCache((cache) => cache.hits),
    ),
  );
  add(
    readMetric(
      'marketplace_cache_misses_total',
      'Questions the cache had to read the source for',
      'counter',
      perCache((cache) => cache.misses),
    ),
  );
  return registry;
}
