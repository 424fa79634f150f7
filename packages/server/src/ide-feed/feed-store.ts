import { compareBuildComponents, type ProductFamily } from '@marketplace/core';
import { sql } from 'drizzle-orm';
import { CatalogueFollower, type CatalogueFollowerOptions } from '../db/catalogue-follower';
import type { Database, Transaction } from '../db/client';
import { familyOfIde, type IdeBuild } from '../routes/ide/compatibility';
import { epochMs, pluginVisibleTo, selectRows, versionVisibleTo } from '../search/sql';
import { combineCrc, crcShift, type DeflatedPiece, type StoredPiece } from './deflate-pieces';
import { FRAGMENT_FORMAT, liveHead, liveTail, renderFragment, type FragmentSource } from './fragments';

/** One version as the feed offers it: its build range and its pre-rendered fragment. */
interface FeedVersion {
  id: number;
  channel: string;
  since: readonly number[];
  until: readonly number[] | null;
  /** The source digest the fragment was rendered from. */
  digest: string;
  fragment: DeflatedPiece;
  /** The whole element for the plugin's current numbers, made when first asked for. */
  live?: FeedItem;
}

interface FeedPlugin {
  id: number;
  xmlId: string;
  family: ProductFamily;
  products: readonly string[];
  category: string;
  downloads: number;
  rating: number;
  /** Visible versions, newest first. */
  versions: FeedVersion[];
}

/** One `<idea-plugin>` element of an answer: live head, the fragment, live tail. */
export interface FeedItem {
  downloads: number;
  rating: number;
  head: StoredPiece;
  fragment: DeflatedPiece;
  tail: StoredPiece;
  /** The whole element compressed: head, fragment and tail one after another. */
  deflated: Buffer;
  /** CRC-32 and length of the whole element's text, and the CRC shift over that length. */
  crc: number;
  length: number;
  shift: number;
}

/** The items of one answer in feed order, grouped by category. */
export interface FeedSelection {
  groups: { category: string; items: FeedItem[] }[];
}

interface FeedRow {
  plugin_id: number;
  xml_id: string;
  family: ProductFamily;
  downloads: number;
  rating_mean: number;
  category: string | null;
  products: string[];
  version_id: number;
  channel: string;
  since_components: string;
  until_components: string | null;
  digest: string;
  /** The stored fragment when it is current, else null (and `source` is given instead). */
  deflated: Uint8Array | null;
  plain_length: number | null;
  crc: number | null;
  source: FragmentSource | null;
}

interface FeedChanges {
  rows: FeedRow[];
  changedPluginIds: number[];
  removedIds: number[];
}

/** Fragments rendered by this process, written to the database in batches of this many. */
const PERSIST_BATCH = 200;

/**
 * The one copy of each short string the selection compares (families, products, channels, categories):
 * strings that come from the driver are compared character by character, the same copy by reference, which
 * makes a pass over the whole catalogue several times faster.
 */
const interned = new Map<string, string>();
function intern<T extends string>(text: T): T {
  const known = interned.get(text);
  if (known !== undefined) return known as T;
  interned.set(text, text);
  return text;
}

function components(text: string): number[] {
  return text.slice(1, -1).split(',').map(Number);
}

function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * The IDE feed of this process: every visible version's fragment (src/ide-feed/fragments.ts), kept in memory
 * and following the catalogue like the search index does ({@link CatalogueFollower}). Fragments live in the
 * database (`ide_feed_fragments`): a fragment missing there or rendered from other fields is rendered here,
 * used at once and written back for other processes. Download counts and ratings are not in fragments, so a
 * download renders nothing.
 */
export class IdeFeedStore extends CatalogueFollower<FeedChanges> {
  private plugins = new Map<number, FeedPlugin>();
  /**
   * Each family's plugins in feed order (category, then id); made again when a plugin comes, goes or changes
   * category.
   */
  private ordered: Map<ProductFamily, FeedPlugin[]> | undefined;
  private persisting: Promise<void> = Promise.resolve();

  constructor(
    db: Database,
    private readonly publicUrl: string,
    options: CatalogueFollowerOptions = {},
  ) {
    super(db, options);
  }

  /**
   * The newest version of each plugin that installs into the IDE, in a channel (optionally only some xml
   * ids), grouped by category in feed order. The IDE's family only (a course is never an IntelliJ plugin);
   * a plugin that names compatible products must name the IDE's.
   */
  async select(ide: IdeBuild, channel: string, xmlIds?: ReadonlySet<string>): Promise<FeedSelection> {
    await this.upToDate();
    this.ordered ??= orderByFamily(this.plugins.values());
    // Channels are compared by reference (see intern); one no version is in has nothing to offer.
    const wanted = interned.get(channel);
    if (wanted === undefined) return { groups: [] };
    const family = familyOfIde(ide);
    const productKey = ide.product?.key;
    const build = ide.build.components;
    const groups: FeedSelection['groups'] = [];
    for (const plugin of this.ordered.get(family) ?? []) {
      if (xmlIds && !xmlIds.has(plugin.xmlId)) continue;
      if (productKey && plugin.products.length > 0 && !plugin.products.includes(productKey)) continue;
      let version: FeedVersion | undefined;
      for (const candidate of plugin.versions) {
        if (
          candidate.channel === wanted &&
          compareBuildComponents(candidate.since, build) <= 0 &&
          (candidate.until === null || compareBuildComponents(build, candidate.until) <= 0)
        ) {
          version = candidate;
          break;
        }
      }
      if (!version) continue;
      const last = groups.at(-1);
      const item = liveItem(plugin, version);
      if (last?.category === plugin.category) last.items.push(item);
      else groups.push({ category: plugin.category, items: [item] });
    }
    return { groups };
  }

  /** Waits until the fragments rendered so far are written to the database. */
  async persisted(): Promise<void> {
    await this.persisting;
  }

  /** Waits for the fragments being written to the database, too. */
  override async close(): Promise<void> {
    await super.close();
    await this.persisted();
  }

  protected async readChanges(
    transaction: Transaction,
    since: string,
    rebuild: boolean,
  ): Promise<FeedChanges> {
    // The digest covers every field a fragment shows, the public URL its links use and the format.
    const rows = await selectRows<FeedRow>(
      transaction,
      // The plugins' own columns are worked out once a plugin (materialized), not once a version.
      sql`WITH changed_plugins AS MATERIALIZED (
          SELECT p.id, p.xml_id, p.family, p.downloads, p.rating_mean, p.name, p.description, p.email,
            p.vendor_id,
            (SELECT t.name FROM plugin_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.plugin_id = p.id
              ORDER BY t.privileged DESC, t.id LIMIT 1) AS category,
            coalesce((SELECT array_agg(cp.product ORDER BY cp.product) FROM plugin_compatible_products cp
              WHERE cp.plugin_id = p.id), '{}') AS products
          FROM plugins p
          WHERE p.changed_by_xact >= ${since}::xid8 AND ${pluginVisibleTo(undefined)})
        SELECT p.id AS plugin_id, p.xml_id, p.family, p.downloads::float8 AS downloads, p.rating_mean,
          p.category, p.products,
          pv.id AS version_id, pv.channel, pv.since_components::text, pv.until_components::text, d.digest,
          CASE WHEN f.source_digest = d.digest THEN f.deflated END AS deflated,
          f.plain_length, f.crc::float8 AS crc,
          CASE WHEN f.source_digest = d.digest THEN NULL ELSE s.source END AS source
        FROM changed_plugins p JOIN plugin_versions pv ON pv.plugin_id = p.id
          LEFT JOIN vendors v ON v.id = p.vendor_id
          CROSS JOIN LATERAL (SELECT json_build_object(
            'version_id', pv.id, 'size', pv.file_size, 'cdate', ${epochMs(sql`pv.created_at`)},
            'name', p.name, 'xml_id', p.xml_id, 'description', p.description, 'version', pv.version,
            'vendor_name', v.name, 'vendor_email', coalesce(v.email, p.email), 'vendor_url', v.url,
            'since_build', pv.since_build, 'until_build', pv.until_build, 'notes', pv.notes,
            'dependencies', pv.dependencies) AS source) s
          CROSS JOIN LATERAL (SELECT md5(${FRAGMENT_FORMAT}::text || ' ' || ${this.publicUrl}::text || ' ' || s.source::text)
            AS digest) d
          LEFT JOIN ide_feed_fragments f ON f.version_id = pv.id
        WHERE ${versionVisibleTo(undefined)}
        ORDER BY p.id, pv.created_at DESC, pv.id DESC`,
    );
    if (rebuild) return { rows, changedPluginIds: [], removedIds: [] };
    // A changed plugin with no visible version left (hidden, blocked, unapproved) leaves the feed.
    const changed = await selectRows<{ id: number }>(
      transaction,
      sql`SELECT id FROM plugins WHERE changed_by_xact >= ${since}::xid8`,
    );
    return {
      rows,
      changedPluginIds: changed.map((row) => row.id),
      removedIds: await this.removedPluginIds(transaction, since),
    };
  }

  protected async apply(changes: FeedChanges, rebuild: boolean): Promise<void> {
    const plugins = rebuild ? new Map<number, FeedPlugin>() : this.plugins;
    const previous = this.plugins;
    let reordered = rebuild;
    const rendered: { versionId: number; digest: string; fragment: DeflatedPiece }[] = [];
    const fresh = new Map<number, FeedPlugin>();
    for (let position = 0; position < changes.rows.length; position++) {
      const row = changes.rows[position]!;
      let plugin = fresh.get(row.plugin_id);
      if (!plugin) {
        plugin = {
          id: row.plugin_id,
          xmlId: row.xml_id,
          family: intern(row.family),
          products: row.products.map(intern),
          category: intern(row.category ?? 'Uncategorized'),
          downloads: row.downloads,
          rating: row.rating_mean,
          versions: [],
        };
        fresh.set(plugin.id, plugin);
      }
      const known = previous.get(row.plugin_id)?.versions.find((version) => version.id === row.version_id);
      let fragment: DeflatedPiece;
      if (known?.digest === row.digest) {
        fragment = known.fragment;
      } else if (row.deflated !== null && row.plain_length !== null && row.crc !== null) {
        fragment = { deflated: toBuffer(row.deflated), crc: row.crc, length: row.plain_length };
      } else {
        fragment = renderFragment(row.source!, this.publicUrl);
        rendered.push({ versionId: row.version_id, digest: row.digest, fragment });
        // Rendering a whole catalogue takes seconds: let other requests through now and then.
        if (rendered.length % 500 === 0) await new Promise(setImmediate);
      }
      plugin.versions.push({
        id: row.version_id,
        channel: intern(row.channel),
        since: components(row.since_components),
        until: row.until_components === null ? null : components(row.until_components),
        digest: row.digest,
        fragment,
      });
    }
    for (const id of [...changes.changedPluginIds, ...changes.removedIds]) {
      if (!fresh.has(id) && plugins.delete(id)) reordered = true;
    }
    for (const plugin of fresh.values()) {
      const before = plugins.get(plugin.id);
      if (!before || before.category !== plugin.category) reordered = true;
      plugins.set(plugin.id, plugin);
    }
    this.plugins = plugins;
    if (reordered) this.ordered = undefined;
    else if (this.ordered) {
      for (const list of this.ordered.values()) {
        for (let index = 0; index < list.length; index++) list[index] = plugins.get(list[index]!.id)!;
      }
    }
    if (rendered.length > 0) {
      this.persisting = this.persisting.then(() => this.persist(rendered)).catch(this.onError);
    }
  }

  /** Writes fragments rendered here, so other processes (and this one after a restart) need not render them. */
  private async persist(fragments: { versionId: number; digest: string; fragment: DeflatedPiece }[]) {
    for (let start = 0; start < fragments.length; start += PERSIST_BATCH) {
      const values = fragments.slice(start, start + PERSIST_BATCH).map(
        ({ versionId, digest, fragment }) =>
          sql`(${versionId}::integer, ${digest}, ${fragment.deflated}::bytea, ${fragment.length}::integer,
              ${fragment.crc}::bigint)`,
      );
      // A version deleted meanwhile is skipped rather than failing the batch.
      await this.db.execute(
        sql`INSERT INTO ide_feed_fragments (version_id, source_digest, deflated, plain_length, crc)
          SELECT n.* FROM (VALUES ${sql.join(values, sql`, `)})
            AS n (version_id, source_digest, deflated, plain_length, crc)
          WHERE EXISTS (SELECT 1 FROM plugin_versions pv WHERE pv.id = n.version_id)
          ON CONFLICT (version_id) DO UPDATE SET source_digest = excluded.source_digest,
            deflated = excluded.deflated, plain_length = excluded.plain_length, crc = excluded.crc,
            rendered_at = now()`,
      );
    }
  }
}

/** Plugins by family, each list in feed order: by category, then by id. */
function orderByFamily(plugins: Iterable<FeedPlugin>): Map<ProductFamily, FeedPlugin[]> {
  const byFamily = new Map<ProductFamily, FeedPlugin[]>();
  for (const plugin of plugins) {
    const list = byFamily.get(plugin.family);
    if (list) list.push(plugin);
    else byFamily.set(plugin.family, [plugin]);
  }
  for (const list of byFamily.values()) {
    list.sort((a, b) => a.category.localeCompare(b.category) || a.id - b.id);
  }
  return byFamily;
}

/** The version's element for the plugin's current numbers (kept until the numbers change). */
function liveItem(plugin: FeedPlugin, version: FeedVersion): FeedItem {
  const live = version.live;
  if (live && live.downloads === plugin.downloads && live.rating === plugin.rating) return live;
  const head = liveHead(plugin.downloads);
  const tail = liveTail(plugin.rating);
  const { fragment } = version;
  const crc = combineCrc(
    combineCrc(head.crc, fragment.crc, crcShift(fragment.length)),
    tail.crc,
    crcShift(tail.length),
  );
  const length = head.length + fragment.length + tail.length;
  version.live = {
    downloads: plugin.downloads,
    rating: plugin.rating,
    head,
    fragment,
    tail,
    deflated: Buffer.concat([head.deflated, fragment.deflated, tail.deflated]),
    crc,
    length,
    shift: crcShift(length),
  };
  return version.live;
}
