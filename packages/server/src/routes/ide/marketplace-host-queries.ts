import {
  compareBuildNumbers,
  parseBuildNumber,
  parseUntilBuild,
  type IdeProductKey,
} from '@marketplace/core';
import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { epochMs, pluginVisibleTo, selectRows, versionVisibleTo } from '../../search/sql';
import { installsInto, type IdeBuild } from './compatibility';

/*
 * Queries of the IDE's `idea.plugins.host` mode (marketplace-host.ts). Everything here is what a visitor may
 * see (the answers are public and shared by caches), and only items of the intellij family: the IDE's
 * Marketplace tab lists plugins, never courses or TeamCity plugins, even when such an item names an IDE
 * product among its compatible products or shares a plugin's xmlId.
 */

const VISIBLE_INTELLIJ_PLUGIN = sql`p.family = 'intellij' AND ${pluginVisibleTo(undefined)}`;
const VISIBLE_VERSION = versionVisibleTo(undefined);
/** The IDE's marketplace client asks for no channel: it installs from the stable one. */
const STABLE_CHANNEL = '';

function sqlList(values: readonly (string | number)[]): SQL {
  return sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  );
}

/** xmlIds of the visible intellij items that have at least one visible version, optionally of some vendors. */
export async function visiblePluginXmlIds(db: Queryable, vendorNames?: readonly string[]): Promise<string[]> {
  const vendorCondition =
    vendorNames === undefined
      ? sql`true`
      : sql`EXISTS (SELECT 1 FROM vendors v WHERE v.id = p.vendor_id AND v.name IN (${sqlList(vendorNames)}))`;
  const rows = await selectRows<{ xml_id: string }>(
    db,
    sql`SELECT DISTINCT p.xml_id FROM plugins p
      WHERE ${VISIBLE_INTELLIJ_PLUGIN} AND ${vendorCondition}
        AND EXISTS (SELECT 1 FROM plugin_versions pv WHERE pv.plugin_id = p.id AND ${VISIBLE_VERSION})
      ORDER BY p.xml_id`,
  );
  return rows.map((row) => row.xml_id);
}

export interface HostVersionRow {
  id: number;
  plugin_id: number;
  xml_id: string;
  version: string;
  cdate: number;
}

/**
 * The newest stable version of each visible intellij plugin that installs into the IDE (the rule of
 * compatibility.ts), for some plugins, by id or by xmlId.
 */
export async function newestInstallableVersions(
  db: Queryable,
  ide: IdeBuild,
  plugins: { ids: readonly number[] } | { xmlIds: readonly string[] },
): Promise<HostVersionRow[]> {
  const keys = 'ids' in plugins ? plugins.ids : plugins.xmlIds;
  if (keys.length === 0) return [];
  const pluginCondition =
    'ids' in plugins
      ? sql`p.id IN (${sqlList([...new Set(plugins.ids)])})`
      : sql`p.xml_id IN (${sqlList([...new Set(plugins.xmlIds)])})`;
  return selectRows<HostVersionRow>(
    db,
    sql`SELECT DISTINCT ON (p.id) pv.id, p.id AS plugin_id, p.xml_id, pv.version,
        ${epochMs(sql`pv.created_at`)} AS cdate
      FROM plugin_versions pv JOIN plugins p ON p.id = pv.plugin_id
      WHERE ${VISIBLE_INTELLIJ_PLUGIN} AND ${VISIBLE_VERSION} AND pv.channel = ${STABLE_CHANNEL}
        AND ${pluginCondition} AND ${installsInto(ide)}
      ORDER BY p.id, pv.created_at DESC, pv.id DESC`,
  );
}

export interface NewestVersionRow {
  id: number;
  plugin_id: number;
  xml_id: string;
  products: IdeProductKey[];
}

/** The newest stable version of each visible intellij plugin with one of these xmlIds, whatever the build. */
export async function newestVersions(db: Queryable, xmlIds: readonly string[]): Promise<NewestVersionRow[]> {
  if (xmlIds.length === 0) return [];
  return selectRows<NewestVersionRow>(
    db,
    sql`SELECT DISTINCT ON (p.id) pv.id, p.id AS plugin_id, p.xml_id,
        coalesce((SELECT array_agg(cp.product ORDER BY cp.product) FROM plugin_compatible_products cp
          WHERE cp.plugin_id = p.id), '{}') AS products
      FROM plugin_versions pv JOIN plugins p ON p.id = pv.plugin_id
      WHERE ${VISIBLE_INTELLIJ_PLUGIN} AND ${VISIBLE_VERSION} AND pv.channel = ${STABLE_CHANNEL}
        AND p.xml_id IN (${sqlList([...new Set(xmlIds)])})
      ORDER BY p.id, pv.created_at DESC, pv.id DESC`,
  );
}

/** Featured plugin ids of an IDE product in display order; undefined when the product has no featured list. */
export async function featuredPluginIds(
  db: Queryable,
  product: IdeProductKey,
): Promise<number[] | undefined> {
  const rows = await selectRows<{ plugin_id: number; visible: boolean }>(
    db,
    sql`SELECT f.plugin_id, (${VISIBLE_INTELLIJ_PLUGIN}) AS visible
      FROM featured_plugins f JOIN plugins p ON p.id = f.plugin_id
      WHERE f.product = ${product} ORDER BY f.position, f.plugin_id`,
  );
  if (rows.length === 0) return undefined;
  return rows.filter((row) => row.visible).map((row) => row.plugin_id);
}

/**
 * How many visible intellij items (with a stable version that installs into the IDE, when a build is
 * given) carry each tag, or come from each vendor; and how many items were counted.
 */
export async function aggregateVisiblePlugins(
  db: Queryable,
  field: 'tags' | 'organizations',
  ide: IdeBuild | undefined,
): Promise<{ aggregations: Record<string, number>; total: number }> {
  const installable = ide === undefined ? sql`true` : installsInto(ide);
  const counted = sql`SELECT p.id, p.vendor_id FROM plugins p WHERE ${VISIBLE_INTELLIJ_PLUGIN}
    AND EXISTS (SELECT 1 FROM plugin_versions pv WHERE pv.plugin_id = p.id AND ${VISIBLE_VERSION}
      AND pv.channel = ${STABLE_CHANNEL} AND ${installable})`;
  const grouped =
    field === 'tags'
      ? sql`SELECT t.name, count(*)::int AS count FROM counted c
          JOIN plugin_tags pt ON pt.plugin_id = c.id JOIN tags t ON t.id = pt.tag_id
          WHERE t.searchable GROUP BY t.name ORDER BY t.name`
      : sql`SELECT v.name, count(*)::int AS count FROM counted c JOIN vendors v ON v.id = c.vendor_id
          GROUP BY v.name ORDER BY v.name`;
  const [rows, totals] = await Promise.all([
    selectRows<{ name: string; count: number }>(db, sql`WITH counted AS (${counted}) ${grouped}`),
    selectRows<{ total: number }>(
      db,
      sql`WITH counted AS (${counted}) SELECT count(*)::int AS total FROM counted`,
    ),
  ]);
  return {
    aggregations: Object.fromEntries(rows.map((row) => [row.name, row.count])),
    total: totals[0]?.total ?? 0,
  };
}

export interface UpdateMetadataRow {
  plugin_id: number;
  xml_id: string;
  name: string;
  description: string;
  tag_names: string[];
  vendor_name: string | null;
  version: string;
  notes: string;
  dependencies: string[];
  since_build: string;
  until_build: string | null;
  file_size: number;
}

/** One visible version of a visible intellij plugin, as the update meta.json needs it. */
export async function loadUpdateMetadata(
  db: Queryable,
  pluginId: number,
  updateId: number,
): Promise<UpdateMetadataRow | undefined> {
  const rows = await selectRows<UpdateMetadataRow>(
    db,
    sql`SELECT p.id AS plugin_id, p.xml_id, p.name, p.description,
        coalesce((SELECT array_agg(t.name ORDER BY t.name) FROM plugin_tags pt JOIN tags t ON t.id = pt.tag_id
          WHERE pt.plugin_id = p.id), '{}') AS tag_names,
        v.name AS vendor_name, pv.version, pv.notes, pv.dependencies, pv.since_build, pv.until_build,
        pv.file_size::float8 AS file_size
      FROM plugin_versions pv JOIN plugins p ON p.id = pv.plugin_id LEFT JOIN vendors v ON v.id = p.vendor_id
      WHERE pv.id = ${updateId} AND p.id = ${pluginId} AND ${VISIBLE_INTELLIJ_PLUGIN} AND ${VISIBLE_VERSION}`,
  );
  return rows[0];
}

export interface PluginMetadataRow {
  id: number;
  vendor_name: string | null;
  vendor_url: string | null;
  vendor_verified: boolean | null;
  forum_url: string | null;
  license_url: string | null;
  bugtracker_url: string | null;
  doc_url: string | null;
  source_code_url: string | null;
  screenshot_ids: number[];
}

/** A visible intellij plugin that has a visible version, as the plugin meta.json needs it. */
export async function loadPluginMetadata(
  db: Queryable,
  pluginId: number,
): Promise<PluginMetadataRow | undefined> {
  const rows = await selectRows<PluginMetadataRow>(
    db,
    sql`SELECT p.id, v.name AS vendor_name, v.url AS vendor_url, v.verified AS vendor_verified,
        p.forum_url, p.license_url, p.bugtracker_url, p.doc_url, p.source_code_url,
        coalesce((SELECT array_agg(s.id ORDER BY s.position) FROM plugin_screenshots s
          WHERE s.plugin_id = p.id), '{}') AS screenshot_ids
      FROM plugins p LEFT JOIN vendors v ON v.id = p.vendor_id
      WHERE p.id = ${pluginId} AND ${VISIBLE_INTELLIJ_PLUGIN}
        AND EXISTS (SELECT 1 FROM plugin_versions pv WHERE pv.plugin_id = p.id AND ${VISIBLE_VERSION})`,
  );
  return rows[0];
}

/** The visible intellij plugin with this xmlId (family intellij is unique per xmlId). */
export async function findVisiblePluginByXmlId(
  db: Queryable,
  xmlId: string,
): Promise<{ id: number; name: string; icon_hash: string | null } | undefined> {
  const rows = await selectRows<{ id: number; name: string; icon_hash: string | null }>(
    db,
    sql`SELECT p.id, p.name, p.icon_hash FROM plugins p WHERE p.xml_id = ${xmlId} AND ${VISIBLE_INTELLIJ_PLUGIN}`,
  );
  return rows[0];
}

/**
 * What an IDE gets for an open build range: it compares components as 32-bit numbers, and its newest code
 * ignores a broken-plugin record whose original range has an empty bound, so "no until" must be a number.
 */
export const OPEN_UNTIL_BUILD = '999999.999999';

export interface NarrowedVersion {
  xmlId: string;
  version: string;
  since: string;
  until: string;
  originalSince: string;
  originalUntil: string;
}

interface BuildRangeChangeRow {
  xml_id: string;
  version: string;
  since_build: string;
  until_build: string | null;
  since_changed: boolean | null;
  original_since: string | null;
  until_changed: boolean | null;
  original_until: string | null;
}

function untilComponents(until: string | null): number[] | undefined {
  return until === null ? undefined : parseUntilBuild(until)?.components;
}

/** a < b for until bounds, an absent one being the largest. */
function untilIsLower(a: string | null, b: string | null): boolean {
  if (a === null) return false;
  if (b === null) return true;
  const first = untilComponents(a);
  const second = untilComponents(b);
  if (!first || !second) return false;
  return compareBuildNumbers({ components: first }, { components: second }) < 0;
}

function sinceIsHigher(current: string, original: string): boolean {
  if (!parseBuildNumber(current) || !parseBuildNumber(original)) return false;
  return compareBuildNumbers(current, original) > 0;
}

/**
 * Visible versions whose build range an owner narrowed after upload (PUT /api/updates/{id}/since|until).
 * The range of the uploaded plugin.xml is the one a version is stored with (upload-service.ts keeps the
 * descriptor's since/until as they are), and every later change is in the audit log with the bound it
 * replaced: the first change of each bound holds the original value.
 */
export async function narrowedVersions(db: Queryable): Promise<NarrowedVersion[]> {
  const firstChange = (action: string) =>
    sql`SELECT true AS changed, a.details->>'from' AS original FROM plugin_audit_log a
      WHERE a.plugin_id = pv.plugin_id AND a.action = ${action} AND a.details->>'versionId' = pv.id::text
      ORDER BY a.created_at, a.id LIMIT 1`;
  const rows = await selectRows<BuildRangeChangeRow>(
    db,
    sql`SELECT p.xml_id, pv.version, pv.since_build, pv.until_build,
        s.changed AS since_changed, s.original AS original_since,
        u.changed AS until_changed, u.original AS original_until
      FROM plugin_versions pv JOIN plugins p ON p.id = pv.plugin_id
        LEFT JOIN LATERAL (${firstChange('change-since-build')}) s ON true
        LEFT JOIN LATERAL (${firstChange('change-until-build')}) u ON true
      WHERE ${VISIBLE_INTELLIJ_PLUGIN} AND ${VISIBLE_VERSION} AND (s.changed OR u.changed)
      ORDER BY p.xml_id, pv.id`,
  );
  const narrowed: NarrowedVersion[] = [];
  for (const row of rows) {
    const originalSince = row.since_changed ? (row.original_since ?? '') : row.since_build;
    const originalUntil = row.until_changed ? row.original_until || null : row.until_build;
    const isNarrower =
      sinceIsHigher(row.since_build, originalSince) || untilIsLower(row.until_build, originalUntil);
    if (!isNarrower || originalSince === '') continue;
    narrowed.push({
      xmlId: row.xml_id,
      version: row.version,
      since: row.since_build,
      until: row.until_build ?? OPEN_UNTIL_BUILD,
      originalSince,
      originalUntil: originalUntil ?? OPEN_UNTIL_BUILD,
    });
  }
  return narrowed;
}
