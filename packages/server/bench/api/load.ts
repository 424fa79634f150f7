import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Answers that were not 2xx/304, plus connection errors and timeouts. */
  failures: number;
  requests: number;
}

export interface LoadOptions {
  origin: string;
  /** Paths requested in turn, shared by all connections (a rotating set, or one path repeated). */
  paths: readonly string[];
  connections: number;
  durationSeconds: number;
  method?: 'GET' | 'POST';
  /** Body for POST, the same for every request. */
  body?: string;
  headers?: Record<string, string>;
}

/** Loads the server with autocannon (keep-alive connections, one request in flight each). */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  let next = 0;
  const paths = options.paths;
  const result = await autocannon({
    url: options.origin,
    connections: options.connections,
    pipelining: 1,
    duration: options.durationSeconds,
    timeout: 10,
    method: options.method ?? 'GET',
    headers: {
      accept: 'application/json',
      ...options.headers,
      ...(options.body ? { 'content-type': 'application/json' } : {}),
    },
    ...(options.body ? { body: options.body } : {}),
    requests: [
      {
        setupRequest(request) {
          const path = paths[next++ % paths.length] as string;
          return { ...request, path };
        },
      },
    ],
  });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    requests: result.requests.total,
  };
}
