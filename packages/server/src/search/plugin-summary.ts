import { THEME_TAG_ID, descriptionExcerpt, type PricingModel, type ProductFamily } from '@marketplace/core';
import type { PluginLifecycleBody, PluginSummaryBody } from '@marketplace/api-contract';
import { sql } from 'drizzle-orm';
import { epochMs } from './sql';

/**
 * The update date of the plugin aliased `p` (ms since 1970): when its newest visible version came (kept in
 * `last_updated_at` by a trigger). Cards show it, whether made from a list or from the item record.
 */
export const PLUGIN_UPDATE_DATE = epochMs(sql`p.last_updated_at`);

/** The columns of a plugin summary, for a query over `plugins p LEFT JOIN vendors v ON v.id = p.vendor_id`. */
export const PLUGIN_SUMMARY_COLUMNS = sql`p.id, p.xml_id, p.name, p.family, p.preview, p.description,
  p.icon_hash, p.downloads::float8 AS downloads, p.rating_mean, p.pricing_model, v.name AS vendor_name,
  v.url AS vendor_url, ${epochMs(sql`coalesce(p.published_at, p.created_at)`)} AS cdate,
  ${PLUGIN_UPDATE_DATE} AS update_date,
  coalesce((SELECT array_agg(t.name ORDER BY t.name) FROM plugin_tags pt JOIN tags t ON t.id = pt.tag_id
    WHERE pt.plugin_id = p.id), '{}') AS tag_names,
  EXISTS (SELECT 1 FROM plugin_tags pt WHERE pt.plugin_id = p.id AND pt.tag_id = ${THEME_TAG_ID}) AS is_theme,
  (SELECT s.id FROM plugin_screenshots s WHERE s.plugin_id = p.id ORDER BY s.position LIMIT 1) AS first_screenshot_id`;

export interface PluginSummaryRow {
  id: number;
  xml_id: string;
  name: string;
  family: ProductFamily;
  preview: string | null;
  description: string;
  icon_hash: string | null;
  downloads: number;
  rating_mean: number;
  pricing_model: PricingModel;
  vendor_name: string | null;
  vendor_url: string | null;
  cdate: number;
  update_date: number;
  tag_names: string[];
  is_theme: boolean;
  first_screenshot_id: number | null;
}

/** The path of an item page: /plugin/{id}-{slug}, the slug made from the name (spec §5: ids may be suffixed). */
export function pluginPagePath(id: number, name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return slug ? `/plugin/${id}-${slug}` : `/plugin/${id}`;
}

/** The icon's address ('' when the item has none); the hash in the query makes a new icon a new URL. */
export function pluginIconPath(id: number, iconHash: string | null): string {
  return iconHash ? `/api/plugins/${id}/icon?v=${iconHash.slice(0, 12)}` : '';
}

export function userPagePath(id: number): string {
  return `/author/${id}`;
}

export function tagSearchPath(name: string): string {
  return `/search?tags=${encodeURIComponent(name)}`;
}

/**
 * A summary as kept (in the search index too): everything but the chart's downloads, which depend on the day
 * the answer is made and are attached then, per page (recent-downloads.ts).
 */
export type StoredPluginSummary = Omit<PluginSummaryBody, 'downloadStatistics'>;

export function toPluginSummary(row: PluginSummaryRow): StoredPluginSummary {
  return {
    id: row.id,
    xmlId: row.xml_id,
    name: row.name,
    link: pluginPagePath(row.id, row.name),
    family: row.family,
    preview: row.preview?.trim() ? row.preview : descriptionExcerpt(row.description),
    icon: pluginIconPath(row.id, row.icon_hash),
    downloads: row.downloads,
    rating: row.rating_mean,
    pricingModel: row.pricing_model,
    vendor: { name: row.vendor_name ?? '', url: row.vendor_url ?? '' },
    tags: row.tag_names,
    isTheme: row.is_theme,
    // A theme's card shows its first screenshot (spec §2); plugin cards show none.
    ...(row.is_theme && row.first_screenshot_id !== null
      ? { image: `/api/plugins/${row.id}/screenshots/${row.first_screenshot_id}` }
      : {}),
    cdate: row.cdate,
    updateDate: row.update_date,
  };
}

/** The lifecycle columns (pluginLifecycleColumns) as the API answers them, counts as numbers on both drivers. */
export function toPluginLifecycle(lifecycle: PluginLifecycleBody): PluginLifecycleBody {
  return {
    lifecycleState: lifecycle.lifecycleState,
    approved: lifecycle.approved,
    blockState: lifecycle.blockState,
    modificationAllowed: lifecycle.modificationAllowed,
    hidden: lifecycle.hidden,
    pendingVersions: Number(lifecycle.pendingVersions),
    versions: Number(lifecycle.versions),
  };
}
