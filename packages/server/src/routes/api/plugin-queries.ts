import {
  descriptionExcerpt,
  type IdeProductKey,
  type PricingModel,
  type ProductFamily,
  type RatingCategory,
} from '@marketplace/core';
import type {
  DeveloperBody,
  GranularRatingBody,
  PluginBody,
  PluginBundleRefBody,
  MirroredFromBody,
  PluginLifecycleBody,
  PluginVersionBody,
  VersionSignatureBody,
  RatingBody,
} from '@marketplace/api-contract';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import {
  PLUGIN_SUMMARY_COLUMNS,
  PLUGIN_UPDATE_DATE,
  pluginIconPath,
  pluginPagePath,
  tagSearchPath,
  toPluginLifecycle,
  toPluginSummary,
  userPagePath,
  type PluginSummaryRow,
  type StoredPluginSummary,
} from '../../search/plugin-summary';
import { RecentDownloads } from '../../search/recent-downloads';
import {
  epochMs,
  pluginLifecycleColumns,
  pluginVisibleTo,
  selectRows,
  versionVisibleTo,
  type Viewer,
} from '../../search/sql';

interface PluginRow {
  id: number;
  family: ProductFamily;
  xml_id: string;
  name: string;
  description: string;
  preview: string | null;
  doc_text: string | null;
  email: string | null;
  copyright: string | null;
  icon_hash: string | null;
  pricing_model: PricingModel;
  is_monetization_available: boolean;
  language: string | null;
  programming_language: string | null;
  url: string | null;
  bugtracker_url: string | null;
  forum_url: string | null;
  license_url: string | null;
  source_code_url: string | null;
  doc_url: string | null;
  privacy_policy_url: string | null;
  lifecycle_state: string;
  approved: boolean;
  block_state: string;
  hidden: boolean;
  modification_allowed: boolean;
  downloads: number;
  rating_mean: number;
  rating_count: number;
  cdate: number;
  update_date: number;
  vendor_name: string | null;
  vendor_url: string | null;
  has_unapproved_update: boolean;
  tags: { id: number; name: string; privileged: boolean; searchable: boolean; families: ProductFamily[] }[];
  screenshot_ids: number[];
  links: { kind: 'donation' | 'custom_contact'; title: string; url: string }[];
  themes: { name: string; dark: boolean }[];
  tabs: { tab_name: string; url_suffix: string; generate_toc: boolean }[];
  products: IdeProductKey[];
  star_votes: Record<string, number> | null;
  lifecycle: PluginLifecycleBody | null;
  /** Set for items mirrored from another marketplace (src/trust/mirror). */
  mirrored_from: { url: string; original_url: string } | null;
}

/** The id of the plugin if this viewer may see it, else undefined (absent and hidden look the same). */
export async function findVisiblePluginId(
  db: Queryable,
  id: number,
  viewer: Viewer | undefined,
): Promise<{ id: number; name: string; xmlId: string } | undefined> {
  const rows = await selectRows<{ id: number; name: string; xml_id: string }>(
    db,
    sql`SELECT p.id, p.name, p.xml_id FROM plugins p WHERE p.id = ${id} AND ${pluginVisibleTo(viewer)}`,
  );
  const row = rows[0];
  return row && { id: row.id, name: row.name, xmlId: row.xml_id };
}

export async function loadPlugin(
  db: Queryable,
  id: number,
  viewer: Viewer | undefined,
  options: {
    fullInfo: boolean;
    /** Where the card's charts come from (the server's, which keeps them a second); default: read now. */
    charts?: RecentDownloads;
  },
): Promise<PluginBody | undefined> {
  const charts = options.charts ?? new RecentDownloads(db, 0);
  // The card's chart comes with the item (an embedded card needs no second request), read alongside it.
  const [rows, [chart]] = await Promise.all([
    selectRows<PluginRow>(
      db,
      sql`SELECT p.id, p.family, p.xml_id, p.name, p.description, p.preview, p.doc_text, p.email, p.copyright,
        p.icon_hash, p.pricing_model, p.is_monetization_available, p.language, p.programming_language, p.url,
        p.bugtracker_url, p.forum_url, p.license_url, p.source_code_url, p.doc_url, p.privacy_policy_url,
        p.lifecycle_state, p.approved, p.block_state, p.hidden, p.modification_allowed,
        p.downloads::float8 AS downloads, p.rating_mean, p.rating_count,
        ${epochMs(sql`coalesce(p.published_at, p.created_at)`)} AS cdate, ${PLUGIN_UPDATE_DATE} AS update_date,
        v.name AS vendor_name, v.url AS vendor_url,
        EXISTS (SELECT 1 FROM plugin_versions pv WHERE pv.plugin_id = p.id AND pv.approval_state = 'pending')
          AS has_unapproved_update,
        (SELECT coalesce(json_agg(json_build_object('id', t.id, 'name', t.name, 'privileged', t.privileged,
            'searchable', t.searchable, 'families', t.families) ORDER BY t.name), '[]'::json)
          FROM plugin_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.plugin_id = p.id) AS tags,
        (SELECT coalesce(json_agg(s.id ORDER BY s.position), '[]'::json)
          FROM plugin_screenshots s WHERE s.plugin_id = p.id) AS screenshot_ids,
        (SELECT coalesce(json_agg(json_build_object('kind', l.kind, 'title', l.title, 'url', l.url)
            ORDER BY l.kind, l.position), '[]'::json)
          FROM plugin_links l WHERE l.plugin_id = p.id) AS links,
        (SELECT coalesce(json_agg(json_build_object('name', th.name, 'dark', th.dark) ORDER BY th.name), '[]'::json)
          FROM plugin_themes th WHERE th.plugin_id = p.id) AS themes,
        (SELECT coalesce(json_agg(json_build_object('tab_name', d.tab_name, 'url_suffix', d.url_suffix,
            'generate_toc', d.generate_toc) ORDER BY d.position), '[]'::json)
          FROM plugin_documentation_tabs d WHERE d.plugin_id = p.id) AS tabs,
        (SELECT coalesce(json_agg(cp.product ORDER BY cp.product), '[]'::json)
          FROM plugin_compatible_products cp WHERE cp.plugin_id = p.id) AS products,
        (SELECT json_object_agg(r.rating, r.count) FROM (SELECT rv.rating, count(*)::int AS count
          FROM reviews rv JOIN users u ON u.id = rv.author_id WHERE rv.plugin_id = p.id AND NOT u.banned
          GROUP BY rv.rating) r) AS star_votes,
        (SELECT json_build_object('url', m.mirrored_from, 'original_url', m.original_url)
          FROM mirrored_plugins m WHERE m.plugin_id = p.id) AS mirrored_from,
        ${pluginLifecycleColumns(viewer)}
      FROM plugins p LEFT JOIN vendors v ON v.id = p.vendor_id
      WHERE p.id = ${id} AND ${pluginVisibleTo(viewer)}`,
    ),
    charts.attach([{ id }]),
  ]);
  const row = rows[0];
  if (!row) return undefined;

  // Developers and bundles are separate lists (spec: loaded on their own); fullInfo brings them along.
  const [developers, bundles, includedIn] = options.fullInfo
    ? await Promise.all([
        loadDevelopers(db, id),
        loadBundleMembers(db, id, viewer).then((members) => charts.attach(members)),
        loadIncludingBundles(db, id, viewer),
      ])
    : [[], [], undefined];
  const { links, themes, tabs } = row;
  const rating = starRating(row.star_votes ?? {});
  const linksOf = (kind: 'donation' | 'custom_contact') =>
    links.filter((link) => link.kind === kind).map(({ title, url }) => ({ title, url }));
  const detailStatus = options.fullInfo ? ('resolved' as const) : ('idle' as const);
  return {
    id: row.id,
    removed: row.lifecycle_state === 'deleted',
    status: 'resolved',
    info: {
      id: row.id,
      name: row.name,
      family: row.family,
      link: pluginPagePath(row.id, row.name),
      approve: row.approved,
      hasUnapprovedUpdate: row.has_unapproved_update,
      isHidden: row.hidden,
      description: row.description,
      preview: row.preview?.trim() ? row.preview : descriptionExcerpt(row.description),
      docText: row.doc_text ?? '',
      email: row.email ?? '',
      downloads: row.downloads,
      xmlId: row.xml_id,
      copyright: row.copyright ?? '',
      removalRequested: row.lifecycle_state === 'removal_requested',
      icon: pluginIconPath(row.id, row.icon_hash),
      cdate: row.cdate,
      pricingModel: row.pricing_model,
      isMonetizationAvailable: row.is_monetization_available,
      // A partial block blocks chosen versions only: the item itself is not blocked.
      isBlocked: row.block_state === 'blocked',
      isModificationAllowed: row.modification_allowed,
      updateDate: row.update_date,
    },
    screenshots: row.screenshot_ids.map((screenshotId) => ({
      url: `/api/plugins/${id}/screenshots/${screenshotId}`,
    })),
    tags: row.tags.map((tag) => ({ ...tag, link: tagSearchPath(tag.name) })),
    rating: { status: 'resolved', meanRating: rating.meanRating, votes: rating.votes },
    vendor: { name: row.vendor_name ?? '', url: row.vendor_url ?? '' },
    urls: {
      url: row.url ?? '',
      bugtrackerUrl: row.bugtracker_url ?? '',
      forumUrl: row.forum_url ?? '',
      licenseUrl: row.license_url ?? '',
      sourceCodeUrl: row.source_code_url ?? '',
      docUrl: row.doc_url ?? '',
      privacyPolicyUrl: row.privacy_policy_url ?? '',
      donationLinks: linksOf('donation').map(({ title, url }) => ({ name: title, url })),
      customContacts: linksOf('custom_contact').map(({ title, url }) => ({ title, link: url })),
    },
    language: row.language,
    programmingLanguage: row.programming_language,
    developers: { status: detailStatus, data: developers },
    bundles: { status: detailStatus, data: bundles },
    ...(includedIn ? { includedIn } : {}),
    customTabs: tabs.map((tab) => ({
      tabName: tab.tab_name,
      path: tab.url_suffix,
      urlSuffix: tab.url_suffix,
      contentUrl: `/api/plugins/${id}/documentation/${tab.url_suffix}`,
      generateToc: tab.generate_toc,
    })),
    themes,
    compatibleProducts: row.products,
    downloadStatistics: chart?.downloadStatistics ?? [],
    // Its developers and administrators see where it is in its lifecycle; nobody else learns of a draft.
    ...(row.lifecycle ? { lifecycle: toPluginLifecycle(row.lifecycle) } : {}),
    ...(row.mirrored_from ? { mirroredFrom: mirroredFromOf(row.mirrored_from) } : {}),
  };
}

/** Where a mirrored item came from, with the host the item page names ("Mirrored from <host>"). */
function mirroredFromOf(origin: { url: string; original_url: string }): MirroredFromBody {
  let host = origin.url;
  try {
    host = new URL(origin.url).host;
  } catch {
    // An address stored before it was checked is shown as it is.
  }
  return { host, url: origin.url, originalUrl: origin.original_url };
}

export async function loadCompatibleProducts(db: Queryable, pluginId: number): Promise<IdeProductKey[]> {
  const rows = await selectRows<{ product: IdeProductKey }>(
    db,
    sql`SELECT product FROM plugin_compatible_products WHERE plugin_id = ${pluginId} ORDER BY product`,
  );
  return rows.map((row) => row.product);
}

/** The people who develop the plugin: its owner first, then the developers added to it. */
export async function loadDevelopers(db: Queryable, pluginId: number): Promise<DeveloperBody[]> {
  const rows = await selectRows<{ id: number; login: string; name: string }>(
    db,
    sql`SELECT u.id, u.login, u.name FROM (
        SELECT owner_id AS user_id, 0 AS rank, created_at AS added_at FROM plugins WHERE id = ${pluginId}
        UNION SELECT user_id, 1, added_at FROM plugin_developers WHERE plugin_id = ${pluginId}
      ) d JOIN users u ON u.id = d.user_id
      WHERE NOT u.banned
      GROUP BY u.id, u.login, u.name
      ORDER BY min(d.rank), min(d.added_at), u.id`,
  );
  return rows.map((row) => ({
    id: String(row.id),
    login: row.login,
    name: row.name,
    link: userPagePath(row.id),
  }));
}

export async function loadBundleMembers(
  db: Queryable,
  bundleId: number,
  viewer: Viewer | undefined,
): Promise<StoredPluginSummary[]> {
  const rows = await selectRows<PluginSummaryRow>(
    db,
    sql`SELECT ${PLUGIN_SUMMARY_COLUMNS} FROM plugin_bundles b
      JOIN plugins p ON p.id = b.member_id LEFT JOIN vendors v ON v.id = p.vendor_id
      WHERE b.bundle_id = ${bundleId} AND ${pluginVisibleTo(viewer)}
      ORDER BY b.position, p.id`,
  );
  return rows.map(toPluginSummary);
}

/**
 * The bundles that include the item (the reverse of {@link loadBundleMembers}): those the viewer may see, by
 * name. For a theme these are the plugins that ship it.
 */
export async function loadIncludingBundles(
  db: Queryable,
  memberId: number,
  viewer: Viewer | undefined,
): Promise<PluginBundleRefBody[]> {
  const rows = await selectRows<{ id: number; name: string }>(
    db,
    sql`SELECT p.id, p.name FROM plugin_bundles b JOIN plugins p ON p.id = b.bundle_id
      WHERE b.member_id = ${memberId} AND ${pluginVisibleTo(viewer)}
      ORDER BY lower(p.name), p.id LIMIT 50`,
  );
  return rows.map((row) => ({ id: row.id, name: row.name, link: pluginPagePath(row.id, row.name) }));
}

/** Mean and votes per star count from `{ "<stars>": count }`. */
function starRating(counts: Record<string, number>): RatingBody {
  const votes = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 };
  let total = 0;
  let sum = 0;
  for (const [stars, count] of Object.entries(counts)) {
    if (!(stars in votes)) continue;
    votes[stars as keyof typeof votes] = count;
    total += count;
    sum += Number(stars) * count;
  }
  return { meanRating: total === 0 ? 0 : sum / total, votes, total };
}

export async function loadRating(db: Queryable, pluginId: number): Promise<RatingBody> {
  const rows = await selectRows<{ rating: number; count: number }>(
    db,
    sql`SELECT r.rating::int AS rating, count(*)::int AS count
      FROM reviews r JOIN users u ON u.id = r.author_id
      WHERE r.plugin_id = ${pluginId} AND NOT u.banned GROUP BY r.rating`,
  );
  return starRating(Object.fromEntries(rows.map((row) => [String(row.rating), row.count])));
}

export async function loadGranularRating(db: Queryable, pluginId: number): Promise<GranularRatingBody> {
  const rows = await selectRows<{ category: RatingCategory; mean: number }>(
    db,
    sql`SELECT c.category, avg(c.rating)::float8 AS mean
      FROM review_category_ratings c JOIN reviews r ON r.id = c.review_id JOIN users u ON u.id = r.author_id
      WHERE r.plugin_id = ${pluginId} AND NOT u.banned GROUP BY c.category ORDER BY c.category`,
  );
  const rating: GranularRatingBody = {};
  for (const row of rows) rating[row.category] = row.mean;
  return rating;
}

export const VERSION_COLUMNS = sql`pv.id, pv.plugin_id, p.xml_id, pv.version, pv.channel, pv.since_build,
  pv.until_build, pv.notes, ${epochMs(sql`pv.created_at`)} AS cdate, pv.file_size::float8 AS file_size,
  pv.downloads::float8 AS downloads, pv.file_name, pv.dependencies`;

export interface VersionRow {
  id: number;
  plugin_id: number;
  xml_id: string;
  version: string;
  channel: string;
  since_build: string;
  until_build: string | null;
  notes: string;
  cdate: number;
  file_size: number;
  downloads: number;
  file_name: string;
  dependencies: string[];
}

export function downloadPath(updateId: number): string {
  return `/plugin/download?updateId=${updateId}`;
}

/** `signature`: what the upload found and did (trust's loadVersionSignatures); null when it has no record. */
export function toPluginVersion(
  row: VersionRow,
  publicUrl: string,
  signature: VersionSignatureBody | null = null,
): PluginVersionBody {
  return {
    id: row.id,
    pluginId: row.plugin_id,
    pluginXmlId: row.xml_id,
    version: row.version,
    channel: row.channel,
    since: row.since_build,
    until: row.until_build,
    notes: row.notes,
    cdate: row.cdate,
    size: row.file_size,
    downloads: row.downloads,
    fileName: row.file_name,
    dependencies: row.dependencies,
    downloadUrl: publicUrl + downloadPath(row.id),
    signature,
  };
}

export async function loadVersions(
  db: Queryable,
  pluginId: number,
  viewer: Viewer | undefined,
  options: { channel: string | undefined; page: number; size: number },
): Promise<{ rows: VersionRow[]; total: number }> {
  const channelCondition = options.channel === undefined ? sql`true` : sql`pv.channel = ${options.channel}`;
  const where = sql`pv.plugin_id = ${pluginId} AND ${versionVisibleTo(viewer)} AND ${channelCondition}`;
  const [rows, counted] = await Promise.all([
    selectRows<VersionRow>(
      db,
      sql`SELECT ${VERSION_COLUMNS} FROM plugin_versions pv JOIN plugins p ON p.id = pv.plugin_id
        WHERE ${where} ORDER BY pv.created_at DESC, pv.id DESC
        LIMIT ${options.size} OFFSET ${(options.page - 1) * options.size}`,
    ),
    selectRows<{ total: number }>(
      db,
      sql`SELECT count(*)::int AS total FROM plugin_versions pv JOIN plugins p ON p.id = pv.plugin_id
        WHERE ${where}`,
    ),
  ]);
  return { rows, total: counted[0]?.total ?? 0 };
}

export async function loadChannels(
  db: Queryable,
  pluginId: number,
  viewer: Viewer | undefined,
): Promise<string[]> {
  const rows = await selectRows<{ channel: string }>(
    db,
    sql`SELECT DISTINCT pv.channel FROM plugin_versions pv JOIN plugins p ON p.id = pv.plugin_id
      WHERE pv.plugin_id = ${pluginId} AND ${versionVisibleTo(viewer)} ORDER BY pv.channel`,
  );
  return rows.map((row) => row.channel);
}

export async function loadVersion(
  db: Queryable,
  versionId: number,
  viewer: Viewer | undefined,
): Promise<VersionRow | undefined> {
  const rows = await selectRows<VersionRow>(
    db,
    sql`SELECT ${VERSION_COLUMNS} FROM plugin_versions pv JOIN plugins p ON p.id = pv.plugin_id
      WHERE pv.id = ${versionId} AND ${pluginVisibleTo(viewer)} AND ${versionVisibleTo(viewer)}`,
  );
  return rows[0];
}
