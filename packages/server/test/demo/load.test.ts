import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { CURRENCIES, offersConflict, percentOf, THEME_TAG_ID } from '@marketplace/core';
import { asc, eq, sql } from 'drizzle-orm';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadPriceLists } from '../../src/commerce/pricing';
import { salesAnalytics } from '../../src/commerce/sales';
import { openDatabase, type Database } from '../../src/db/client';
import {
  downloadCounts,
  featuredItems,
  featuredPlugins,
  plugins,
  pluginDevelopers,
  pluginDocumentationTabs,
  pluginScreenshots,
  pluginTags,
  pluginThemes,
  pluginVersions,
  reviews,
  users,
  vendors,
} from '../../src/db/schema';
import { DemoCatalogueError, loadDemoCatalogue, type LoadDemoCatalogueResult } from '../../src/demo';
import { createFileStore, type DiskFileStore } from '../../src/storage';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../db/test-database';
import { readZipEntries } from './zip-entries';

// Loading a catalogue (archives, icons, a year of counters) takes seconds on a busy machine.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const PLUGIN_COUNT = 60;
const today = new Date('2026-11-21T00:00:00Z');
const fingerprints = new Map<string, string>();

describe.each(DATABASE_KINDS)('the demo catalogue loaded into %s', (kind) => {
  let testDatabase: TestDatabase;
  let db: Database;
  let directory: string;
  let fileStore: DiskFileStore;
  let loaded: LoadDemoCatalogueResult;

  beforeAll(async () => {
    testDatabase = await createTestDatabase({ kind });
    db = testDatabase.database.db;
    directory = await mkdtemp(join(tmpdir(), 'mp-demo-'));
    fileStore = createFileStore(directory);
    loaded = await loadDemoCatalogue(testDatabase.database, fileStore, {
      plugins: PLUGIN_COUNT,
      seed: 11,
      today,
    });
  });
  afterAll(async () => {
    await testDatabase?.dispose();
    await rm(directory, { recursive: true, force: true });
  });

  it('reports what it loaded, and the rows are there', async () => {
    const [counted] = await db
      .select({
        plugins: sql<number>`(SELECT count(*)::int FROM plugins)`,
        versions: sql<number>`(SELECT count(*)::int FROM plugin_versions)`,
        reviews: sql<number>`(SELECT count(*)::int FROM reviews)`,
        counters: sql<number>`(SELECT count(*)::int FROM download_counts)`,
        users: sql<number>`(SELECT count(*)::int FROM users)`,
      })
      .from(sql`(SELECT 1) AS one`);
    expect(counted).toEqual({
      plugins: PLUGIN_COUNT,
      versions: loaded.versions,
      reviews: loaded.reviews,
      counters: loaded.downloadCounters,
      users: loaded.users,
    });
    expect(loaded.reviews).toBeGreaterThan(0);
  });

  it('stores a valid archive for every version whose plugin.xml matches the row', async () => {
    const rows = await db
      .select({ version: pluginVersions, plugin: plugins, vendor: vendors })
      .from(pluginVersions)
      .innerJoin(plugins, eq(plugins.id, pluginVersions.pluginId))
      .innerJoin(vendors, eq(vendors.id, plugins.vendorId))
      .orderBy(asc(pluginVersions.id));
    expect(rows.length).toBe(loaded.versions);
    const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', processEntities: true });
    for (const { version, plugin, vendor } of rows) {
      const opened = await fileStore.open(version.fileHash);
      expect(opened, `archive of version ${version.id}`).toBeDefined();
      const archive = await buffer(opened!.stream);
      expect(archive.length).toBe(version.fileSize);
      expect(createHash('sha256').update(archive).digest('hex')).toBe(version.fileHash);
      let entries = await readZipEntries(archive);
      if (version.fileName.endsWith('.zip')) {
        const slug = version.fileName.slice(0, -`-${version.version}.zip`.length);
        const inner = `${slug}/lib/${slug}.jar`;
        expect([...entries.keys()], `${version.fileName} holds <name>/lib/<name>.jar`).toEqual([inner]);
        entries = await readZipEntries(entries.get(inner)!);
      } else {
        expect(version.fileName.endsWith('.jar')).toBe(true);
      }
      const xml = entries.get('META-INF/plugin.xml');
      expect(xml, `plugin.xml of ${version.fileName}`).toBeDefined();
      const descriptor = parser.parse(xml!.toString('utf8'))['idea-plugin'];
      expect(descriptor.id).toBe(plugin.xmlId);
      expect(descriptor.name).toBe(plugin.name);
      expect(String(descriptor.version)).toBe(version.version);
      expect(descriptor.vendor['#text']).toBe(vendor.name);
      expect(descriptor.vendor.email).toBe(vendor.email);
      expect(descriptor.vendor.url).toBe(vendor.url);
      expect(descriptor.description).toBe(plugin.description);
      expect(descriptor['change-notes']).toBe(version.notes);
      expect(String(descriptor['idea-version']['since-build'])).toBe(version.sinceBuild);
      expect(descriptor['idea-version']['until-build']).toBe(version.untilBuild ?? undefined);
      const product = descriptor['product-descriptor'];
      expect(product === undefined, `product descriptor of ${version.fileName}`).toBe(
        plugin.pricingModel === 'FREE',
      );
      expect(version.productCode === null).toBe(plugin.pricingModel === 'FREE');
      if (product) {
        expect(product.code).toBe(version.productCode);
        expect(product['release-date']).toBe(version.productReleaseDate?.replaceAll('-', ''));
        expect(Number(product['release-version'])).toBe(version.productReleaseVersion);
        expect(product.optional === 'true').toBe(plugin.pricingModel === 'FREEMIUM');
      }
    }
  });

  it('keeps totals consistent: plugin downloads, version downloads, daily counters and ratings', async () => {
    const mismatches = await db.execute<{ id: number }>(sql`
      SELECT p.id FROM plugins p
      LEFT JOIN (SELECT plugin_id, sum(downloads) AS total FROM plugin_versions GROUP BY plugin_id) v
        ON v.plugin_id = p.id
      LEFT JOIN (SELECT plugin_id, count(*) AS count, sum(rating) AS total FROM reviews GROUP BY plugin_id) r
        ON r.plugin_id = p.id
      WHERE p.downloads <> coalesce(v.total, 0)
         OR p.rating_count <> coalesce(r.count, 0) OR p.rating_total <> coalesce(r.total, 0)`);
    expect(mismatches.rows).toEqual([]);
    const overCounted = await db.execute<{ id: number }>(sql`
      SELECT v.id FROM plugin_versions v
      JOIN (SELECT version_id, sum(count) AS total FROM download_counts GROUP BY version_id) d
        ON d.version_id = v.id
      WHERE d.total > v.downloads`);
    expect(overCounted.rows).toEqual([]);
    const [range] = await db
      .select({
        first: sql<string>`min(${downloadCounts.day})::text`,
        last: sql<string>`max(${downloadCounts.day})::text`,
      })
      .from(downloadCounts);
    expect(range).toEqual({ first: '2025-11-22', last: '2026-11-21' });
  });

  it('has the demo accounts without passwords, and the developer manages their items', async () => {
    const accounts = await db
      .select({ login: users.login, isAdmin: users.isAdmin, passwordHash: users.passwordHash })
      .from(users)
      .where(sql`${users.login} IN ('admin', 'developer', 'visitor')`)
      .orderBy(users.id);
    expect(accounts).toEqual([
      { login: 'admin', isAdmin: true, passwordHash: null },
      { login: 'developer', isAdmin: false, passwordHash: null },
      { login: 'visitor', isAdmin: false, passwordHash: null },
    ]);
    const managed = await db
      .select({ pluginId: pluginDevelopers.pluginId })
      .from(pluginDevelopers)
      .innerJoin(users, eq(users.id, pluginDevelopers.userId))
      .where(eq(users.login, 'developer'));
    expect(managed.length).toBeGreaterThan(0);
    // New rows after the demo ones get fresh ids.
    const [created] = await db
      .insert(users)
      .values({ login: 'someone-new', name: 'Someone New' })
      .returning();
    expect(created!.id).toBe(loaded.users + 1);
    await db.delete(users).where(eq(users.id, created!.id));
  });

  it('marks themes with tag 164 and their colour schemes, and features items per product', async () => {
    const themes = await db
      .select({ dark: pluginThemes.dark })
      .from(pluginThemes)
      .innerJoin(pluginTags, eq(pluginTags.pluginId, pluginThemes.pluginId))
      .where(eq(pluginTags.tagId, THEME_TAG_ID));
    expect(themes.length).toBeGreaterThan(0);
    const featured = await db.select().from(featuredPlugins);
    expect(new Set(featured.map((row) => row.product)).has('IDEA')).toBe(true);
    const homePicks = await db.select().from(featuredItems).where(eq(featuredItems.family, 'intellij'));
    expect(homePicks.map((row) => row.position).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('stores every file a row refers to', async () => {
    const hashes = await db.execute<{ hash: string }>(sql`
      SELECT icon_hash AS hash FROM plugins WHERE icon_hash IS NOT NULL
      UNION SELECT file_hash FROM ${pluginScreenshots}
      UNION SELECT content_hash FROM ${pluginDocumentationTabs}
      UNION SELECT file_hash FROM ${pluginVersions}`);
    const stored = new Set<string>();
    for await (const hash of fileStore.list()) stored.add(hash);
    expect(hashes.rows.filter((row) => !stored.has(row.hash))).toEqual([]);
    expect(stored.size).toBe(loaded.files);
  });

  it('refuses to load into a database that already has a catalogue, changing nothing', async () => {
    const before = await db.select({ count: sql<number>`count(*)::int` }).from(reviews);
    await expect(
      loadDemoCatalogue(testDatabase.database, fileStore, { plugins: 5, today }),
    ).rejects.toBeInstanceOf(DemoCatalogueError);
    expect(await db.select({ count: sql<number>`count(*)::int` }).from(reviews)).toEqual(before);
  });

  it('sells its paid and freemium items: approved sellers, prices, offers with coupons, trials, orders', async () => {
    const priced = await db
      .select({ id: plugins.id, vendorId: plugins.vendorId, pricingModel: plugins.pricingModel })
      .from(plugins)
      .where(sql`${plugins.pricingModel} <> 'FREE'`);
    expect(priced.length).toBeGreaterThan(0);
    const approved = await db.execute<{ vendor_id: number }>(
      sql`SELECT vendor_id FROM sellers WHERE status = 'APPROVED'`,
    );
    const approvedVendors = new Set(approved.rows.map((row) => row.vendor_id));
    const nextMonth = new Date(today.getTime() + 30 * 86_400_000);
    for (const item of priced) {
      expect(approvedVendors.has(item.vendorId!), `seller of item ${item.id}`).toBe(true);
      const lists = await loadPriceLists(db, item.id, today);
      expect(lists.current.length, `current prices of item ${item.id}`).toBeGreaterThanOrEqual(2);
      for (const price of lists.current) expect(price.amountMinor).toBeGreaterThan(0);
      const personalYearly = lists.current.find(
        (price) => price.licenseKind === 'PERSONAL' && price.billingPeriod === 'YEARLY',
      )!;
      expect(personalYearly.amountMinor).toBeGreaterThanOrEqual(2900);
      expect(personalYearly.amountMinor).toBeLessThanOrEqual(29_900);
      expect((await loadPriceLists(db, item.id, nextMonth)).current.length).toBeGreaterThanOrEqual(2);
      // Offers of one item never conflict (core's rule, as creating one through the API checks).
      const itemOffers = await db.execute<{ valid_from: Date; valid_until: Date; license_kinds: string[] }>(
        sql`SELECT valid_from, valid_until, license_kinds FROM offers WHERE plugin_id = ${item.id}`,
      );
      const windows = itemOffers.rows.map((row) => ({
        validFrom: new Date(row.valid_from),
        validUntil: new Date(row.valid_until),
        licenseKinds: row.license_kinds,
      }));
      windows.forEach((a, index) =>
        windows.slice(index + 1).forEach((b) => expect(offersConflict(a, b)).toBe(false)),
      );
    }
    const [coupons] = (
      await db.execute<{ total: number; sent: number; used: number }>(
        sql`SELECT count(*)::int AS total, count(sent_at)::int AS sent, count(*) FILTER (WHERE uses > 0)::int AS used
          FROM coupons`,
      )
    ).rows;
    expect(coupons!.total).toBeGreaterThan(0);
    expect(coupons!.sent).toBeGreaterThan(0);
    expect(coupons!.used).toBeGreaterThan(0);
    expect(coupons!.sent).toBeLessThan(coupons!.total);
    const [trials] = (
      await db.execute<{ total: number; converted: number }>(
        sql`SELECT count(*)::int AS total, count(*) FILTER (WHERE EXISTS (SELECT 1 FROM orders o
            WHERE o.plugin_id = t.plugin_id AND o.buyer_id = t.user_id AND o.status = 'PAID'
              AND o.created_at >= t.started_at))::int AS converted
          FROM trials t`,
      )
    ).rows;
    expect(trials!.converted).toBeGreaterThan(0);
    expect(trials!.converted).toBeLessThan(trials!.total / 2);
    // Every paid order has its paid invoice and its sale; the visitor has orders but no licence.
    const unmatched = await db.execute(
      sql`SELECT o.id FROM orders o LEFT JOIN invoices i ON i.order_id = o.id LEFT JOIN sales s ON s.order_id = o.id
        WHERE i.id IS NULL OR (o.status = 'PAID') <> (i.status = 'PAID') OR (o.status = 'PAID') <> (s.id IS NOT NULL)
          OR i.amount_minor <> o.total_minor`,
    );
    expect(unmatched.rows).toEqual([]);
    const visitorOrders = await db.execute<{ status: string }>(
      sql`SELECT status FROM orders WHERE buyer_id = 3 ORDER BY id`,
    );
    expect(visitorOrders.rows.map((row) => row.status).sort()).toEqual(['AWAITING_PAYMENT', 'CANCELLED']);
    const [licences] = (await db.execute<{ count: number }>(sql`SELECT count(*)::int AS count FROM licenses`))
      .rows;
    expect(licences!.count).toBe(0);
  });

  it('has statistics roll-ups that agree with the public daily downloads, days before today only', async () => {
    const rows = await db.execute<{
      disagreeing: number;
      days: number;
      products: number;
      countries: number;
    }>(sql`
      SELECT
        (SELECT count(*)::int FROM (
          SELECT plugin_id, day, sum(count) AS downloads FROM download_counts WHERE day < ${today} GROUP BY 1, 2
        ) counted FULL JOIN (
          SELECT plugin_id, day, downloads FROM insight_daily_by_dimension WHERE dimension = 'total'
        ) rolled USING (plugin_id, day)
        WHERE counted.downloads IS DISTINCT FROM rolled.downloads) AS disagreeing,
        (SELECT count(DISTINCT day)::int FROM insight_daily_by_dimension) AS days,
        (SELECT count(DISTINCT value)::int FROM insight_daily_by_dimension WHERE dimension = 'product') AS products,
        (SELECT count(DISTINCT value)::int FROM insight_daily_by_dimension WHERE dimension = 'country') AS countries`);
    const [facts] = rows.rows;
    expect(facts).toMatchObject({ disagreeing: 0 });
    expect(facts!.days).toBeGreaterThan(300);
    expect(facts!.products).toBeGreaterThan(5);
    expect(facts!.countries).toBeGreaterThan(10);
    const latest = await db.execute<{ day: string }>(
      sql`SELECT max(day)::text AS day FROM insight_daily_by_dimension`,
    );
    expect(latest.rows[0]!.day < today.toISOString().slice(0, 10)).toBe(true);
  });

  it('has two years of sales with a seasonal shape, each one with its money adding up', async () => {
    const rows = await db.execute<{
      plugin_id: number;
      sold_at: Date;
      gross_minor: string | number;
      discount_minor: string | number;
      commission_minor: string | number;
      net_minor: string | number;
    }>(sql`SELECT plugin_id, sold_at, gross_minor, discount_minor, commission_minor, net_minor FROM sales`);
    expect(rows.rows.length).toBe(loaded.commerce.sales);
    const byMonth = new Map<number, number>();
    let first = Infinity;
    let last = -Infinity;
    for (const row of rows.rows) {
      const [gross, discount, commission, net] = [
        row.gross_minor,
        row.discount_minor,
        row.commission_minor,
        row.net_minor,
      ].map(Number) as [number, number, number, number];
      expect(gross - discount).toBe(commission + net);
      expect(commission).toBe(percentOf(gross - discount, 15));
      const soldAt = new Date(row.sold_at);
      byMonth.set(soldAt.getUTCMonth(), (byMonth.get(soldAt.getUTCMonth()) ?? 0) + 1);
      first = Math.min(first, soldAt.getTime());
      last = Math.max(last, soldAt.getTime());
    }
    // Two years, up to the day before the seed date.
    expect((today.getTime() - first) / 86_400_000).toBeGreaterThan(700);
    expect(last).toBeLessThan(today.getTime());
    expect((today.getTime() - last) / 86_400_000).toBeLessThan(7);
    const perMonth = Array.from({ length: 12 }, (_, month) => byMonth.get(month) ?? 0);
    expect(Math.min(...perMonth)).toBeGreaterThan(0);
    expect(Math.max(...perMonth)).toBeGreaterThan(Math.min(...perMonth) * 1.3);

    // The sales tab's analytics of the best-selling item add up to its rows.
    const [best] = (
      await db.execute<{ plugin_id: number }>(
        sql`SELECT plugin_id FROM sales GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`,
      )
    ).rows;
    const analytics = await salesAnalytics(
      db,
      best!.plugin_id,
      { startDate: '2024-10-01', endDate: '2026-11-20' },
      CURRENCIES.USD!,
    );
    expect(analytics.months).toHaveLength(26);
    const countries = await db.execute<{ country_code: string; sales: number; net: string }>(
      sql`SELECT country_code, count(*)::int AS sales, sum(net_minor) AS net FROM sales
        WHERE plugin_id = ${best!.plugin_id} GROUP BY 1 ORDER BY 3 DESC, 1 LIMIT 20`,
    );
    expect(analytics.countries).toEqual(
      countries.rows.map((row) => ({
        countryCode: row.country_code,
        sales: row.sales,
        netMinor: Number(row.net),
      })),
    );
    const itemRows = rows.rows.filter((row) => row.plugin_id === best!.plugin_id);
    expect(analytics.months.reduce((sum, month) => sum + month.sales, 0)).toBe(itemRows.length);
    expect(analytics.months.reduce((sum, month) => sum + month.netMinor, 0)).toBe(
      itemRows.reduce((sum, row) => sum + Number(row.net_minor), 0),
    );
    expect(analytics.trialConversionPercent).toBeGreaterThan(0);
  });

  it('gives the same catalogue as every other load with the same seed', async () => {
    const fingerprint = await catalogueFingerprint(db);
    for (const other of fingerprints.values()) expect(fingerprint).toBe(other);
    fingerprints.set(kind, fingerprint);
  });
});

/**
 * A digest of the catalogue's rows in a fixed order, to compare loads across runs and engines. Rows are
 * turned into text by the database and times into epoch milliseconds, so driver conventions do not matter.
 */
async function catalogueFingerprint(db: Database): Promise<string> {
  const hash = createHash('sha256');
  const epoch = (column: string) => `(extract(epoch FROM ${column}) * 1000)::bigint`;
  for (const query of [
    `SELECT id, family, xml_id, name, description, downloads, rating_count, rating_total, lifecycle_state,
            approved, block_state, hidden, ${epoch('created_at')}, ${epoch('last_updated_at')}, icon_hash
     FROM plugins ORDER BY id`,
    `SELECT id, plugin_id, version, channel, since_build, until_build, file_hash, downloads, ${epoch('created_at')}
     FROM plugin_versions ORDER BY id`,
    `SELECT id, plugin_id, author_id, rating, text, ${epoch('created_at')} FROM reviews ORDER BY id`,
    `SELECT plugin_id, version_id, day::text, count FROM download_counts ORDER BY plugin_id, day, version_id`,
    `SELECT product, plugin_id, position FROM featured_plugins ORDER BY product, position`,
    `SELECT id, login, name FROM users WHERE login <> 'someone-new' ORDER BY id`,
    `SELECT vendor_id, status, legal_name, country_code, address, tax_id, payout_details FROM sellers ORDER BY 1`,
    `SELECT l.id, l.plugin_id, ${epoch('l.effective_at')}, p.license_kind, p.billing_period, p.amount_minor
     FROM plugin_price_lists l JOIN plugin_prices p ON p.price_list_id = l.id ORDER BY 1, 4, 5`,
    `SELECT plugin_id, trial_days, monthly_enabled, continuity_customized FROM plugin_selling_terms ORDER BY 1`,
    `SELECT id, plugin_id, name, discount_value, ${epoch('valid_from')}, license_kinds FROM offers ORDER BY id`,
    `SELECT id, offer_id, code, uses, sent_to FROM coupons ORDER BY id`,
    `SELECT id, plugin_id, user_id, ${epoch('started_at')} FROM trials ORDER BY id`,
    `SELECT id, buyer_id, plugin_id, total_minor, status, lines::text FROM orders ORDER BY id`,
    `SELECT id, plugin_id, order_id, ${epoch('sold_at')}, quantity, country_code, gross_minor, discount_minor,
            net_minor, after_trial FROM sales ORDER BY id`,
    `SELECT id, product_code, product_release_date::text, product_release_version FROM plugin_versions ORDER BY id`,
  ]) {
    const result = await db.execute<{ row: string }>(sql.raw(`SELECT q::text AS row FROM (${query}) q`));
    for (const { row } of result.rows) hash.update(row).update('\n');
  }
  return hash.digest('hex');
}

describe.each(DATABASE_KINDS)('two demo loads at once on %s', (kind) => {
  it('load the catalogue once; the other is told the database is not empty', async () => {
    const testDatabase = await createTestDatabase({ kind });
    const directory = await mkdtemp(join(tmpdir(), 'mp-demo-'));
    const other = testDatabase.databaseUrl
      ? await openDatabase({ databaseUrl: testDatabase.databaseUrl, dataDir: '' })
      : testDatabase.database;
    try {
      const fileStore = createFileStore(directory);
      const outcomes = await Promise.allSettled([
        loadDemoCatalogue(testDatabase.database, fileStore, { plugins: 4, today }),
        loadDemoCatalogue(other, fileStore, { plugins: 4, today }),
      ]);
      expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
      const failure = outcomes.find((outcome) => outcome.status === 'rejected');
      expect(failure?.reason).toBeInstanceOf(DemoCatalogueError);
      const [row] = await testDatabase.database.db
        .select({ count: sql<number>`count(*)::int` })
        .from(plugins);
      expect(row?.count).toBe(4);
    } finally {
      if (other !== testDatabase.database) await other.close();
      await testDatabase.dispose();
      await rm(directory, { recursive: true, force: true });
    }
  });
});
