import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
/**
 * Every cache this process keeps, in one list an administrator can read, empty and rebuild. A cache is only
 * a cache: the database and the file store stay the truth, so emptying one never loses anything (answers
 * are made again, more slowly, until it fills again).
 */

/** What a cache says about itself. Sizes are approximate: see each cache's description. */
export interface CacheStatistics {
  entries: number;
  /** Approximate bytes held (the contents counted, not the objects around them). */
  bytes: number;
  /** When what it holds was last built from scratch (milliseconds since 1970), or null when empty. */
  builtAt: number | null;
  /** Questions answered from the cache, and questions it had to read the source for. */
  hits: number;
  misses: number;
}

export interface KeptCache {
  /** A stable name, lower case with dashes (`search-index`): the `?name=` of flush and reload. */
  readonly name: string;
  /** What it keeps and how its size is counted, for the administrator. */
  readonly description: string;
  statistics(): CacheStatistics;
  /** Empties it: the next question reads the source (and waits for it). */
  flush(): void | Promise<void>;
  /**
   * Builds it again from the source in the background while what it holds keeps answering, and swaps the new
   * contents in once complete. Caches filled on demand have nothing to rebuild ahead: their reload empties.
   */
  reload(): Promise<void>;
}

export interface CacheState extends CacheStatistics {
  name: string;
  description: string;
  /** A reload in progress in this process. */
  reloading: boolean;
  /** When the last reload asked here or heard from another node finished, and how. */
  lastReload: { at: number; ok: boolean; message?: string } | null;
}

export class UnknownCacheError extends Error {
  override name = 'UnknownCacheError';
}

export class CacheRegistry {
  /** This process among the cluster's nodes: the origin of the cache events it announces. */
  readonly node = `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  private readonly caches = new Map<string, KeptCache>();
  private readonly reloads = new Map<string, Promise<void>>();
  private readonly lastReloads = new Map<string, { at: number; ok: boolean; message?: string }>();

  constructor(private readonly onReloadError: (name: string, error: unknown) => void = () => {}) {}

  register(cache: KeptCache): void {
    if (this.caches.has(cache.name)) throw new Error(`A cache named ${cache.name} is registered already.`);
    this.caches.set(cache.name, cache);
  }

  get names(): string[] {
    return [...this.caches.keys()];
  }

  has(name: string): boolean {
    return this.caches.has(name);
  }

  list(): CacheState[] {
    return [...this.caches.values()].map((cache) => ({
      name: cache.name,
      description: cache.description,
      ...cache.statistics(),
      reloading: this.reloads.has(cache.name),
      lastReload: this.lastReloads.get(cache.name) ?? null,
    }));
  }

  /** The caches a `?name=` picks: that one, or all of them without a name. */
  select(name: string | undefined): KeptCache[] {
    if (name === undefined) return [...this.caches.values()];
    const cache = this.caches.get(name);
    if (!cache) {
      throw new UnknownCacheError(`There is no cache named "${name}"; there are ${this.names.join(', ')}.`);
    }
    return [cache];
  }

  async flush(name?: string): Promise<string[]> {
    const chosen = this.select(name);
    for (const cache of chosen) await cache.flush();
    return chosen.map((cache) => cache.name);
  }

  /**
   * Starts the reloads in the background and answers at once with the names; `done` settles when they have
   * all finished (a reload already running is joined, not started twice). A failed reload keeps the old
   * contents answering and is reported through `onReloadError` and {@link CacheState.lastReload}.
   */
  reload(name?: string): { names: string[]; done: Promise<void> } {
    const chosen = this.select(name);
    const runs = chosen.map((cache) => {
      const running = this.reloads.get(cache.name);
      if (running) return running;
      const run = cache
        .reload()
        .then(
          () => {
            this.lastReloads.set(cache.name, { at: Date.now(), ok: true });
          },
          (error: unknown) => {
            this.lastReloads.set(cache.name, {
              at: Date.now(),
              ok: false,
              message: error instanceof Error ? error.message : String(error),
            });
            this.onReloadError(cache.name, error);
          },
        )
        .finally(() => this.reloads.delete(cache.name));
      this.reloads.set(cache.name, run);
      return run;
    });
    return { names: chosen.map((cache) => cache.name), done: Promise.all(runs).then(() => {}) };
  }

  /** Reads the flushes and reloads asked on other nodes (src/admin/caches/events.ts), once set. */
  private hear: (() => Promise<void>) | undefined;

  followOtherNodes(hear: () => Promise<void>): void {
    this.hear = hear;
  }

  /** Looks now for flushes and reloads asked on other nodes and does them (a listening node does every second). */
  async hearOtherNodes(): Promise<void> {
    await this.hear?.();
  }

  /** Waits for reloads in progress (before the database closes). */
  async settle(): Promise<void> {
    await Promise.all(this.reloads.values());
  }
}
