/**
 * What this process measures about its own work, in memory and at a cost of a few array writes a request:
 * per route (the route's pattern, never the raw URL, so the number of series stays bounded) the requests,
 * client and server errors and a latency histogram; the database's queries and the slow ones, their text
 * normalised (values never kept). Quantiles are read from the histogram's buckets, so they are approximate:
 * within the bucket's width, a quarter of the value (see {@link BUCKET_RATIO}).
 */

/** The smallest bucket's upper bound, in milliseconds. */
const FIRST_BOUND_MS = 0.05;
/** Each bucket's bound is this much larger than the previous one's: a quantile is within 25 % of the truth. */
export const BUCKET_RATIO = 1.25;
/** Enough buckets to reach 60 s (0.05 ms × 1.25⁶³ ≈ 63 s); slower requests land in the last, open one. */
const BUCKET_COUNT = 64;
const LOG_RATIO = Math.log(BUCKET_RATIO);

/** The upper bounds of the buckets in milliseconds (the last one is +Inf). */
export const BUCKET_BOUNDS_MS: readonly number[] = Array.from({ length: BUCKET_COUNT }, (_, index) =>
  index === BUCKET_COUNT - 1 ? Number.POSITIVE_INFINITY : FIRST_BOUND_MS * BUCKET_RATIO ** index,
);

function bucketOf(milliseconds: number): number {
  if (!(milliseconds > FIRST_BOUND_MS)) return 0;
  const index = Math.ceil(Math.log(milliseconds / FIRST_BOUND_MS) / LOG_RATIO - 1e-9);
  return index >= BUCKET_COUNT ? BUCKET_COUNT - 1 : index;
}

/** Counts of observations per bucket, their sum, count and maximum. */
export class LatencyHistogram {
  readonly buckets = new Float64Array(BUCKET_COUNT);
  count = 0;
  sumMs = 0;
  maxMs = 0;

  observe(milliseconds: number): void {
    this.buckets[bucketOf(milliseconds)]!++;
    this.count++;
    this.sumMs += milliseconds;
    if (milliseconds > this.maxMs) this.maxMs = milliseconds;
  }

  add(other: LatencyHistogram): void {
    for (let index = 0; index < BUCKET_COUNT; index++) this.buckets[index]! += other.buckets[index]!;
    this.count += other.count;
    this.sumMs += other.sumMs;
    this.maxMs = Math.max(this.maxMs, other.maxMs);
  }

  /**
   * The value below which `fraction` of the observations fall, interpolated inside its bucket (never above
   * the largest observation). 0 with no observations.
   */
  quantile(fraction: number): number {
    if (this.count === 0) return 0;
    const rank = fraction * this.count;
    let seen = 0;
    for (let index = 0; index < BUCKET_COUNT; index++) {
      const inBucket = this.buckets[index]!;
      if (inBucket === 0 || seen + inBucket < rank) {
        seen += inBucket;
        continue;
      }
      const lower = index === 0 ? 0 : BUCKET_BOUNDS_MS[index - 1]!;
      const upper = Math.min(BUCKET_BOUNDS_MS[index]!, this.maxMs);
      const within = inBucket === 0 ? 0 : (rank - seen) / inBucket;
      return Math.min(this.maxMs, lower + (Math.max(upper, lower) - lower) * within);
    }
    return this.maxMs;
  }
}

/** One route's numbers. */
export class RouteStatistics {
  requests = 0;
  /** Answers 400–499. */
  clientErrors = 0;
  /** Answers 500 and over. */
  serverErrors = 0;
  readonly latency = new LatencyHistogram();

  constructor(
    readonly method: string,
    readonly route: string,
  ) {}
}

/** One normalised query text that took longer than the threshold at least once. */
export interface SlowQuery {
  text: string;
  count: number;
  totalMs: number;
  maxMs: number;
  lastAt: number;
}

/** Slow query texts kept; beyond it the one seen least recently goes. */
const SLOW_QUERIES_KEPT = 100;
/** A query text is cut to this many characters once normalised. */
const QUERY_TEXT_LENGTH = 2000;

/**
 * A query's text with what varies between runs taken out: string and number literals become `?`, lists
 * of them `(?, ...)`, white space one space. Parameters ($1) are already out of the text; their values are
 * never seen here.
 */
export function normaliseQueryText(text: string): string {
  return text
    .replace(/--[^\n]*/g, ' ')
    .replace(/'(?:[^']|'')*'/g, '?')
    .replace(/\b\d+(?:\.\d+)?\b/g, '?')
    .replace(/\s+/g, ' ')
    .replace(/\(\s*\?(?:\s*,\s*\?)+\s*\)/g, '(?, ...)')
    .trim()
    .slice(0, QUERY_TEXT_LENGTH);
}

export interface PerformanceMetricsOptions {
  /** Whether collection is on at start (PERFORMANCE_METRICS, default true). */
  enabled: boolean;
  /** Queries slower than this are kept with their normalised text (SLOW_QUERY_MS). */
  slowQueryMs: number;
}

/** The measurements of this process, since {@link since}. */
export class PerformanceMetrics {
  enabled: boolean;
  readonly slowQueryMs: number;
  /** When collection started or was last reset (milliseconds since 1970). */
  since = Date.now();
  /** When collection was last turned on or off. */
  enabledChangedAt = Date.now();
  /** By method, then by route pattern: no key is made for a request. */
  private readonly routes = new Map<string, Map<string, RouteStatistics>>();
  readonly queries = new LatencyHistogram();
  queryErrors = 0;
  private readonly slow = new Map<string, SlowQuery>();

  constructor(options: PerformanceMetricsOptions) {
    this.enabled = options.enabled;
    this.slowQueryMs = options.slowQueryMs;
  }

  /** One answered request: its method, route pattern (undefined: no route matched), status and time. */
  recordRequest(method: string, route: string | undefined, statusCode: number, milliseconds: number): void {
    let byRoute = this.routes.get(method);
    if (!byRoute) this.routes.set(method, (byRoute = new Map()));
    const pattern = route ?? NO_ROUTE;
    let statistics = byRoute.get(pattern);
    if (!statistics) byRoute.set(pattern, (statistics = new RouteStatistics(method, pattern)));
    statistics.requests++;
    if (statusCode >= 500) statistics.serverErrors++;
    else if (statusCode >= 400) statistics.clientErrors++;
    statistics.latency.observe(milliseconds);
  }

  /** One database query and how long it took (`failed`: it answered an error). */
  recordQuery(text: string, milliseconds: number, failed: boolean): void {
    this.queries.observe(milliseconds);
    if (failed) this.queryErrors++;
    if (milliseconds < this.slowQueryMs) return;
    const normalised = normaliseQueryText(text);
    const known = this.slow.get(normalised);
    const now = Date.now();
    if (known) {
      this.slow.delete(normalised);
      known.count++;
      known.totalMs += milliseconds;
      known.maxMs = Math.max(known.maxMs, milliseconds);
      known.lastAt = now;
      this.slow.set(normalised, known);
      return;
    }
    if (this.slow.size >= SLOW_QUERIES_KEPT) {
      const oldest = this.slow.keys().next();
      if (!oldest.done) this.slow.delete(oldest.value);
    }
    this.slow.set(normalised, {
      text: normalised,
      count: 1,
      totalMs: milliseconds,
      maxMs: milliseconds,
      lastAt: now,
    });
  }

  routeStatistics(): RouteStatistics[] {
    const all: RouteStatistics[] = [];
    for (const byRoute of this.routes.values()) all.push(...byRoute.values());
    return all;
  }

  slowQueries(): SlowQuery[] {
    return [...this.slow.values()].sort((a, b) => b.maxMs - a.maxMs);
  }

  /** All routes together. */
  total(): { requests: number; clientErrors: number; serverErrors: number; latency: LatencyHistogram } {
    const latency = new LatencyHistogram();
    let requests = 0;
    let clientErrors = 0;
    let serverErrors = 0;
    for (const statistics of this.routeStatistics()) {
      requests += statistics.requests;
      clientErrors += statistics.clientErrors;
      serverErrors += statistics.serverErrors;
      latency.add(statistics.latency);
    }
    return { requests, clientErrors, serverErrors, latency };
  }

  reset(): void {
    this.routes.clear();
    this.slow.clear();
    this.queries.buckets.fill(0);
    this.queries.count = 0;
    this.queries.sumMs = 0;
    this.queries.maxMs = 0;
    this.queryErrors = 0;
    this.since = Date.now();
  }

  /** Called when collection is turned on or off (the database's query timing follows it). */
  onToggle: ((enabled: boolean) => void) | undefined;

  setEnabled(enabled: boolean): void {
    if (enabled === this.enabled) return;
    this.enabled = enabled;
    this.enabledChangedAt = Date.now();
    this.onToggle?.(enabled);
  }
}

/** The route label of requests no route matched (404s of unknown paths): one series for all of them. */
export const NO_ROUTE = '(no route)';
/** The route label of answers the HTTP server replayed from the answer cache whose route is not known. */
export const ANSWER_CACHE_ROUTE = '(answer cache)';
