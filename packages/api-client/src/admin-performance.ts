import type {
  CacheActionResult,
  CacheInfo,
  LatencySummary,
  PerformanceReport,
  PerformanceState,
  RoutePerformance,
  SlowQuery,
} from '@marketplace/api-contract';
import { buildQuery } from './query';
import type { ApiTransport, CallOptions } from './transport';

export type {
  CacheActionResult,
  CacheInfo,
  LatencySummary,
  PerformanceReport,
  PerformanceState,
  RoutePerformance,
  SlowQuery,
};

const BASE = '/api/performance';

/** The paths of spec §7's performance routes. */
export const performancePaths = {
  report: () => BASE,
  reset: (reason?: string) => `${BASE}/reset${buildQuery({ reason })}`,
  enable: (value: boolean, reason?: string) =>
    `${BASE}/enable${buildQuery({ value: String(value), reason })}`,
  flush: (name?: string, reason?: string) => `${BASE}/cache/flush${buildQuery({ name, reason })}`,
  reload: (name?: string, reason?: string) => `${BASE}/cache/reload${buildQuery({ name, reason })}`,
};

/**
 * Administrators: this server process's request, latency, error, cache and database figures; turning
 * collection on and off; emptying and rebuilding caches on every node.
 */
export class PerformanceClient {
  constructor(private readonly transport: ApiTransport) {}

  report(options: CallOptions = {}): Promise<PerformanceReport> {
    return this.transport.sendJson({ ...options, method: 'GET', path: performancePaths.report() });
  }

  reset(reason?: string, options: CallOptions = {}): Promise<PerformanceState> {
    return this.transport.sendJson({ ...options, method: 'POST', path: performancePaths.reset(reason) });
  }

  enable(value: boolean, reason?: string, options: CallOptions = {}): Promise<PerformanceState> {
    return this.transport.sendJson({
      ...options,
      method: 'POST',
      path: performancePaths.enable(value, reason),
    });
  }

  /** Empties one cache (by name) or all of them, here and on every node. */
  flushCache(name?: string, reason?: string, options: CallOptions = {}): Promise<CacheActionResult> {
    return this.transport.sendJson({
      ...options,
      method: 'POST',
      path: performancePaths.flush(name, reason),
    });
  }

  /** Rebuilds one cache (by name) or all of them in the background; the old contents answer meanwhile. */
  reloadCache(name?: string, reason?: string, options: CallOptions = {}): Promise<CacheActionResult> {
    return this.transport.sendJson({
      ...options,
      method: 'POST',
      path: performancePaths.reload(name, reason),
    });
  }
}
