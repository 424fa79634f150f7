import { sql } from 'drizzle-orm';
import { buildBoundColumns } from '../db/catalogue-queries';
import type { DatabaseConnection, Queryable } from '../db/client';
import {
  pluginBundles,
  pluginCompatibleProducts,
  pluginDevelopers,
  pluginDocumentationTabs,
  pluginLinks,
  plugins,
  pluginScreenshots,
  pluginTags,
  pluginThemes,
  pluginVersions,
  reviewCategoryRatings,
  reviewReplies,
  reviews,
  tags,
  users,
  vendors,
} from '../db/schema';
import type { FileStore } from '../storage';
import { buildPluginArchive } from './archive';
import { generateItemSales } from './commerce';
import { DemoCommerceWriter, type DemoCommerceCounts } from './commerce-load';
import { writeDemoExceptions } from './exceptions';
import { writeDemoFeatures } from './features';
import { writeDemoInsight } from './insight';
import {
  DEMO_ACCOUNTS,
  generateDemoCatalogue,
  type DemoCatalogueOptions,
  type DemoPlugin,
  type DemoVendor,
} from './generate';
import { pluginIconSvg, screenshotSvg } from './images';
import { arrayLiteral, insertInChunks } from './rows';

export interface LoadDemoCatalogueOptions extends DemoCatalogueOptions {
  /** Items generated, stored and inserted together (default 250). */
  batchSize?: number;
  /** Files written to the store at once (default 16). */
  fileConcurrency?: number;
  /** Called after each batch with the number of items loaded so far. */
  onProgress?: (loaded: number, total: number) => void;
  /** Aborted (the server stopping): the load stops at its next file or batch, and its transaction rolls back. */
  signal?: AbortSignal;
}

export interface LoadDemoCatalogueResult {
  users: number;
  vendors: number;
  plugins: number;
  versions: number;
  reviews: number;
  downloadCounters: number;
  files: number;
  /** Sellers, priced items, offers, coupons, trials, orders and sales. */
  commerce: DemoCommerceCounts;
}

/** Any fixed number other than the migrator's. */
const DEMO_LOAD_LOCK_KEY = 7_214_530_002;

export class DemoCatalogueError extends Error {
  override name = 'DemoCatalogueError';
}

/** True when no user, vendor or plugin exists yet: the moment a demo catalogue may be loaded. */
export async function isCatalogueEmpty(db: Queryable): Promise<boolean> {
  const result = await db.execute<{ occupied: boolean }>(
    sql`SELECT EXISTS (SELECT 1 FROM plugins) OR EXISTS (SELECT 1 FROM users) OR EXISTS (SELECT 1 FROM vendors) AS occupied`,
  );
  return result.rows[0]?.occupied === false;
}

/**
 * Fills an empty database with the deterministic demo catalogue and stores every file it refers to (plugin
 * archives, icons, screenshots, documentation) in the file store. All rows go in one transaction: a failed
 * load leaves the database empty, so the next start simply tries again.
 */
export async function loadDemoCatalogue(
  database: DatabaseConnection,
  fileStore: FileStore,
  options: LoadDemoCatalogueOptions = {},
): Promise<LoadDemoCatalogueResult> {
  const catalogue = generateDemoCatalogue(options);
  const batchSize = options.batchSize ?? 250;
  const fileConcurrency = options.fileConcurrency ?? 16;
  const vendorsById = new Map(catalogue.vendors.map((vendor) => [vendor.id, vendor]));
  const result: LoadDemoCatalogueResult = {
    users: catalogue.users.length,
    vendors: catalogue.vendors.length,
    plugins: 0,
    versions: 0,
    reviews: 0,
    downloadCounters: 0,
    files: 0,
    commerce: {
      sellers: 0,
      pricedItems: 0,
      priceLists: 0,
      offers: 0,
      coupons: 0,
      trials: 0,
      orders: 0,
      sales: 0,
    },
  };
  const storedHashes = new Set<string>();

  await database.db.transaction(async (tx) => {
    // Two servers starting on one empty database take turns; the second then finds it full.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${DEMO_LOAD_LOCK_KEY})`);
    if (!(await isCatalogueEmpty(tx))) {
      throw new DemoCatalogueError(
        'The database already holds users, vendors or plugins; the demo catalogue is only loaded into an empty one.',
      );
    }
    await insertInChunks(
      tx,
      users,
      catalogue.users.map((user) => ({
        id: user.id,
        login: user.login,
        name: user.name,
        email: user.email,
        emailVerified: user.emailVerified,
        isAdmin: user.isAdmin,
        createdAt: user.createdAt,
      })),
    );
    await insertInChunks(
      tx,
      vendors,
      catalogue.vendors.map(({ domain: _domain, ...vendor }) => vendor),
    );
    await insertInChunks(tx, tags, [...catalogue.tags]);
    const commerce = await DemoCommerceWriter.start(tx);

    // A pipeline of two: the files of one batch are built and stored while the rows of the previous batch
    // are inserted, so the database and this process work at the same time.
    type Prepared = { batch: DemoPlugin[]; files: Promise<StoredBatchFiles> };
    const prepare = (batch: DemoPlugin[]): Prepared => {
      const files = storeFiles(fileStore, batch, vendorsById, fileConcurrency, options.signal).then(
        async (stored) => {
          // Rows may refer to files only once the files are durable and visible under their hashes.
          await fileStore.flush();
          return stored;
        },
      );
      // Awaited below; this only keeps a failure from counting as unhandled while the other batch inserts.
      files.catch(() => undefined);
      return { batch, files };
    };
    const insertPrepared = async ({ batch, files }: Prepared) => {
      const stored = await files;
      options.signal?.throwIfAborted();
      for (const hash of stored.hashes) storedHashes.add(hash);
      await insertBatch(tx, batch, stored);
      const priced = batch.flatMap((plugin) => (plugin.commerce ? [plugin.commerce] : []));
      await commerce.writeItems(tx, priced, (item) =>
        generateItemSales(item, item.expectedSales, catalogue.seed),
      );
      result.plugins += batch.length;
      result.versions += batch.reduce((sum, plugin) => sum + plugin.versions.length, 0);
      result.reviews += batch.reduce((sum, plugin) => sum + plugin.reviews.length, 0);
      result.downloadCounters += batch.reduce((sum, plugin) => sum + plugin.dailyDownloads.counts.length, 0);
      options.onProgress?.(result.plugins, catalogue.pluginCount);
    };
    let previous: Prepared | undefined;
    let batch: DemoPlugin[] = [];
    try {
      for (const plugin of catalogue.plugins()) {
        batch.push(plugin);
        if (batch.length < batchSize) continue;
        const current = prepare(batch);
        batch = [];
        if (previous) await insertPrepared(previous);
        previous = current;
      }
      const last = batch.length > 0 ? prepare(batch) : undefined;
      if (previous) await insertPrepared(previous);
      previous = last;
      if (last) await insertPrepared(last);
    } catch (error) {
      // Let the files being written finish before the error leaves (nothing refers to them).
      await previous?.files.catch(() => undefined);
      throw error;
    }
    options.signal?.throwIfAborted();

    await commerce.finish(tx, {
      seed: catalogue.seed,
      today: catalogue.today,
      vendors: catalogue.vendors,
      visitor: { id: DEMO_ACCOUNTS.visitor.id, name: DEMO_ACCOUNTS.visitor.name },
    });
    result.commerce = commerce.counts;
    await writeDemoInsight(tx, catalogue.today);
    await writeDemoExceptions(tx, catalogue.today, catalogue.seed);
    await writeDemoFeatures(tx);

    await tx.execute(sql`
      INSERT INTO featured_plugins (product, plugin_id, position)
      SELECT product, plugin_id, position FROM (
        SELECT cp.product, cp.plugin_id,
               row_number() OVER (PARTITION BY cp.product
                                  ORDER BY p.rating_mean * ln(p.downloads + 2) DESC, p.id) AS position
        FROM plugin_compatible_products cp JOIN plugins p ON p.id = cp.plugin_id
        WHERE p.listed
      ) ranked
      WHERE position <= 8`);
    // The home page's picks (admin/featured): the six best of each family, as an administrator might choose.
    await tx.execute(sql`
      INSERT INTO featured_items (family, plugin_id, position)
      SELECT family, id, position - 1 FROM (
        SELECT p.family, p.id,
               row_number() OVER (PARTITION BY p.family
                                  ORDER BY p.rating_mean * ln(p.downloads + 2) DESC, p.id) AS position
        FROM plugins p WHERE p.listed
      ) ranked
      WHERE position <= 6`);
    // Rows above were given their ids; the sequences continue after them.
    for (const table of ['users', 'vendors', 'tags', 'plugins', 'plugin_versions', 'reviews']) {
      await tx.execute(
        sql.raw(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM ${table}))`),
      );
    }
  });
  result.files = storedHashes.size;
  return result;
}

interface StoredBatchFiles {
  hashes: Set<string>;
  icons: Map<number, string>;
  screenshots: Map<number, string[]>;
  documentation: Map<number, string[]>;
  archives: Map<number, { hash: string; size: number }>;
}

async function storeFiles(
  fileStore: FileStore,
  batch: DemoPlugin[],
  vendorsById: Map<number, DemoVendor>,
  concurrency: number,
  signal: AbortSignal | undefined,
): Promise<StoredBatchFiles> {
  const stored: StoredBatchFiles = {
    hashes: new Set(),
    icons: new Map(),
    screenshots: new Map(),
    documentation: new Map(),
    archives: new Map(),
  };
  const jobs: Array<() => Promise<void>> = [];
  const put = async (content: Buffer) => {
    const file = await fileStore.put(content);
    stored.hashes.add(file.hash);
    return file;
  };
  for (const plugin of batch) {
    const vendor = vendorsById.get(plugin.vendorId) as DemoVendor;
    jobs.push(async () => {
      stored.icons.set(plugin.id, (await put(Buffer.from(pluginIconSvg(plugin)))).hash);
    });
    const screenshotHashes: string[] = [];
    stored.screenshots.set(plugin.id, screenshotHashes);
    plugin.screenshots.forEach((screenshot, index) =>
      jobs.push(async () => {
        screenshotHashes[index] = (
          await put(Buffer.from(screenshotSvg(plugin, screenshot.title, screenshot.dark)))
        ).hash;
      }),
    );
    const documentHashes: string[] = [];
    stored.documentation.set(plugin.id, documentHashes);
    plugin.documentationTabs.forEach((tab, index) =>
      jobs.push(async () => {
        documentHashes[index] = (await put(Buffer.from(tab.html))).hash;
      }),
    );
    for (const version of plugin.versions) {
      jobs.push(async () => {
        stored.archives.set(version.id, await put(await buildPluginArchive(plugin, vendor, version)));
      });
    }
  }
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      signal?.throwIfAborted();
      const job = jobs[next++] as () => Promise<void>;
      await job();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  return stored;
}

async function insertBatch(tx: Queryable, batch: DemoPlugin[], files: StoredBatchFiles): Promise<void> {
  // Tags first (their plugin key is checked at the end of the batch): each plugin's search vector is then
  // computed once, on insert, with its tags, instead of once more for every tag.
  await tx.execute(sql`SET CONSTRAINTS plugin_tags_plugin_id_fkey DEFERRED`);
  await insertInChunks(
    tx,
    pluginTags,
    batch.flatMap((plugin) => plugin.tagIds.map((tagId) => ({ pluginId: plugin.id, tagId }))),
  );
  await insertInChunks(
    tx,
    plugins,
    batch.map((plugin) => ({
      id: plugin.id,
      family: plugin.family,
      xmlId: plugin.xmlId,
      name: plugin.name,
      description: plugin.description,
      preview: plugin.preview,
      email: plugin.email,
      copyright: plugin.copyright,
      iconHash: files.icons.get(plugin.id) ?? null,
      pricingModel: plugin.pricingModel,
      isMonetizationAvailable: plugin.pricingModel !== 'FREE',
      vendorId: plugin.vendorId,
      ownerId: plugin.ownerId,
      language: plugin.language,
      programmingLanguage: plugin.programmingLanguage,
      url: plugin.url,
      bugtrackerUrl: plugin.bugtrackerUrl,
      forumUrl: plugin.forumUrl,
      licenseUrl: plugin.licenseUrl,
      sourceCodeUrl: plugin.sourceCodeUrl,
      docUrl: plugin.docUrl,
      privacyPolicyUrl: plugin.privacyPolicyUrl,
      lifecycleState: plugin.lifecycleState,
      approved: plugin.approved,
      blockState: plugin.blockState,
      hidden: plugin.hidden,
      downloads: plugin.versions.reduce((sum, version) => sum + version.downloads, 0),
      createdAt: plugin.createdAt,
      publishedAt: plugin.publishedAt,
      lastUpdatedAt: plugin.lastUpdatedAt,
    })),
  );
  await tx.execute(sql`SET CONSTRAINTS plugin_tags_plugin_id_fkey IMMEDIATE`);
  await insertInChunks(
    tx,
    pluginDevelopers,
    batch.flatMap((plugin) =>
      plugin.developerIds.map((userId) => ({ pluginId: plugin.id, userId, addedAt: plugin.createdAt })),
    ),
  );
  await insertInChunks(
    tx,
    pluginScreenshots,
    batch.flatMap((plugin) =>
      plugin.screenshots.map((_, index) => ({
        pluginId: plugin.id,
        position: index,
        fileHash: files.screenshots.get(plugin.id)?.[index] as string,
        contentType: 'image/svg+xml',
        createdAt: plugin.createdAt,
      })),
    ),
  );
  await insertInChunks(
    tx,
    pluginDocumentationTabs,
    batch.flatMap((plugin) =>
      plugin.documentationTabs.map((tab, index) => ({
        pluginId: plugin.id,
        tabName: tab.tabName,
        urlSuffix: tab.urlSuffix,
        position: index,
        contentHash: files.documentation.get(plugin.id)?.[index] as string,
        generateToc: tab.generateToc,
        createdAt: plugin.createdAt,
        updatedAt: plugin.lastUpdatedAt,
      })),
    ),
  );
  await insertInChunks(
    tx,
    pluginLinks,
    batch.flatMap((plugin) =>
      plugin.links.map((link, index) => ({ pluginId: plugin.id, position: index, ...link })),
    ),
  );
  await insertInChunks(
    tx,
    pluginThemes,
    batch.flatMap((plugin) => plugin.themes.map((theme) => ({ pluginId: plugin.id, ...theme }))),
  );
  await insertInChunks(
    tx,
    pluginCompatibleProducts,
    batch.flatMap((plugin) => plugin.compatibleProducts.map((product) => ({ pluginId: plugin.id, product }))),
  );
  await insertInChunks(
    tx,
    pluginBundles,
    batch.flatMap((plugin) =>
      plugin.bundleMemberIds.map((memberId, index) => ({ bundleId: plugin.id, memberId, position: index })),
    ),
  );
  await insertInChunks(
    tx,
    pluginVersions,
    batch.flatMap((plugin) =>
      plugin.versions.map((version) => {
        const file = files.archives.get(version.id) as { hash: string; size: number };
        return {
          id: version.id,
          pluginId: plugin.id,
          version: version.version,
          channel: version.channel,
          sinceBuild: version.sinceBuild,
          untilBuild: version.untilBuild,
          ...buildBoundColumns(version.sinceBuild, version.untilBuild),
          fileHash: file.hash,
          fileSize: file.size,
          fileName: version.fileName,
          notes: version.notes,
          dependencies: version.dependencies,
          authorId: plugin.ownerId,
          hidden: version.hidden,
          approvalState: version.approvalState,
          downloads: version.downloads,
          createdAt: version.createdAt,
          productCode: version.product?.code ?? null,
          productReleaseDate: version.product?.releaseDate ?? null,
          productReleaseVersion: version.product?.releaseVersion ?? null,
          productOptional: version.product?.optional ?? null,
        };
      }),
    ),
  );
  await insertDownloadCounters(tx, batch);
  const allReviews = batch.flatMap((plugin) => plugin.reviews.map((review) => ({ plugin, review })));
  await insertInChunks(
    tx,
    reviews,
    allReviews.map(({ plugin, review }) => ({
      id: review.id,
      pluginId: plugin.id,
      authorId: review.authorId,
      rating: review.rating,
      text: review.text,
      createdAt: review.createdAt,
      updatedAt: review.createdAt,
    })),
  );
  await insertInChunks(
    tx,
    reviewCategoryRatings,
    allReviews.flatMap(({ review }) => review.categories.map((entry) => ({ reviewId: review.id, ...entry }))),
  );
  await insertInChunks(
    tx,
    reviewReplies,
    allReviews.flatMap(({ review }) =>
      review.reply ? [{ reviewId: review.id, ...review.reply, updatedAt: review.reply.createdAt }] : [],
    ),
  );
}

/** Tens of thousands of counters per batch: sent as four arrays and unnested by the server. */
async function insertDownloadCounters(tx: Queryable, batch: DemoPlugin[]): Promise<void> {
  const chunkSize = 100_000;
  const pluginIds: number[] = [];
  const versionIds: number[] = [];
  const days: string[] = [];
  const counts: number[] = [];
  const send = async () => {
    if (counts.length === 0) return;
    await tx.execute(sql`
      INSERT INTO download_counts (plugin_id, version_id, day, count)
      SELECT * FROM unnest(${arrayLiteral(pluginIds)}::integer[], ${arrayLiteral(versionIds)}::integer[],
                           ${arrayLiteral(days)}::date[], ${arrayLiteral(counts)}::integer[])`);
    pluginIds.length = 0;
    versionIds.length = 0;
    days.length = 0;
    counts.length = 0;
  };
  for (const plugin of batch) {
    const { dailyDownloads } = plugin;
    for (let index = 0; index < dailyDownloads.counts.length; index++) {
      pluginIds.push(plugin.id);
      versionIds.push(dailyDownloads.versionIds[index] as number);
      days.push(dailyDownloads.days[index] as string);
      counts.push(dailyDownloads.counts[index] as number);
    }
    if (counts.length >= chunkSize) await send();
  }
  await send();
}
