import {
  IDE_PRODUCTS,
  type IdeProductKey,
  type PaymentFilter,
  type ProductFamily,
  type SortOrder,
} from '@marketplace/core';
import type { PluginSummaryBody } from '@marketplace/api-contract';
import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { PLUGIN_SUMMARY_COLUMNS, toPluginSummary, type PluginSummaryRow } from './plugin-summary';
import { pluginVisibleTo, selectRows, type Viewer } from './sql';

export interface SearchFilters {
  search?: string | undefined;
  payment?: PaymentFilter | undefined;
  /** Tag names; an item must carry every one of them. */
  tags?: readonly string[] | undefined;
  /** IDE product keys; an item must be compatible with at least one. */
  products?: readonly IdeProductKey[] | undefined;
  family?: ProductFamily | undefined;
}

export interface SearchRequest extends SearchFilters {
  orderBy?: SortOrder | undefined;
  max: number;
  offset: number;
}

export interface SearchResult {
  plugins: PluginSummaryBody[];
  total: number;
}

/** Search text as people type it: trimmed, inner whitespace collapsed, at most 200 characters. */
export function normalizeSearchText(text: string | undefined): string {
  return (text ?? '').trim().replace(/\s+/g, ' ').slice(0, 200);
}

/**
 * A prefix query over the words of the text ("git tool" -> git:* & tool:*), so that results appear while a
 * word is still being typed. Only letters and digits reach to_tsquery: nothing the visitor types can break it.
 */
export function prefixQueryText(text: string): string {
  const words = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0)
    .slice(0, 8);
  return words.map((word) => `${word}:*`).join(' & ');
}

/**
 * The condition "matches the text": a full-text match on the weighted document (name, xmlId, vendor, tags,
 * description), a name close to the text by trigrams, which is what tolerates typos ("kotln", "dokcer"), or
 * the exact xmlId. Every branch has an index (a case-folded xmlId would have none and scan the table).
 */
function textMatch(text: string): SQL {
  const prefix = prefixQueryText(text);
  const fullText = prefix ? sql`p.search_vector @@ to_tsquery('simple', ${prefix})` : sql`false`;
  return sql`(${fullText} OR p.search_vector @@ websearch_to_tsquery('english', ${text})
    OR ${text} <% p.name OR p.xml_id = ${text})`;
}

/** How well the plugin `p` answers the text: name closeness counts most, then the weighted document. */
function relevance(text: string): SQL {
  const prefix = prefixQueryText(text);
  const prefixRank = prefix ? sql`ts_rank(p.search_vector, to_tsquery('simple', ${prefix}))` : sql`0`;
  return sql`(word_similarity(${text}, p.name) * 2
    + CASE WHEN lower(p.name) = lower(${text}) OR lower(p.xml_id) = lower(${text}) THEN 2 ELSE 0 END
    + ts_rank(p.search_vector, websearch_to_tsquery('english', ${text})) + ${prefixRank}
    + ln(1 + p.downloads::float8) / 40)`;
}

/** Families whose items an IDE product key can run (e.g. IDEA -> intellij). */
function familyOfProduct(product: IdeProductKey): ProductFamily {
  return IDE_PRODUCTS[product].family;
}

/**
 * Compatible with one of the products: listed among the plugin's compatible products, or the plugin lists none
 * (it then runs on every product of its family).
 */
export function compatibleWithAny(products: readonly IdeProductKey[]): SQL {
  const keys = [...new Set(products)];
  const families = [...new Set(keys.map(familyOfProduct))];
  return sql`(EXISTS (SELECT 1 FROM plugin_compatible_products cp WHERE cp.plugin_id = p.id
      AND cp.product IN (${sql.join(
        keys.map((key) => sql`${key}`),
        sql`, `,
      )}))
    OR (p.family IN (${sql.join(
      families.map((family) => sql`${family}`),
      sql`, `,
    )}) AND NOT EXISTS (SELECT 1 FROM plugin_compatible_products cp WHERE cp.plugin_id = p.id)))`;
}

/** Every filter except `products` (the product facet counts over these). */
export function filterConditions(filters: SearchFilters, viewer: Viewer | undefined): SQL[] {
  const conditions: SQL[] = [pluginVisibleTo(viewer)];
  if (filters.family) conditions.push(sql`p.family = ${filters.family}`);
  if (filters.payment === 'free') conditions.push(sql`p.pricing_model = 'FREE'`);
  if (filters.payment === 'paid') conditions.push(sql`p.pricing_model IN ('PAID', 'FREEMIUM')`);
  for (const tag of new Set(filters.tags ?? [])) {
    conditions.push(sql`EXISTS (SELECT 1 FROM plugin_tags pt JOIN tags t ON t.id = pt.tag_id
      WHERE pt.plugin_id = p.id AND lower(t.name) = lower(${tag}))`);
  }
  const text = normalizeSearchText(filters.search);
  if (text) conditions.push(textMatch(text));
  return conditions;
}

function orderClause(orderBy: SortOrder | undefined, text: string): SQL {
  switch (orderBy ?? 'relevance') {
    case 'relevance':
      return text
        ? sql`${relevance(text)} DESC, p.downloads DESC, p.id DESC`
        : sql`p.downloads DESC, p.id DESC`;
    case 'downloads':
      return sql`p.downloads DESC, p.id DESC`;
    case 'downloads_asc':
      return sql`p.downloads ASC, p.id ASC`;
    case 'update date':
      return sql`p.last_updated_at DESC, p.id DESC`;
    case 'publish date':
      // Listed items are published, so published_at is set; plain DESC matches the listing index.
      return sql`p.published_at DESC, p.id DESC`;
    case 'name':
      return sql`lower(p.name) ASC, p.id ASC`;
    case 'rating':
      return sql`p.rating_mean DESC, p.rating_count DESC, p.id DESC`;
    case 'rating_asc':
      return sql`p.rating_mean ASC, p.rating_count ASC, p.id ASC`;
  }
}

export async function searchPlugins(
  db: Queryable,
  request: SearchRequest,
  viewer: Viewer | undefined,
): Promise<SearchResult> {
  const conditions = filterConditions(request, viewer);
  if (request.products?.length) conditions.push(compatibleWithAny(request.products));
  const where = sql.join(conditions, sql` AND `);
  const text = normalizeSearchText(request.search);
  // The page is chosen on ids alone (a listing index can serve the order and the limit), summary columns
  // are computed for its rows only, and the total is counted on its own (a window count would make
  // every query read all of its matches before the limit).
  const [rows, counted] = await Promise.all([
    selectRows<PluginSummaryRow>(
      db,
      sql`WITH page AS MATERIALIZED (
          SELECT p.id FROM plugins p
          WHERE ${where}
          ORDER BY ${orderClause(request.orderBy, text)}
          LIMIT ${request.max} OFFSET ${request.offset}
        ), ordered AS (SELECT id, row_number() OVER () AS position FROM page)
        SELECT ${PLUGIN_SUMMARY_COLUMNS}
        FROM ordered o JOIN plugins p ON p.id = o.id LEFT JOIN vendors v ON v.id = p.vendor_id
        ORDER BY o.position`,
    ),
    selectRows<{ total: number }>(db, sql`SELECT count(*)::int AS total FROM plugins p WHERE ${where}`),
  ]);
  const total = counted[0]?.total ?? 0;
  return { plugins: rows.map(toPluginSummary), total };
}

/** Counts, per IDE product key, the items that match the other filters and run on that product. */
export async function countByProduct(
  db: Queryable,
  filters: SearchFilters,
  viewer: Viewer | undefined,
): Promise<{ aggregations: Record<string, number>; total: number }> {
  const where = sql.join(filterConditions(filters, viewer), sql` AND `);
  const rows = await selectRows<{ product: string | null; family: string | null; count: number }>(
    db,
    sql`WITH matched AS (SELECT p.id, p.family FROM plugins p WHERE ${where})
      SELECT cp.product, NULL AS family, count(*)::int AS count
        FROM matched m JOIN plugin_compatible_products cp ON cp.plugin_id = m.id GROUP BY cp.product
      UNION ALL
      SELECT NULL, m.family, count(*)::int FROM matched m
        WHERE NOT EXISTS (SELECT 1 FROM plugin_compatible_products cp WHERE cp.plugin_id = m.id)
        GROUP BY m.family
      UNION ALL
      SELECT NULL, NULL, count(*)::int FROM matched`,
  );
  const aggregations: Record<string, number> = {};
  let total = 0;
  for (const row of rows) {
    if (row.product !== null) {
      aggregations[row.product] = (aggregations[row.product] ?? 0) + row.count;
    } else if (row.family !== null) {
      for (const product of Object.values(IDE_PRODUCTS)) {
        if (product.family === row.family)
          aggregations[product.key] = (aggregations[product.key] ?? 0) + row.count;
      }
    } else {
      total = row.count;
    }
  }
  return { aggregations, total };
}

/** Names and tags that start like (or resemble) the term, for the search box's suggestions. */
export async function suggest(
  db: Queryable,
  term: string,
  family: ProductFamily | undefined,
  max: number,
  viewer: Viewer | undefined,
): Promise<{
  plugins: { id: number; name: string; xml_id: string }[];
  tags: { id: number; name: string }[];
}> {
  const text = normalizeSearchText(term);
  if (!text) return { plugins: [], tags: [] };
  const familyCondition = family ? sql`AND p.family = ${family}` : sql``;
  const likePattern = `${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  const plugins = await selectRows<{ id: number; name: string; xml_id: string }>(
    db,
    sql`SELECT p.id, p.name, p.xml_id FROM plugins p
      WHERE ${pluginVisibleTo(viewer)} ${familyCondition}
        AND (p.name ILIKE ${likePattern} OR ${text} <% p.name)
      ORDER BY (p.name ILIKE ${likePattern}) DESC, word_similarity(${text}, p.name) DESC, p.downloads DESC, p.id
      LIMIT ${max}`,
  );
  const familyTagCondition = family
    ? sql`AND (cardinality(t.families) = 0 OR ${family} = ANY (t.families))`
    : sql``;
  const tags = await selectRows<{ id: number; name: string }>(
    db,
    sql`SELECT t.id, t.name FROM tags t
      WHERE t.searchable ${familyTagCondition} AND (t.name ILIKE ${likePattern} OR t.name ILIKE ${'% ' + likePattern})
      ORDER BY (t.name ILIKE ${likePattern}) DESC, t.name LIMIT ${Math.min(max, 5)}`,
  );
  return { plugins, tags };
}
