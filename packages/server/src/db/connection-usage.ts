/**
 * What a database connection is doing, for the performance figures (src/admin/performance): how busy the
 * pool is and how long each query takes. Queries are timed only while an observer is set, at the cost of
 * two clock reads and a callback a query; their parameters are never seen.
 */

/** Called once a query has answered (or failed), with its SQL text as sent (parameters as $1, $2...). */
export type QueryObserver = (text: string, milliseconds: number, failed: boolean) => void;

/** The connections of a pool: open, idle, and requests waiting for one; `max` the most it opens. */
export interface PoolUse {
  kind: 'pglite' | 'postgres';
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

export class ConnectionUsage {
  observer: QueryObserver | undefined;

  constructor(readonly pool: () => PoolUse) {}

  /**
   * The query function `query` timed: it takes a text or a `{ text }` config first, and either a callback
   * last (node-postgres's pool calls it so) or answers a promise.
   */
  timed<Query extends (...args: never[]) => unknown>(query: Query): Query {
    const current = () => this.observer;
    const run = query as unknown as (...args: unknown[]) => unknown;
    return function timedQuery(this: unknown, ...args: unknown[]) {
      const observer = current();
      if (!observer) return run.apply(this, args);
      const first = args[0];
      const text =
        typeof first === 'string' ? first : String((first as { text?: unknown } | null)?.text ?? '');
      const started = performance.now();
      const last = args.length > 0 ? args[args.length - 1] : undefined;
      if (typeof last === 'function') {
        args[args.length - 1] = (error: unknown, ...rest: unknown[]) => {
          observer(text, performance.now() - started, error !== null && error !== undefined);
          return (last as (...values: unknown[]) => unknown)(error, ...rest);
        };
        return run.apply(this, args);
      }
      const result = run.apply(this, args);
      if (
        result !== null &&
        typeof result === 'object' &&
        typeof (result as Promise<unknown>).then === 'function'
      ) {
        (result as Promise<unknown>).then(
          () => observer(text, performance.now() - started, false),
          () => observer(text, performance.now() - started, true),
        );
      }
      return result;
    } as unknown as Query;
  }
}
