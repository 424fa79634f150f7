import { THEME_TAG_ID, type ProductFamily } from '@marketplace/core';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { normalizeSearchText } from './search-text';
import { pluginVisibleTo, selectRows, type Viewer } from './sql';

/** Names and tags that start like (or resemble) the term, for the search box's suggestions. */
export async function suggest(
  db: Queryable,
  term: string,
  family: ProductFamily | undefined,
  max: number,
  viewer: Viewer | undefined,
): Promise<{
  plugins: { id: number; name: string; xml_id: string; family: ProductFamily; is_theme: boolean }[];
  tags: { id: number; name: string }[];
}> {
  const text = normalizeSearchText(term);
  if (!text) return { plugins: [], tags: [] };
  const familyCondition = family ? sql`AND p.family = ${family}` : sql``;
  const likePattern = `${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  const plugins = await selectRows<{
    id: number;
    name: string;
    xml_id: string;
    family: ProductFamily;
    is_theme: boolean;
  }>(
    db,
    sql`SELECT p.id, p.name, p.xml_id, p.family,
        EXISTS (SELECT 1 FROM plugin_tags pt WHERE pt.plugin_id = p.id AND pt.tag_id = ${THEME_TAG_ID}) AS is_theme
      FROM plugins p
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
