import { sql } from 'drizzle-orm';
import { selectRows } from '../search/sql';
import type { Database, Transaction } from './client';

export interface CatalogueFollowerOptions {
  /** How often a process looks for changes made by others (other processes, `mp`, direct SQL). */
  lookEveryMs?: number;
  /** Where a failed background look is reported (the follower keeps answering from what it has). */
  onError?: (error: unknown) => void;
}

/** What a look started after {@link CatalogueFollower.close}, or cut short by it, rejects with. */
export class FollowerClosedError extends Error {
  override name = 'FollowerClosedError';

  constructor() {
    super('Closed: the server is stopping.');
  }
}

/**
 * Something a process keeps in memory about the catalogue (the search index, the IDE feed's fragments) and
 * brings up to date from the database, which stays the truth.
 *
 * Every plugin row carries the transaction that last changed it (migration 0003), and a look re-reads the
 * rows changed since the previous one, in one repeatable-read snapshot, starting from the oldest transaction
 * that was still running at the previous look: a transaction that commits late is read by a later look
 * instead of being missed. A change made through this process ({@link markChanged}) is read before the next
 * answer, so a writer always finds what it has just written; changes made elsewhere within `lookEveryMs`.
 */
export abstract class CatalogueFollower<Changes> {
  private loaded = false;
  /** The oldest transaction that was still running at the last look: the next look starts there. */
  private watermark = '0';
  private changesMade = 0;
  private changesRead = -1;
  private lastLookAt = 0;
  private looking: Promise<void> | undefined;
  /** A full read asked for by {@link reload} or {@link forget} (the caches' administration). */
  private rebuildAsked = false;
  /** Set by {@link close}: no look starts any more, and a look under way gives up at its next pause. */
  protected closed = false;
  /** When the last full read was applied (null before the first). */
  builtAt: number | null = null;
  /** Answers that found this process up to date, and answers that waited for a read first. */
  answeredAtOnce = 0;
  waitedForRead = 0;
  private readonly lookEveryMs: number;
  protected readonly onError: (error: unknown) => void;

  constructor(
    protected readonly db: Database,
    options: CatalogueFollowerOptions = {},
  ) {
    this.lookEveryMs = options.lookEveryMs ?? 1000;
    this.onError = options.onError ?? (() => {});
  }

  /** Called after this process changed the catalogue: the next answer reads the change first. */
  markChanged(): void {
    this.changesMade++;
  }

  /**
   * Reads what changed elsewhere now (another node notified a change) rather than at the next question;
   * resolves once read. A look already under way may have begun before that change committed, so this
   * waits for a look that begins after the call.
   */
  async catchUp(): Promise<void> {
    const wanted = ++this.changesMade;
    while (!this.loaded || this.changesRead < wanted) await this.look();
  }

  /**
   * Reads the catalogue now rather than at the first question (the server calls it once it listens). A
   * close meanwhile (the server stopping) ends it quietly: there is nothing left to prepare for.
   */
  async prepare(): Promise<void> {
    await this.upToDate().catch((error: unknown) => {
      if (!this.closed) throw error;
    });
  }

  /**
   * Before the database closes: stops looking and waits for a look in progress, which gives up at its next
   * pause (a whole catalogue takes seconds to read and render; a stopping server must not wait for it).
   */
  async close(): Promise<void> {
    this.closed = true;
    await this.looking?.catch(() => {});
  }

  /**
   * Waits until this process's own changes are read (and everything, the first time); starts a look in the
   * background when the last one is older than `lookEveryMs`.
   */
  protected async upToDate(): Promise<void> {
    if (this.loaded && this.changesRead >= this.changesMade) this.answeredAtOnce++;
    else this.waitedForRead++;
    while (!this.loaded || this.changesRead < this.changesMade) await this.look();
    if (Date.now() - this.lastLookAt >= this.lookEveryMs) this.look().catch(this.onError);
  }

  /**
   * Reads everything again in the background, as a first look would: answers keep coming from what this
   * process holds until the new read is applied in one step. Resolves once it is.
   */
  async reload(): Promise<void> {
    this.rebuildAsked = true;
    while (this.rebuildAsked) await this.look();
  }

  /** Forgets what was read: the next answer waits for everything to be read again. */
  forget(): void {
    this.rebuildAsked = true;
    this.loaded = false;
  }

  /** Whether the next look should read everything again instead of the changes only. */
  protected needsRebuild(): boolean {
    return false;
  }

  /**
   * Reads, inside the look's snapshot, what changed at or after transaction `since` (`'0'`: everything,
   * when `rebuild`). Rows stamped `changed_by_xact >= since` are the changed plugins; see
   * {@link removedPluginIds} for deleted ones.
   */
  protected abstract readChanges(transaction: Transaction, since: string, rebuild: boolean): Promise<Changes>;

  /** Takes what {@link readChanges} read into memory; it may yield to other work meanwhile. */
  protected abstract apply(changes: Changes, rebuild: boolean): Promise<void>;

  /** The ids of plugin rows deleted at or after transaction `since`. */
  protected async removedPluginIds(transaction: Transaction, since: string): Promise<number[]> {
    const rows = await selectRows<{ plugin_id: number }>(
      transaction,
      sql`SELECT plugin_id FROM plugin_removals WHERE removed_by_xact >= ${since}::xid8`,
    );
    return rows.map((row) => row.plugin_id);
  }

  /** For {@link apply} at its pauses: a closed follower stops there (what it read is not applied). */
  protected throwIfClosed(): void {
    if (this.closed) throw new FollowerClosedError();
  }

  /** One look at a time: a caller arriving during a look shares it (and looks again if it needs more). */
  private look(): Promise<void> {
    if (this.closed) return Promise.reject(new FollowerClosedError());
    this.looking ??= this.lookOnce().finally(() => {
      this.looking = undefined;
    });
    return this.looking;
  }

  private async lookOnce(): Promise<void> {
    const changesMade = this.changesMade;
    this.lastLookAt = Date.now();
    const rebuild = !this.loaded || this.rebuildAsked || this.needsRebuild();
    if (rebuild) this.rebuildAsked = false;
    const since = rebuild ? '0' : this.watermark;
    const { changes, watermark } = await this.db.transaction(
      async (transaction) => {
        const [snapshot] = await selectRows<{ xmin: string }>(
          transaction,
          sql`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin`,
        );
        const changes = await this.readChanges(transaction, since, rebuild);
        return { changes, watermark: snapshot?.xmin ?? since };
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
    this.throwIfClosed();
    await this.apply(changes, rebuild);
    if (rebuild) this.builtAt = Date.now();
    // Only a full read makes this process loaded: a look begun before a forget() must not undo it.
    if (rebuild) this.loaded = true;
    this.watermark = watermark;
    this.changesRead = changesMade;
  }
}
