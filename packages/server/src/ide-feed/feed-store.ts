import { compareBuildComponents, type ProductFamily } from '@marketplace/core';
import { sql } from 'drizzle-orm';
import { CatalogueFollower, type CatalogueFollowerOptions } from '../db/catalogue-follower';
import type { Database, Transaction } from '../db/client';
import { familyOfIde, type IdeBuild } from '../routes/ide/compatibility';
import { epochMs, pluginVisibleTo, selectRows, versionVisibleTo } from '../search/sql';
import { combineCrc, crcShift, type DeflatedPiece, type StoredPiece } from './deflate-pieces';
import { FeedDocument, pluginRepositoryAnswer, type FeedAnswer } from './feed-answer';
import { FRAGMENT_FORMAT, liveHead, liveTail, renderFragment, type FragmentSource } from './fragments';

/** One version as the feed offers it: its build range and its pre-rendered fragment. */
export interface FeedVersion {
  id: number;
  channel: string;
  /** The build range as PostgreSQL prints its component arrays (`{241,0}`), interned. */
  sinceKey: string;
  untilKey: string | null;
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
  pluginId: number;
  version: FeedVersion;
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
 * Documents kept between requests, at most this many compressed bytes (a feed of 23,000 items is about
 * 10 MB): the builds IDEs ask with most stay, the others are put together again when asked.
 */
const DOCUMENT_CACHE_BYTES = 128 * 1024 * 1024;

/** The `until` of a version that has none: after every build. */
const NO_UNTIL = 0x7fffffff;

/**
 * The one copy of each short string the selection compares (families, products, channels, categories, build
 * ranges): strings that come from the driver are compared character by character, the same copy by
 * reference, and a catalogue of 200,000 versions has a few dozen distinct build ranges.
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
 * Moves pieces kept for long (fragments, live elements) into one buffer of their exact total size, in the
 * order given. Kept one by one, each would hold on to whatever larger buffer it was cut from (the driver's
 * and Buffer's 8 KB pools, shared with short-lived bytes), several times its own size; together, a piece
 * costs its bytes, and pieces sent one after another are read one after another (copying 20,000 pieces
 * scattered over the heap into an answer took 25 ms, 2 ms from one buffer). The buffer goes once all its
 * pieces are replaced.
 */
function pack(pieces: readonly { deflated: Buffer }[]): void {
  let total = 0;
  for (const piece of pieces) total += piece.deflated.length;
  if (total === 0) return;
  const block = Buffer.allocUnsafeSlow(total);
  let offset = 0;
  for (const piece of pieces) {
    const length = piece.deflated.copy(block, offset);
    piece.deflated = block.subarray(offset, offset + length);
    offset += length;
  }
}

/**
 * One family's plugins in feed order (category, then id) and their versions in flat arrays: an answer is one
 * pass over numbers, not a walk through objects scattered over the heap (which took 30 ms a request for
 * 30,000 plugins, on memory latency alone).
 */
interface FamilyIndex {
  plugins: FeedPlugin[];
  /** Where each plugin's versions start in the arrays below, and where the last one ends. */
  firstVersion: Int32Array;
  versions: FeedVersion[];
  /** Per version: its channel's number, and the positions of its since and until builds in `bounds`. */
  channel: Int32Array;
  since: Int32Array;
  until: Int32Array;
  /** Per product key: 1 for each plugin that runs on it (names no products or names it); made when asked. */
  runsOn: Map<string, Uint8Array>;
}

/** What a selection runs over; made again when a plugin comes, goes or changes anything but its numbers. */
interface FeedIndex {
  families: Map<ProductFamily, FamilyIndex>;
  /** Every since and until build of the catalogue, once each, oldest first. */
  bounds: (readonly number[])[];
  channels: Map<string, number>;
}

/**
 * A question to the index. A version installs into the build when its since is among the first `atOrBefore`
 * bounds and its until is not among the first `before`: builds with the same two counts (and family, product
 * and channel) get the same answer, which `key` names.
 */
interface FeedQuery {
  family: FamilyIndex;
  productKey: string | undefined;
  channel: number;
  atOrBefore: number;
  before: number;
  key: string;
}

/**
 * The IDE feed of this process: every visible version's fragment (src/ide-feed/fragments.ts), kept in memory
 * and following the catalogue like the search index does ({@link CatalogueFollower}). Fragments live in the
 * database (`ide_feed_fragments`): a fragment missing there or rendered from other fields is rendered here,
 * used at once and written back for other processes. Download counts and ratings are not in fragments, so a
 * download renders nothing.
 *
 * Whole documents are kept too ({@link FeedDocument}), by the range of builds they answer ({@link FeedQuery}):
 * a look that brings a change forgets them all, unless only plugins' numbers changed (a download, a rating),
 * which puts together again the parts of documents that show those plugins, before they answer again.
 */
export class IdeFeedStore extends CatalogueFollower<FeedChanges> {
  private plugins = new Map<number, FeedPlugin>();
  private index: FeedIndex | undefined;
  /** Documents by query key, least recently used first. */
  private documents = new Map<string, FeedDocument>();
  /** Plugins whose numbers changed since the documents were last brought up to date. */
  private renumbered = new Set<number>();
  private persisting: Promise<void> = Promise.resolve();
  /** Whole-catalogue answers found kept, and answers put together (the caches' administration). */
  documentHits = 0;
  documentMisses = 0;

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
    return this.collect(this.query(ide, channel), xmlIds);
  }

  /**
   * The `<plugin-repository>` answer for the IDE (src/ide-feed/feed-answer.ts). Answers for the whole
   * catalogue are kept until the next change; those for some xml ids are small and put together each time.
   */
  async answer(
    ide: IdeBuild,
    channel: string,
    xmlIds: ReadonlySet<string> | undefined,
    gzip: boolean,
  ): Promise<FeedAnswer> {
    await this.upToDate();
    const query = this.query(ide, channel);
    if (xmlIds || !query) return pluginRepositoryAnswer(this.collect(query, xmlIds), gzip);
    if (this.renumbered.size > 0) this.refreshDocuments();
    let document = this.documents.get(query.key);
    if (document) {
      this.documents.delete(query.key);
      this.documentHits++;
    } else {
      document = new FeedDocument(this.collect(query));
      this.documentMisses++;
    }
    this.documents.set(query.key, document);
    // The least recently used go first; one document larger than the whole allowance is not kept.
    let held = 0;
    for (const kept of this.documents.values()) held += kept.bytes;
    for (const [key, kept] of this.documents) {
      if (held <= DOCUMENT_CACHE_BYTES) break;
      this.documents.delete(key);
      held -= kept.bytes;
    }
    return document.answer(gzip);
  }

  /**
   * What the feed holds, for the caches' administration: versions with a fragment, kept documents, and the
   * compressed bytes of fragments, live elements and documents (buffers only: the objects around them are
   * not counted, so the heap holds somewhat more).
   */
  get feedStatistics(): { versions: number; documents: number; bytes: number } {
    let versions = 0;
    let bytes = 0;
    for (const plugin of this.plugins.values()) {
      for (const version of plugin.versions) {
        versions++;
        bytes += version.fragment.deflated.length + (version.live?.deflated.length ?? 0);
      }
    }
    for (const document of this.documents.values()) bytes += document.bytes;
    return { versions, documents: this.documents.size, bytes };
  }

  /** Forgets every fragment and document: the next answer waits for the feed to be read again. */
  override forget(): void {
    super.forget();
    this.documents.clear();
    this.renumbered.clear();
  }

  /** Brings the kept documents to the plugins' current numbers. */
  private refreshDocuments(): void {
    const made: FeedItem[] = [];
    const current = (item: FeedItem) => liveItem(this.plugins.get(item.pluginId)!, item.version, made);
    for (const document of this.documents.values()) document.refresh(this.renumbered, current);
    this.renumbered.clear();
    pack(made);
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

  /** The question an IDE's build and channel ask, or undefined when nothing can answer it. */
  private query(ide: IdeBuild, channel: string): FeedQuery | undefined {
    const index = (this.index ??= makeIndex(this.plugins.values()));
    const channelNumber = index.channels.get(channel);
    const familyName = familyOfIde(ide);
    const family = index.families.get(familyName);
    if (channelNumber === undefined || !family) return undefined;
    const build = ide.build.components;
    const { bounds } = index;
    const atOrBefore = countBounds(bounds, (bound) => compareBuildComponents(bound, build) <= 0);
    const before = countBounds(bounds, (bound) => compareBuildComponents(bound, build) < 0);
    const productKey = ide.product?.key;
    return {
      family,
      productKey,
      channel: channelNumber,
      atOrBefore,
      before,
      key: `${familyName} ${productKey ?? ''} ${channelNumber} ${atOrBefore} ${before}`,
    };
  }

  /** The selection a query asks for, optionally only of some xml ids. */
  private collect(query: FeedQuery | undefined, xmlIds?: ReadonlySet<string>): FeedSelection {
    const groups: FeedSelection['groups'] = [];
    if (!query) return { groups };
    const { family, channel: wanted, atOrBefore, before } = query;
    const { plugins, firstVersion, channel, since, until, versions } = family;
    const runsOn = query.productKey === undefined ? undefined : runsOnProduct(family, query.productKey);
    let last: FeedSelection['groups'][number] | undefined;
    const made: FeedItem[] = [];
    for (let position = 0; position < plugins.length; position++) {
      if (runsOn && runsOn[position] === 0) continue;
      const plugin = plugins[position]!;
      if (xmlIds && !xmlIds.has(plugin.xmlId)) continue;
      const end = firstVersion[position + 1]!;
      for (let version = firstVersion[position]!; version < end; version++) {
        if (channel[version] !== wanted || since[version]! >= atOrBefore || until[version]! < before)
          continue;
        const item = liveItem(plugin, versions[version]!, made);
        if (last?.category === plugin.category) last.items.push(item);
        else groups.push((last = { category: plugin.category, items: [item] }));
        break;
      }
    }
    pack(made);
    return { groups };
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
    let reshaped = rebuild;
    const rendered: { versionId: number; digest: string; fragment: DeflatedPiece }[] = [];
    const read: DeflatedPiece[] = [];
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
        read.push(fragment);
      } else {
        fragment = renderFragment(row.source!, this.publicUrl);
        rendered.push({ versionId: row.version_id, digest: row.digest, fragment });
        // Rendering a whole catalogue takes seconds: let other requests through now and then (and a stop).
        if (rendered.length % 500 === 0) {
          await new Promise(setImmediate);
          this.throwIfClosed();
        }
      }
      plugin.versions.push({
        id: row.version_id,
        channel: intern(row.channel),
        sinceKey: intern(row.since_components),
        untilKey: row.until_components === null ? null : intern(row.until_components),
        digest: row.digest,
        fragment,
      });
    }
    pack([...read, ...rendered.map((entry) => entry.fragment)]);
    for (const id of [...changes.changedPluginIds, ...changes.removedIds]) {
      if (!fresh.has(id) && plugins.delete(id)) reshaped = true;
    }
    for (const plugin of fresh.values()) {
      const before = plugins.get(plugin.id);
      // Only the numbers changed (a download, a rating): the versions stay, with their live elements.
      if (before && sameShape(before, plugin)) plugin.versions = before.versions;
      else reshaped = true;
      plugins.set(plugin.id, plugin);
    }
    this.plugins = plugins;
    if (reshaped) this.index = undefined;
    else if (this.index && fresh.size > 0) {
      for (const family of this.index.families.values()) {
        const list = family.plugins;
        for (let position = 0; position < list.length; position++) {
          list[position] = plugins.get(list[position]!.id)!;
        }
      }
    }
    if (reshaped) {
      this.documents.clear();
      this.renumbered.clear();
    } else {
      for (const id of fresh.keys()) this.renumbered.add(id);
    }
    if (rendered.length > 0) {
      this.persisting = this.persisting.then(() => this.persist(rendered)).catch(this.onError);
    }
  }

  /** Writes fragments rendered here, so other processes (and this one after a restart) need not render them. */
  private async persist(fragments: { versionId: number; digest: string; fragment: DeflatedPiece }[]) {
    for (let start = 0; start < fragments.length; start += PERSIST_BATCH) {
      // Stopping: the rest are rendered again by the next process that needs them.
      if (this.closed) return;
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

/** Whether a plugin read again differs from what the store has in its numbers only. */
function sameShape(before: FeedPlugin, after: FeedPlugin): boolean {
  if (
    before.family !== after.family ||
    before.category !== after.category ||
    before.xmlId !== after.xmlId ||
    before.products.length !== after.products.length ||
    before.versions.length !== after.versions.length
  ) {
    return false;
  }
  if (before.products.some((product, index) => product !== after.products[index])) return false;
  return before.versions.every((version, index) => {
    const other = after.versions[index]!;
    return (
      version.id === other.id &&
      version.digest === other.digest &&
      version.channel === other.channel &&
      version.sinceKey === other.sinceKey &&
      version.untilKey === other.untilKey
    );
  });
}

/** How many bounds (oldest first) satisfy a test that holds for a first run of them. */
function countBounds(bounds: readonly (readonly number[])[], holds: (bound: readonly number[]) => boolean) {
  let low = 0;
  let high = bounds.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (holds(bounds[middle]!)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Plugins by family in feed order (by category, then by id), their versions in flat arrays. */
function makeIndex(plugins: Iterable<FeedPlugin>): FeedIndex {
  const byFamily = new Map<ProductFamily, FeedPlugin[]>();
  const rangeKeys = new Set<string>();
  const channels = new Map<string, number>();
  const categories = new Set<string>();
  for (const plugin of plugins) {
    const list = byFamily.get(plugin.family);
    if (list) list.push(plugin);
    else byFamily.set(plugin.family, [plugin]);
    categories.add(plugin.category);
    for (const version of plugin.versions) {
      rangeKeys.add(version.sinceKey);
      if (version.untilKey !== null) rangeKeys.add(version.untilKey);
      if (!channels.has(version.channel)) channels.set(version.channel, channels.size);
    }
  }
  const ranges = [...rangeKeys]
    .map((key) => ({ key, components: components(key) }))
    .sort((a, b) => compareBuildComponents(a.components, b.components));
  const rangePosition = new Map(ranges.map((range, position) => [range.key, position]));
  // Categories in locale order, once: names that compare equal share a place, as they would in a sort.
  const sortedCategories = [...categories].sort((a, b) => a.localeCompare(b));
  const categoryPlace = new Map<string, number>();
  sortedCategories.forEach((category, position) => {
    const previous = sortedCategories[position - 1];
    const same = previous !== undefined && previous.localeCompare(category) === 0;
    categoryPlace.set(category, same ? categoryPlace.get(previous)! : position);
  });

  const families = new Map<ProductFamily, FamilyIndex>();
  for (const [familyName, list] of byFamily) {
    list.sort((a, b) => categoryPlace.get(a.category)! - categoryPlace.get(b.category)! || a.id - b.id);
    let count = 0;
    for (const plugin of list) count += plugin.versions.length;
    const family: FamilyIndex = {
      plugins: list,
      firstVersion: new Int32Array(list.length + 1),
      versions: new Array<FeedVersion>(count),
      channel: new Int32Array(count),
      since: new Int32Array(count),
      until: new Int32Array(count),
      runsOn: new Map(),
    };
    let at = 0;
    list.forEach((plugin, position) => {
      family.firstVersion[position] = at;
      for (const version of plugin.versions) {
        family.versions[at] = version;
        family.channel[at] = channels.get(version.channel)!;
        family.since[at] = rangePosition.get(version.sinceKey)!;
        family.until[at] = version.untilKey === null ? NO_UNTIL : rangePosition.get(version.untilKey)!;
        at++;
      }
    });
    family.firstVersion[list.length] = at;
    families.set(familyName, family);
  }
  return { families, bounds: ranges.map((range) => range.components), channels };
}

/** Which of a family's plugins run on a product: those that name no products, and those that name it. */
function runsOnProduct(family: FamilyIndex, productKey: string): Uint8Array {
  let runs = family.runsOn.get(productKey);
  if (!runs) {
    runs = new Uint8Array(family.plugins.length);
    family.plugins.forEach((plugin, position) => {
      if (plugin.products.length === 0 || plugin.products.includes(productKey)) runs![position] = 1;
    });
    family.runsOn.set(productKey, runs);
  }
  return runs;
}

/**
 * The version's element for the plugin's current numbers (kept until the numbers change); one made now is
 * added to `made`, to be packed.
 */
function liveItem(plugin: FeedPlugin, version: FeedVersion, made: FeedItem[]): FeedItem {
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
    pluginId: plugin.id,
    version,
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
  made.push(version.live);
  return version.live;
}
