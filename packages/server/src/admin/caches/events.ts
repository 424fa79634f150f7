import { sql } from 'drizzle-orm';
import { CatalogueFollower, type CatalogueFollowerOptions } from '../../db/catalogue-follower';
import type { Queryable, Transaction } from '../../db/client';
import type { CacheEventAction } from '../../db/schema';
import { selectRows } from '../../search/sql';

export interface CacheEvent {
  id: number;
  action: CacheEventAction;
  /** null: every cache. */
  cacheName: string | null;
  /** The node that asked (it has acted already). */
  origin: string;
}

interface CacheEventRow {
  id: string | number;
  action: CacheEventAction;
  cache_name: string | null;
  origin: string;
}

/** Events are kept this long: long enough for every node to have read them, then deleted by the next writer. */
const EVENTS_KEPT = sql`interval '1 day'`;
/** Ids of events acted on are remembered this long (a row may be read by two looks in a row). */
const REMEMBERED_MS = 10 * 60_000;

/** Writes a flush or reload for the other nodes to hear (this node has acted on it already). */
export async function announceCacheEvent(
  db: Queryable,
  event: { action: CacheEventAction; cacheName: string | null; origin: string; requestedBy: number | null },
): Promise<void> {
  await db.execute(sql`DELETE FROM cache_events WHERE created_at < now() - ${EVENTS_KEPT}`);
  await db.execute(
    sql`INSERT INTO cache_events (action, cache_name, origin, requested_by)
      VALUES (${event.action}, ${event.cacheName}, ${event.origin}, ${event.requestedBy})`,
  );
}

/**
 * How a node hears the flushes and reloads asked on other nodes: a {@link CatalogueFollower} over the
 * `cache_events` table, so it reads new rows in one snapshot from the same transaction-id watermark as the
 * search index and the feed follow the catalogue (a row whose transaction commits late is read by a later
 * look, not missed). The first look only notes what is there; events of this node are skipped.
 */
export class CacheEventFollower extends CatalogueFollower<{ events: CacheEvent[] }> {
  private readonly remembered = new Map<number, number>();

  constructor(
    db: ConstructorParameters<typeof CatalogueFollower>[0],
    private readonly node: string,
    private readonly act: (event: CacheEvent) => Promise<void>,
    options: CatalogueFollowerOptions = {},
  ) {
    // Every call of hear() looks: the timer sets the pace.
    super(db, { ...options, lookEveryMs: 0 });
  }

  /**
   * Looks for new events now and acts on them; resolves once done. A look already under way when another
   * node's notification arrives may have begun before that event committed, so this waits for a look that
   * begins after the call (sharing the running one would leave the event to the next timer tick).
   */
  async hear(): Promise<void> {
    await this.catchUp();
  }

  protected async readChanges(
    transaction: Transaction,
    since: string,
    rebuild: boolean,
  ): Promise<{ events: CacheEvent[] }> {
    // The first look remembers recent events without acting on them: they were asked before this node
    // started (or forgot), and its caches are fresh.
    const rows = await selectRows<CacheEventRow>(
      transaction,
      rebuild
        ? sql`SELECT id, action, cache_name, origin FROM cache_events
            WHERE created_at > now() - interval '10 minutes' ORDER BY id`
        : sql`SELECT id, action, cache_name, origin FROM cache_events
            WHERE created_by_xact >= ${since}::xid8 ORDER BY id`,
    );
    return {
      events: rows.map((row) => ({
        id: Number(row.id),
        action: row.action,
        cacheName: row.cache_name,
        origin: row.origin,
      })),
    };
  }

  protected async apply({ events }: { events: CacheEvent[] }, rebuild: boolean): Promise<void> {
    const now = Date.now();
    for (const event of events) {
      if (this.remembered.has(event.id)) continue;
      this.remembered.set(event.id, now);
      if (rebuild || event.origin === this.node) continue;
      try {
        await this.act(event);
      } catch (error) {
        this.onError(error);
      }
    }
    for (const [id, at] of this.remembered) {
      if (now - at > REMEMBERED_MS) this.remembered.delete(id);
    }
  }
}
