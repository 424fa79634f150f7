/**
 * Performance and caches (spec §7 `/api/performance...`), for administrators only. The figures are this
 * server process's own, collected in memory since `since`; behind a load balancer each node answers for
 * itself (`node` says which), while cache flushes and reloads reach every node. Instants are milliseconds
 * since 1970, durations milliseconds, sizes bytes.
 *
 * Routes:
 * - `GET /api/performance`: the report below (requests per route, latency, errors, caches, database).
 * - `POST /api/performance/reset`: starts the figures over (the caches' own counts are not reset).
 * - `POST /api/performance/enable?value=true|false`: turns collection on or off; anything else is a 400.
 * - `POST /api/performance/cache/flush[?name=]`: empties one cache or all of them, here and on every node.
 * - `POST /api/performance/cache/reload[?name=]`: rebuilds in the background while the old contents keep
 *   answering; answers 202 at once.
 * Flush, reload, reset and enable take an optional `?reason=` for the audit log.
 * `GET /metrics` is the same figures in Prometheus text format, for the operator's scraper (see the
 * server's README: a bearer token, or the server's own machine).
 */
import { Type, type Static } from 'typebox';
import { Nullable, Timestamp } from './common';

const Count = Type.Integer({ minimum: 0 });
const Milliseconds = Type.Number({ minimum: 0 });

export const LatencySummarySchema = Type.Object(
  {
    count: Count,
    meanMs: Milliseconds,
    p50Ms: Milliseconds,
    p95Ms: Milliseconds,
    p99Ms: Milliseconds,
    maxMs: Milliseconds,
  },
  { description: 'Quantiles are read from the histogram: within a quarter of the true value' },
);
export type LatencySummary = Static<typeof LatencySummarySchema>;

export const LatencyBucketSchema = Type.Object({
  /** The bucket's upper bound in milliseconds; null: the last, open one. */
  upToMs: Nullable(Milliseconds),
  count: Count,
});
export type LatencyBucket = Static<typeof LatencyBucketSchema>;

export const RoutePerformanceSchema = Type.Object({
  method: Type.String(),
  /** The route's pattern (`/api/plugins/:id`), `(no route)` for unknown paths. */
  route: Type.String(),
  requests: Count,
  /** Answers 400–499, and 500 and over. */
  clientErrors: Count,
  serverErrors: Count,
  latency: LatencySummarySchema,
});
export type RoutePerformance = Static<typeof RoutePerformanceSchema>;

export const CacheReloadOutcomeSchema = Type.Object({
  at: Timestamp,
  ok: Type.Boolean(),
  message: Type.Optional(Type.String()),
});

export const CacheInfoSchema = Type.Object({
  name: Type.String(),
  description: Type.String(),
  entries: Count,
  /** Approximate (see the description of each cache). */
  bytes: Count,
  /** When its contents were last built from scratch; null when it fills on demand or is empty. */
  builtAt: Nullable(Timestamp),
  hits: Count,
  misses: Count,
  /** hits / (hits + misses), null before any question. */
  hitRate: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
  /** A reload in progress on this node. */
  reloading: Type.Boolean(),
  lastReload: Nullable(CacheReloadOutcomeSchema),
});
export type CacheInfo = Static<typeof CacheInfoSchema>;

export const SlowQuerySchema = Type.Object({
  /** The SQL with its literals replaced by `?` (parameter values are never kept). */
  text: Type.String(),
  count: Count,
  meanMs: Milliseconds,
  maxMs: Milliseconds,
  lastAt: Timestamp,
});
export type SlowQuery = Static<typeof SlowQuerySchema>;

export const DatabasePerformanceSchema = Type.Object({
  kind: Type.Enum(['pglite', 'postgres']),
  /** Connections open, idle, requests waiting for one, and the most the pool opens (PGlite: one). */
  pool: Type.Object({ total: Count, idle: Count, waiting: Count, max: Count }),
  queries: LatencySummarySchema,
  queryErrors: Count,
  slowQueryMs: Milliseconds,
  /** Slowest first. */
  slowQueries: Type.Array(SlowQuerySchema),
});
export type DatabasePerformance = Static<typeof DatabasePerformanceSchema>;

export const PerformanceReportSchema = Type.Object({
  enabled: Type.Boolean(),
  /** When collection started or was last reset. */
  since: Timestamp,
  /** When collection was last turned on or off. */
  enabledChangedAt: Timestamp,
  now: Timestamp,
  /** This server process (a node behind a load balancer). */
  node: Type.String(),
  uptimeSeconds: Milliseconds,
  memory: Type.Object({ rssBytes: Count, heapUsedBytes: Count }),
  totals: Type.Object({
    requests: Count,
    clientErrors: Count,
    serverErrors: Count,
    latency: LatencySummarySchema,
  }),
  /** Every route's latencies together, the buckets that hold any. */
  histogram: Type.Array(LatencyBucketSchema),
  /** Busiest first. */
  routes: Type.Array(RoutePerformanceSchema),
  caches: Type.Array(CacheInfoSchema),
  database: DatabasePerformanceSchema,
});
export type PerformanceReport = Static<typeof PerformanceReportSchema>;

const Reason = Type.String({ minLength: 1, maxLength: 500, description: 'Why, for the audit log' });

export const PerformanceEnableQuery = Type.Object({
  value: Type.Enum(['true', 'false'], { description: 'true turns collection on, false off' }),
  reason: Type.Optional(Reason),
});
export type PerformanceEnableQuery = Static<typeof PerformanceEnableQuery>;

export const PerformanceReasonQuery = Type.Object({ reason: Type.Optional(Reason) });
export type PerformanceReasonQuery = Static<typeof PerformanceReasonQuery>;

export const PerformanceStateSchema = Type.Object({ enabled: Type.Boolean(), since: Timestamp });
export type PerformanceState = Static<typeof PerformanceStateSchema>;

export const CacheActionQuery = Type.Object({
  /** One cache by name (see the report's `caches`); all of them without it. */
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  reason: Type.Optional(Reason),
});
export type CacheActionQuery = Static<typeof CacheActionQuery>;

export const CacheActionResultSchema = Type.Object({
  action: Type.Enum(['flush', 'reload']),
  /** The caches acted on. */
  caches: Type.Array(Type.String()),
  /** Other nodes act on it when they read the event, within about a second. */
  otherNodes: Type.Literal('notified'),
});
export type CacheActionResult = Static<typeof CacheActionResultSchema>;
