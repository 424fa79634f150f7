import { sql } from 'drizzle-orm';
import { PROGRAMS_OF_PLUGIN } from '../commerce/catalogue-columns';
import { CatalogueFollower, type CatalogueFollowerOptions } from '../db/catalogue-follower';
import type { Database, Transaction } from '../db/client';
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
  programs: string[];
  has_source: boolean;
  featured_for: string[];
  search_vector: string;
}

export interface CatalogueSearchOptions extends CatalogueFollowerOptions {
  /**
   * Replaced slots keep their postings until the index is built again from scratch, which happens once they
   * outnumber a quarter of the index plus this many (default 1000).
   */
  rebuildSlack?: number;
}

/** Typed words whose English stems are remembered; the memory starts over beyond this. */
const REMEMBERED_STEMS = 20_000;

interface IndexChanges {
  rows: IndexRow[];
  removedIds: number[];
}

/**
 * Search over the catalogue, answered from an in-memory {@link CatalogueIndex} that follows the database
 * ({@link CatalogueFollower}: a writer finds what it has just written, other writers' changes appear within
 * `lookEveryMs`). Each process holds its own index: nothing in it must be shared.
 */
export class CatalogueSearch extends CatalogueFollower<IndexChanges> {
  private index = new CatalogueIndex();
  private readonly stems = new Map<string, string>();
  private readonly rebuildSlack: number;
  /** Approximate bytes of the index (see {@link approximateBytesOf}): replaced slots count until a rebuild. */
  private indexBytes = 0;
  /** Typed words whose stem was known, and words asked of the database (the caches' administration). */
  stemHits = 0;
  stemMisses = 0;

  constructor(db: Database, options: CatalogueSearchOptions = {}) {
    super(db, options);
    this.rebuildSlack = options.rebuildSlack ?? 1000;
  }

  async search(request: SearchRequest, viewer: Viewer | undefined): Promise<SearchResult> {
    await this.upToDate();
    const stemsOf = await this.stemsOf(request.search);
    return this.index.search(request, viewer, stemsOf);
  }

  async countByProduct(
    filters: SearchFilters,
    viewer: Viewer | undefined,
  ): Promise<{ aggregations: Record<string, number>; total: number }> {
    await this.upToDate();
    const stemsOf = await this.stemsOf(filters.search);
    return this.index.countByProduct(filters, viewer, stemsOf);
  }

  protected override needsRebuild(): boolean {
    return this.index.replacedSlots > this.index.size / 4 + this.rebuildSlack;
  }

  protected async readChanges(
    transaction: Transaction,
    since: string,
    rebuild: boolean,
  ): Promise<IndexChanges> {
    const rows = await selectRows<IndexRow>(
      transaction,
      sql`SELECT ${PLUGIN_SUMMARY_COLUMNS}, p.rating_count, p.listed,
          p.lifecycle_state = 'deleted' AS deleted, p.owner_id,
          CASE WHEN p.published_at IS NULL THEN NULL ELSE ${epochMs(sql`p.published_at`)} END AS published_at,
          coalesce((SELECT array_agg(d.user_id) FROM plugin_developers d WHERE d.plugin_id = p.id), '{}')
            AS developer_ids,
          coalesce((SELECT array_agg(cp.product ORDER BY cp.product) FROM plugin_compatible_products cp
            WHERE cp.plugin_id = p.id), '{}') AS products,
          ${PROGRAMS_OF_PLUGIN} AS programs,
          btrim(coalesce(p.source_code_url, '')) <> '' AS has_source,
          coalesce((SELECT array_agg(f.product ORDER BY f.product) FROM featured_plugins f
            WHERE f.plugin_id = p.id), '{}') AS featured_for,
          p.search_vector::text AS search_vector
        FROM plugins p LEFT JOIN vendors v ON v.id = p.vendor_id
        WHERE p.changed_by_xact >= ${since}::xid8`,
    );
    return { rows, removedIds: rebuild ? [] : await this.removedPluginIds(transaction, since) };
  }

  protected async apply({ rows, removedIds }: IndexChanges, rebuild: boolean): Promise<void> {
    const index = rebuild ? new CatalogueIndex() : this.index;
    let bytes = rebuild ? 0 : this.indexBytes;
    for (let position = 0; position < rows.length; position++) {
      index.upsert(toIndexedPlugin(rows[position]!));
      bytes += approximateBytesOf(rows[position]!);
      // A rebuild yields now and then, so other requests (and searches, from the old index) go on meanwhile.
      if (rebuild && position % 2000 === 1999) {
        await new Promise(setImmediate);
        this.throwIfClosed();
      }
    }
    for (const id of removedIds) index.remove(id);
    this.index = index;
    this.indexBytes = bytes;
  }

  /** What the index holds, for the caches' administration: items and approximate bytes. */
  get indexStatistics(): { entries: number; bytes: number } {
    return { entries: this.index.size, bytes: this.indexBytes };
  }

  /** The remembered stems: words and approximate bytes (two per character, and the map's own entry). */
  get stemStatistics(): { entries: number; bytes: number } {
    let bytes = 0;
    for (const [word, stem] of this.stems) bytes += 2 * (word.length + stem.length) + 64;
    return { entries: this.stems.size, bytes };
  }

  forgetStems(): void {
    this.stems.clear();
  }

  /** English stems of the text's words, asked of the database for words not seen before. */
  private async stemsOf(text: string | undefined): Promise<(word: string) => string> {
    const words = searchWords(normalizeSearchText(text));
    const unknown = [...new Set(words.filter((word) => !this.stems.has(word)))];
    this.stemHits += words.length - unknown.length;
    this.stemMisses += unknown.length;
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

/**
 * About what one item costs the index: its text (two bytes a character: the search vector, the name and the
 * summary's strings) and a fixed part for the objects, postings and slot sets around it (measured: about
 * 1 KB an item on the demo catalogue). An estimate, not a measure of the heap.
 */
function approximateBytesOf(row: IndexRow): number {
  return 1024 + 2 * (row.search_vector.length + row.name.length + (row.preview?.length ?? 0));
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
    programs: row.programs,
    hasSource: row.has_source,
    featuredFor: row.featured_for,
    downloads: row.downloads,
    ratingMean: row.rating_mean,
    ratingCount: row.rating_count,
    updateDate: row.update_date,
    publishedAt: row.published_at,
    searchVector: row.search_vector,
  };
}
