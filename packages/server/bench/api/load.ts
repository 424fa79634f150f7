import autocannon from 'autocannon';
import { Agent, request as httpRequest } from 'node:http';

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

/**
 * Loads the server with node:http clients that discard what they receive: for answers of megabytes, where
 * autocannon's own handling of each body (not the server) sets the pace. Keep-alive connections, one request
 * in flight each, for `durationSeconds`; latency is from sending a request to its last byte.
 */
export async function runStreamingLoad(options: LoadOptions): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const latencies: number[] = [];
  let failures = 0;
  let next = 0;
  const deadline = performance.now() + options.durationSeconds * 1000;
  const once = (path: string) =>
    new Promise<boolean>((resolve) => {
      const request = httpRequest(
        options.origin + path,
        { agent, headers: options.headers, timeout: 10_000 },
        (response) => {
          response.on('data', () => {});
          response.on('end', () => resolve(response.statusCode === 200 || response.statusCode === 304));
          response.on('error', () => resolve(false));
        },
      );
      request.on('timeout', () => request.destroy(new Error('timeout')));
      request.on('error', () => resolve(false));
      request.end();
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      while (performance.now() < deadline) {
        const path = options.paths[next++ % options.paths.length] as string;
        const sent = performance.now();
        if (await once(path)) latencies.push(performance.now() - sent);
        else failures++;
      }
    }),
  );
  const elapsedSeconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (share: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * share))] ?? 0);
  return {
    requestsPerSecond: latencies.length / elapsedSeconds,
    p50: at(0.5),
    p99: at(0.99),
    failures,
    requests: latencies.length + failures,
  };
}
