import { sql, type SQL } from 'drizzle-orm';
import { openDatabase, type Database } from '../../src/db/client';
import { migrate } from '../../src/db/migrate';
import {
  DEFAULT_DEMO_SEED,
  DEMO_ACCOUNTS,
  DemoCommerceWriter,
  demoProductDescriptors,
  demoReviewerCount,
  generateItemCommerce,
  generateItemSales,
  insertSaleRows,
  type DemoBuyer,
  type DemoItemCommerce,
  type DemoSaleRow,
} from '../../src/demo';
import { BENCH_TODAY } from '../api/seed';

/*
 * The commerce benchmark's data, in the API benchmark's PostgreSQL catalogue: the demo generator's selling
 * set-up for every paid and freemium item (sellers, prices, terms, offers, coupons, trials and their orders),
 * written once, and a history of exactly `sales` sales: a few big items with `bigItemSales` each, the rest
 * spread over the items that sell in proportion to their popularity. Sales are written to a staging table
 * item by item, then moved into `sales` in time order, as a live marketplace appends them; a comment on the
 * table records what it holds, so later runs reuse it.
 */

export interface CommerceSeedOptions {
  databaseUrl: string;
  /** The size of the catalogue (the API benchmark's, 50,000). */
  plugins: number;
  sales: number;
  bigItems: number;
  bigItemSales: number;
  reseed: boolean;
  log: (line: string) => void;
}

export interface CommerceSeed {
  /** The big items, biggest first: the first is the one the benchmark asks about. */
  bigItems: Array<{ id: number; name: string; vendorId: number; sales: number }>;
  sales: number;
  /** Rows of other tables, for the report. */
  counts: Record<string, number>;
  seededNow: boolean;
  seedSeconds: number;
}

interface Marker {
  sales: number;
  bigItems: number;
  bigItemSales: number;
  seed: number;
  today: string;
  chosen: CommerceSeed['bigItems'];
}

const MARKER_PREFIX = 'marketplace commerce benchmark: ';
const COMMERCE_TABLES = [
  'sellers',
  'plugin_selling_terms',
  'plugin_price_lists',
  'plugin_prices',
  'plugin_volume_discounts',
  'plugin_continuity_discounts',
  'plugin_programs',
  'program_applications',
  'offers',
  'coupons',
  'trials',
  'orders',
  'invoices',
  'licenses',
  'sales',
];

async function rows<T>(db: Database, query: SQL): Promise<T[]> {
  return (await db.execute(query)).rows as T[];
}

export async function seedCommerce(options: CommerceSeedOptions): Promise<CommerceSeed> {
  const { log } = options;
  const database = await openDatabase({ databaseUrl: options.databaseUrl, dataDir: '', maxConnections: 2 });
  const db = database.db;
  try {
    const migrated = await migrate(database);
    if (migrated.applied.length > 0) log(`  applied migrations ${migrated.applied.join(', ')}`);
    const wanted = {
      sales: options.sales,
      bigItems: options.bigItems,
      bigItemSales: options.bigItemSales,
      seed: DEFAULT_DEMO_SEED,
      today: BENCH_TODAY.toISOString().slice(0, 10),
    };
    const [comment] = await rows<{ comment: string | null }>(
      db,
      sql`SELECT obj_description('sales'::regclass, 'pg_class') AS comment`,
    );
    const marker = comment?.comment?.startsWith(MARKER_PREFIX)
      ? (JSON.parse(comment.comment.slice(MARKER_PREFIX.length)) as Marker)
      : undefined;
    const matches =
      marker !== undefined &&
      (Object.keys(wanted) as Array<keyof typeof wanted>).every((key) => marker[key] === wanted[key]);
    if (matches && !options.reseed) {
      log(`  reusing the commerce data (${marker.sales} sales, ${marker.bigItems} big items).`);
      return {
        bigItems: marker.chosen,
        sales: marker.sales,
        counts: await countRows(db),
        seededNow: false,
        seedSeconds: 0,
      };
    }

    const started = performance.now();
    if (options.reseed) {
      log('  --reseed: deleting the commerce data...');
      await db.execute(sql.raw(`TRUNCATE ${COMMERCE_TABLES.join(', ')} RESTART IDENTITY CASCADE`));
    }
    const items = await generateSetUp(db, options.plugins);
    const [present] = await rows<{ present: boolean }>(
      db,
      sql`SELECT EXISTS (SELECT 1 FROM plugin_price_lists) AS present`,
    );
    if (present?.present) {
      log(`  the selling set-up of ${items.length} paid and freemium items is there already.`);
    } else {
      log(
        `  writing the selling set-up of ${items.length} paid and freemium items (the demo generator's)...`,
      );
      await writeSetUp(db, items);
    }

    const chosen = chooseBigItems(items, options.bigItems);
    const names = await rows<{ id: number; name: string }>(
      db,
      sql`SELECT id, name FROM plugins WHERE id = ANY(${`{${chosen.map((item) => item.pluginId).join(',')}}`}::int[])`,
    );
    const bigItems = chosen.map((item) => ({
      id: item.pluginId,
      name: names.find((row) => row.id === item.pluginId)?.name ?? '',
      vendorId: item.vendorId,
      sales: 0,
    }));
    await writeSales(db, items, bigItems, options);
    await db.execute(sql`VACUUM ANALYZE sales`);
    for (const table of COMMERCE_TABLES.filter((table) => table !== 'sales')) {
      await db.execute(sql.raw(`ANALYZE ${table}`));
    }
    const perItem = await rows<{ plugin_id: number; count: string }>(
      db,
      sql`SELECT plugin_id, count(*) AS count FROM sales
        WHERE plugin_id = ANY(${`{${bigItems.map((item) => item.id).join(',')}}`}::int[]) GROUP BY 1`,
    );
    for (const item of bigItems) {
      item.sales = Number(perItem.find((row) => row.plugin_id === item.id)?.count ?? 0);
    }
    const next: Marker = { ...wanted, chosen: bigItems };
    await db.execute(
      sql.raw(`COMMENT ON TABLE sales IS '${MARKER_PREFIX}${JSON.stringify(next).replaceAll("'", "''")}'`),
    );
    return {
      bigItems,
      sales: options.sales,
      counts: await countRows(db),
      seededNow: true,
      seedSeconds: (performance.now() - started) / 1000,
    };
  } finally {
    await database.close();
  }
}

async function countRows(db: Database): Promise<Record<string, number>> {
  const tables = ['sellers', 'plugin_price_lists', 'offers', 'coupons', 'trials', 'orders', 'sales'];
  const [row] = await rows<Record<string, string>>(
    db,
    sql.raw(`SELECT ${tables.map((table) => `(SELECT count(*) FROM ${table}) AS ${table}`).join(', ')}`),
  );
  return Object.fromEntries(tables.map((table) => [table, Number(row?.[table] ?? 0)]));
}

/** The demo generator's selling set-up of every paid and freemium item, from the facts the catalogue kept. */
async function generateSetUp(db: Database, plugins: number): Promise<DemoItemCommerce[]> {
  const buyers = await rows<DemoBuyer>(
    db,
    sql`SELECT id, name, email FROM users WHERE id > 3 AND id <= ${3 + demoReviewerCount(plugins)} ORDER BY id`,
  );
  const priced = await rows<{
    id: number;
    pricing_model: 'PAID' | 'FREEMIUM';
    vendor_id: number;
    vendor_url: string;
    created_at: Date;
    downloads: string | number;
    approved: boolean;
    lifecycle_state: string;
    listed: boolean;
  }>(
    db,
    sql`SELECT p.id, p.pricing_model, p.vendor_id, v.url AS vendor_url, p.created_at, p.downloads, p.approved,
        p.lifecycle_state, p.listed
      FROM plugins p JOIN vendors v ON v.id = p.vendor_id WHERE p.pricing_model <> 'FREE' ORDER BY p.id`,
  );
  const context = { seed: DEFAULT_DEMO_SEED, today: BENCH_TODAY, buyers, catalogueSize: plugins };
  return priced.flatMap((row) => {
    const item = generateItemCommerce(
      {
        id: row.id,
        pricingModel: row.pricing_model,
        vendorId: row.vendor_id,
        vendorDomain: new URL(row.vendor_url).hostname,
        createdAt: new Date(row.created_at),
        downloads: Number(row.downloads),
        selling: row.approved && row.lifecycle_state !== 'draft',
        listed: row.listed,
      },
      context,
    );
    return item ? [item] : [];
  });
}

/** Writes the set-up in one transaction, with the product descriptors of the items' versions. */
async function writeSetUp(db: Database, items: readonly DemoItemCommerce[]): Promise<void> {
  const vendors = await rows<{ id: number; name: string; url: string }>(
    db,
    sql`SELECT id, name, url FROM vendors ORDER BY id`,
  );
  const names = new Map(
    (
      await rows<{ id: number; name: string; pricing_model: 'PAID' | 'FREEMIUM' }>(
        db,
        sql`SELECT id, name, pricing_model FROM plugins WHERE pricing_model <> 'FREE'`,
      )
    ).map((row) => [row.id, row]),
  );
  const versions = await rows<{ id: number; plugin_id: number; created_at: Date }>(
    db,
    sql`SELECT v.id, v.plugin_id, v.created_at FROM plugin_versions v JOIN plugins p ON p.id = v.plugin_id
      WHERE p.pricing_model <> 'FREE' ORDER BY v.id`,
  );
  const versionsOf = new Map<number, Array<{ id: number; createdAt: Date }>>();
  for (const version of versions) {
    const list = versionsOf.get(version.plugin_id) ?? [];
    list.push({ id: version.id, createdAt: new Date(version.created_at) });
    versionsOf.set(version.plugin_id, list);
  }
  const descriptors = {
    ids: [] as number[],
    codes: [] as string[],
    dates: [] as string[],
    releases: [] as number[],
    optional: [] as boolean[],
  };
  for (const [pluginId, pluginVersions] of versionsOf) {
    const plugin = names.get(pluginId);
    if (!plugin) continue;
    for (const [versionId, product] of demoProductDescriptors(
      plugin.name,
      plugin.pricing_model,
      pluginVersions,
    )) {
      descriptors.ids.push(versionId);
      descriptors.codes.push(product.code);
      descriptors.dates.push(product.releaseDate);
      descriptors.releases.push(product.releaseVersion);
      descriptors.optional.push(product.optional);
    }
  }
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      UPDATE plugin_versions v SET product_code = d.code, product_release_date = d.day,
        product_release_version = d.release, product_optional = d.optional
      FROM unnest(${`{${descriptors.ids.join(',')}}`}::int[], ${`{${descriptors.codes.join(',')}}`}::text[],
        ${`{${descriptors.dates.join(',')}}`}::date[], ${`{${descriptors.releases.join(',')}}`}::int[],
        ${`{${descriptors.optional.join(',')}}`}::boolean[]) AS d(id, code, day, release, optional)
      WHERE v.id = d.id`);
    const writer = await DemoCommerceWriter.start(tx);
    for (let start = 0; start < items.length; start += 500) {
      await writer.writeItems(tx, items.slice(start, start + 500), () => []);
    }
    await writer.finish(tx, {
      seed: DEFAULT_DEMO_SEED,
      today: BENCH_TODAY,
      vendors: vendors.map((vendor) => ({
        id: vendor.id,
        name: vendor.name,
        domain: new URL(vendor.url).hostname,
      })),
      visitor: { id: DEMO_ACCOUNTS.visitor.id, name: DEMO_ACCOUNTS.visitor.name },
    });
  });
}

/** The most popular listed items on sale: they get the big histories. */
function chooseBigItems(items: readonly DemoItemCommerce[], count: number): DemoItemCommerce[] {
  return items
    .filter((item) => item.listed && item.salesFrom !== null && item.priceLists.length > 0)
    .sort((a, b) => b.expectedSales - a.expectedSales || a.pluginId - b.pluginId)
    .slice(0, count);
}

/**
 * Replaces the sales without an order by `options.sales` minus those with one: `bigItemSales` for each big
 * item and the rest in proportion to each item's expected sales (largest remainders, so the total is exact).
 */
async function writeSales(
  db: Database,
  items: readonly DemoItemCommerce[],
  bigItems: ReadonlyArray<{ id: number }>,
  options: CommerceSeedOptions,
): Promise<void> {
  const { log } = options;
  await db.execute(sql`DELETE FROM sales WHERE order_id IS NULL`);
  const [linked] = await rows<{ count: string }>(db, sql`SELECT count(*) AS count FROM sales`);
  const big = new Set(bigItems.map((item) => item.id));
  const rest = options.sales - Number(linked?.count ?? 0) - big.size * options.bigItemSales;
  if (rest < 0)
    throw new Error(
      `${options.sales} sales are fewer than the big items' ${big.size} x ${options.bigItemSales}.`,
    );
  const others = items.filter((item) => !big.has(item.pluginId) && item.salesFrom && item.expectedSales > 0);
  const weight = others.reduce((sum, item) => sum + item.expectedSales, 0);
  const shares = others.map((item) => {
    const exact = (rest * item.expectedSales) / weight;
    return { item, count: Math.floor(exact), fraction: exact - Math.floor(exact) };
  });
  let missing = rest - shares.reduce((sum, share) => sum + share.count, 0);
  for (const share of [...shares].sort(
    (a, b) => b.fraction - a.fraction || a.item.pluginId - b.item.pluginId,
  )) {
    if (missing <= 0) break;
    share.count++;
    missing--;
  }
  const plan = [
    ...items.filter((item) => big.has(item.pluginId)).map((item) => ({ item, count: options.bigItemSales })),
    ...shares.filter((share) => share.count > 0),
  ];
  log(
    `  generating ${options.sales.toLocaleString('en-US')} sales: ${big.size} big items x ${options.bigItemSales.toLocaleString('en-US')}, ` +
      `${rest.toLocaleString('en-US')} over ${plan.length - big.size} other items, ${Number(linked?.count ?? 0)} of paid trial orders...`,
  );
  await db.execute(sql`DROP TABLE IF EXISTS bench_sales_staging`);
  await db.execute(sql`CREATE UNLOGGED TABLE bench_sales_staging AS
    SELECT plugin_id, order_id, sold_at, license_kind, billing_period, quantity, country_code, currency, gross_minor,
      discount_minor, commission_minor, net_minor, after_trial FROM sales WITH NO DATA`);
  const buffer: DemoSaleRow[] = [];
  let written = 0;
  let lastReport = performance.now();
  for (const { item, count } of plan) {
    for (const sale of generateItemSales(item, count, DEFAULT_DEMO_SEED)) {
      buffer.push({ ...sale, pluginId: item.pluginId, orderId: null });
      if (buffer.length >= 50_000) {
        await insertSaleRows(db, buffer.splice(0), undefined, 'bench_sales_staging');
        written += 50_000;
        if (performance.now() - lastReport > 15_000) {
          lastReport = performance.now();
          log(`    ${written.toLocaleString('en-US')} generated`);
        }
      }
    }
  }
  await insertSaleRows(db, buffer, undefined, 'bench_sales_staging');
  log('  moving them into sales in time order...');
  await db.execute(sql`INSERT INTO sales (plugin_id, order_id, sold_at, license_kind, billing_period, quantity,
      country_code, currency, gross_minor, discount_minor, commission_minor, net_minor, after_trial)
    SELECT plugin_id, order_id, sold_at, license_kind, billing_period, quantity, country_code, currency, gross_minor,
      discount_minor, commission_minor, net_minor, after_trial FROM bench_sales_staging ORDER BY sold_at`);
  await db.execute(sql`DROP TABLE bench_sales_staging`);
}
