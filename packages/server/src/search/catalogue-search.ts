import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import {
  CatalogueIndex,
  type IndexedPlugin,
  type SearchFilters,
  type SearchRequest,
  type SearchResult,
} from './catalogue-index';
import { PLUGIN_SUMMARY_COLUMNS, toPluginSummary, type PluginSummaryRow } from './plugin-summary';
import { normalizeSearchText, searchWords } from './search-text';
import { epochMs, selectRows, type Viewer } from './sql';

interface IndexRow extends PluginSummaryRow {
  rating_count: number;
  published_at: number | null;
  listed: boolean;
  deleted: boolean;
  owner_id: number | null;
  developer_ids: number[];
  products: string[];
  search_vector: string;
}

export interface CatalogueSearchOptions {
  /** How often a process looks for changes made by others (other processes, `mp`, direct SQL). */
  lookEveryMs?: number;
  /** Where a failed background look is reported (the search keeps answering from what it has). */
  onError?: (error: unknown) => void;
  /**
   * Replaced slots keep their postings until the index is built again from scratch, which happens once they
   * outnumber a quarter of the index plus this many (default 1000).
   */
  rebuildSlack?: number;
}

/** Typed words whose English stems are remembered; the memory starts over beyond this. */
const REMEMBERED_STEMS = 20_000;

/**
 * Search over the catalogue, answered from an in-memory {@link CatalogueIndex} that follows the database.
 *
 * The database stays the truth: every plugin row carries the transaction that last changed it (migration
 * 0003), and the index re-reads the rows changed since it last looked, at most `lookEveryMs` apart while
 * searches arrive. A change made through this process (any successful write request) is read before the
 * next search answers, so a writer always finds what it has just written; changes made elsewhere appear
 * within `lookEveryMs`. Each process holds its own index: nothing in it must be shared.
 */
export class CatalogueSearch {
  private index = new CatalogueIndex();
  private loaded = false;
  /** The oldest transaction that was still running at the last look: the next look starts there. */
  private watermark = '0';
  private changesMade = 0;
  private changesRead = -1;
  private lastLookAt = 0;
  private looking: Promise<void> | undefined;
  private readonly stems = new Map<string, string>();
  private readonly lookEveryMs: number;
  private readonly onError: (error: unknown) => void;
  private readonly rebuildSlack: number;

  constructor(
    private readonly db: Database,
    options: CatalogueSearchOptions = {},
  ) {
    this.lookEveryMs = options.lookEveryMs ?? 1000;
    this.onError = options.onError ?? (() => {});
    this.rebuildSlack = options.rebuildSlack ?? 1000;
  }

  /** Called after this process changed the catalogue: the next search reads the change first. */
  markChanged(): void {
    this.changesMade++;
  }

  async search(request: SearchRequest, viewer: Viewer | undefined): Promise<SearchResult> {
    const index = await this.current();
    const stemsOf = await this.stemsOf(request.search);
    return index.search(request, viewer, stemsOf);
  }

  async countByProduct(
    filters: SearchFilters,
    viewer: Viewer | undefined,
  ): Promise<{ aggregations: Record<string, number>; total: number }> {
    const index = await this.current();
    const stemsOf = await this.stemsOf(filters.search);
    return index.countByProduct(filters, viewer, stemsOf);
  }

  /** Builds the index now rather than at the first search (the server calls it once it listens). */
  async prepare(): Promise<void> {
    await this.current();
  }

  /** Waits for a look in progress (before the database closes). */
  async close(): Promise<void> {
    await this.looking?.catch(() => {});
  }

  /** The index, brought up to date first when this process changed something since the last look. */
  private async current(): Promise<CatalogueIndex> {
    while (!this.loaded || this.changesRead < this.changesMade) await this.look();
    if (Date.now() - this.lastLookAt >= this.lookEveryMs) this.look().catch(this.onError);
    return this.index;
  }

  /** One look at a time: a caller arriving during a look shares it (and looks again if it needs more). */
  private look(): Promise<void> {
    this.looking ??= this.readChanges().finally(() => {
      this.looking = undefined;
    });
    return this.looking;
  }

  private async readChanges(): Promise<void> {
    const changesMade = this.changesMade;
    this.lastLookAt = Date.now();
    const rebuild = !this.loaded || this.index.replacedSlots > this.index.size / 4 + this.rebuildSlack;
    const since = rebuild ? '0' : this.watermark;
    const { rows, removedIds, watermark } = await this.db.transaction(
      async (transaction) => {
        const [snapshot] = await selectRows<{ xmin: string }>(
          transaction,
          sql`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin`,
        );
        const rows = await selectRows<IndexRow>(
          transaction,
          sql`SELECT ${PLUGIN_SUMMARY_COLUMNS}, p.rating_count, p.listed,
              p.lifecycle_state = 'deleted' AS deleted, p.owner_id,
              CASE WHEN p.published_at IS NULL THEN NULL ELSE ${epochMs(sql`p.published_at`)} END AS published_at,
              coalesce((SELECT array_agg(d.user_id) FROM plugin_developers d WHERE d.plugin_id = p.id), '{}')
                AS developer_ids,
              coalesce((SELECT array_agg(cp.product ORDER BY cp.product) FROM plugin_compatible_products cp
                WHERE cp.plugin_id = p.id), '{}') AS products,
              p.search_vector::text AS search_vector
            FROM plugins p LEFT JOIN vendors v ON v.id = p.vendor_id
            WHERE p.changed_by_xact >= ${since}::xid8`,
        );
        const removed = rebuild
          ? []
          : await selectRows<{ plugin_id: number }>(
              transaction,
              sql`SELECT plugin_id FROM plugin_removals WHERE removed_by_xact >= ${since}::xid8`,
            );
        return {
          rows,
          removedIds: removed.map((row) => row.plugin_id),
          watermark: snapshot?.xmin ?? since,
        };
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
    const index = rebuild ? new CatalogueIndex() : this.index;
    for (let position = 0; position < rows.length; position++) {
      index.upsert(toIndexedPlugin(rows[position]!));
      // A rebuild yields now and then, so other requests (and searches, from the old index) go on meanwhile.
      if (rebuild && position % 2000 === 1999) await new Promise(setImmediate);
    }
    for (const id of removedIds) index.remove(id);
    this.index = index;
    this.loaded = true;
    this.watermark = watermark;
    this.changesRead = changesMade;
  }

  /** English stems of the text's words, asked of the database for words not seen before. */
  private async stemsOf(text: string | undefined): Promise<(word: string) => string> {
    const words = searchWords(normalizeSearchText(text));
    const unknown = [...new Set(words.filter((word) => !this.stems.has(word)))];
    if (unknown.length > 0) {
      const rows = await selectRows<{ word: string; stem: string }>(
        this.db,
        sql`SELECT word, coalesce((SELECT lexeme FROM unnest(to_tsvector('english', word)) LIMIT 1), '') AS stem
          FROM json_array_elements_text(${JSON.stringify(unknown)}::json) AS word`,
      );
      if (this.stems.size + rows.length > REMEMBERED_STEMS) this.stems.clear();
      for (const row of rows) this.stems.set(row.word, row.stem);
    }
    return (word) => this.stems.get(word) ?? word;
  }
}

function toIndexedPlugin(row: IndexRow): IndexedPlugin {
  return {
    id: row.id,
    summary: toPluginSummary(row),
    nameKey: row.name.toLowerCase(),
    nameWordCount: searchWords(row.name).length,
    family: row.family,
    pricingModel: row.pricing_model,
    listed: row.listed,
    deleted: row.deleted,
    ownerId: row.owner_id,
    developerIds: row.developer_ids,
    products: row.products,
    downloads: row.downloads,
    ratingMean: row.rating_mean,
    ratingCount: row.rating_count,
    updateDate: row.update_date,
    publishedAt: row.published_at,
    searchVector: row.search_vector,
  };
}
