import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import {
  coupons,
  invoices,
  offers,
  orders,
  pluginContinuityDiscounts,
  pluginPriceLists,
  pluginPrices,
  pluginPrograms,
  pluginSellingTerms,
  pluginVolumeDiscounts,
  sellers,
  trials,
} from '../db/schema';
import {
  DEMO_CURRENCY_CODE,
  generateSeller,
  generateVisitorOrders,
  type DemoItemCommerce,
  type DemoOrder,
  type DemoSale,
  type DemoSeller,
  type DemoSellerVendor,
} from './commerce';
import { arrayLiteral, insertInChunks } from './rows';

/** A sale as a row: its item, and its order when it has one. */
export interface DemoSaleRow extends DemoSale {
  pluginId: number;
  orderId: number | null;
}

export interface DemoCommerceCounts {
  sellers: number;
  pricedItems: number;
  priceLists: number;
  offers: number;
  coupons: number;
  trials: number;
  orders: number;
  sales: number;
}

const SEQUENCE_TABLES = ['plugin_price_lists', 'offers', 'coupons', 'trials', 'orders', 'invoices', 'sales'];

/**
 * Writes generated commerce with explicit ids, continuing after the rows already there, so the same input
 * gives the same rows; `finish` moves the sequences past them.
 */
export class DemoCommerceWriter {
  readonly counts: DemoCommerceCounts = {
    sellers: 0,
    pricedItems: 0,
    priceLists: 0,
    offers: 0,
    coupons: 0,
    trials: 0,
    orders: 0,
    sales: 0,
  };

  /** When each vendor's first item began selling (its application to sell came shortly before). */
  private readonly firstSales = new Map<number, Date>();
  /** The first listed items on sale, which the demo visitor has ordered. */
  private readonly visitorItems: DemoItemCommerce[] = [];

  private constructor(private readonly next: Record<string, number>) {}

  static async start(tx: Queryable): Promise<DemoCommerceWriter> {
    const result = await tx.execute<Record<string, string | number>>(
      sql.raw(
        `SELECT ${SEQUENCE_TABLES.map((table) => `(SELECT coalesce(max(id), 0) FROM ${table}) AS ${table}`).join(', ')}`,
      ),
    );
    const row = result.rows[0] ?? {};
    return new DemoCommerceWriter(
      Object.fromEntries(SEQUENCE_TABLES.map((table) => [table, Number(row[table] ?? 0) + 1])),
    );
  }

  private take(table: string): number {
    const id = this.next[table] as number;
    this.next[table] = id + 1;
    return id;
  }

  /**
   * Writes the set-up and history of items: terms, prices, discounts, programs, offers and coupons, trials
   * and their orders (with invoices and sales), and the sales `salesOf` gives for each item.
   */
  async writeItems(
    tx: Queryable,
    items: readonly DemoItemCommerce[],
    salesOf: (item: DemoItemCommerce) => Iterable<DemoSale>,
  ): Promise<void> {
    if (items.length === 0) return;
    const lists: Array<typeof pluginPriceLists.$inferInsert> = [];
    const prices: Array<typeof pluginPrices.$inferInsert> = [];
    const offerRows: Array<typeof offers.$inferInsert> = [];
    const couponRows: Array<typeof coupons.$inferInsert> = [];
    const trialRows: Array<typeof trials.$inferInsert> = [];
    const trialOrders: DemoOrder[] = [];
    for (const item of items) {
      const first = item.priceLists[0]?.effectiveAt;
      const known = this.firstSales.get(item.vendorId);
      if (first && (!known || first < known)) this.firstSales.set(item.vendorId, first);
      if (item.listed && item.salesFrom && this.visitorItems.length < 2) this.visitorItems.push(item);
      for (const list of item.priceLists) {
        const id = this.take('plugin_price_lists');
        lists.push({
          id,
          pluginId: item.pluginId,
          effectiveAt: list.effectiveAt,
          createdAt: list.createdAt,
          appliedAt: list.effectiveAt <= item.salesUntil ? list.effectiveAt : null,
        });
        for (const price of list.prices) prices.push({ priceListId: id, ...price });
      }
      for (const offer of item.offers) {
        const id = this.take('offers');
        const { coupons: offerCoupons, ...fields } = offer;
        offerRows.push({ id, pluginId: item.pluginId, ...fields });
        for (const coupon of offerCoupons)
          couponRows.push({ id: this.take('coupons'), offerId: id, ...coupon });
      }
      for (const trial of item.trials) {
        trialRows.push({
          id: this.take('trials'),
          pluginId: item.pluginId,
          userId: trial.userId,
          startedAt: trial.startedAt,
          endsAt: trial.endsAt,
        });
        if (trial.order) trialOrders.push(trial.order);
      }
    }
    await insertInChunks(
      tx,
      pluginSellingTerms,
      items.map((item) => ({ pluginId: item.pluginId, ...item.terms })),
    );
    await insertInChunks(tx, pluginPriceLists, lists);
    await insertInChunks(tx, pluginPrices, prices);
    await insertInChunks(
      tx,
      pluginVolumeDiscounts,
      items.flatMap((item) => item.volumeTiers.map((tier) => ({ pluginId: item.pluginId, ...tier }))),
    );
    await insertInChunks(
      tx,
      pluginContinuityDiscounts,
      items.flatMap((item) =>
        item.terms.continuityCustomized
          ? item.continuitySteps.map((step) => ({ pluginId: item.pluginId, ...step }))
          : [],
      ),
    );
    await insertInChunks(
      tx,
      pluginPrograms,
      items.flatMap((item) => item.programs.map((program) => ({ pluginId: item.pluginId, ...program }))),
    );
    await insertInChunks(tx, offers, offerRows);
    await insertInChunks(tx, coupons, couponRows);
    await insertInChunks(tx, trials, trialRows);
    await this.writeOrders(tx, trialOrders);
    const sales: DemoSaleRow[] = [];
    for (const item of items) {
      for (const sale of salesOf(item)) {
        sales.push({ ...sale, pluginId: item.pluginId, orderId: null });
        if (sales.length >= 50_000) await this.writeSales(tx, sales.splice(0));
      }
    }
    await this.writeSales(tx, sales);
    this.counts.pricedItems += items.length;
    this.counts.priceLists += lists.length;
    this.counts.offers += offerRows.length;
    this.counts.coupons += couponRows.length;
    this.counts.trials += trialRows.length;
  }

  /** Orders with their invoices, and the sales of those that were paid. */
  async writeOrders(tx: Queryable, demoOrders: readonly DemoOrder[]): Promise<void> {
    const orderRows: Array<typeof orders.$inferInsert> = [];
    const invoiceRows: Array<typeof invoices.$inferInsert> = [];
    const sales: DemoSaleRow[] = [];
    for (const order of demoOrders) {
      const id = this.take('orders');
      orderRows.push({
        id,
        buyerId: order.buyerId,
        pluginId: order.pluginId,
        licenseKind: order.licenseKind,
        billingPeriod: order.billingPeriod,
        quantity: order.quantity,
        licensee: order.licensee,
        countryCode: order.countryCode,
        currency: DEMO_CURRENCY_CODE,
        couponId: null,
        subtotalMinor: order.quote.subtotalMinor,
        discountMinor: order.quote.discountMinor,
        totalMinor: order.quote.totalMinor,
        lines: order.quote.lines,
        status: order.status,
        paymentProvider: 'invoice',
        createdAt: order.createdAt,
        paidAt: order.paidAt,
      });
      invoiceRows.push({
        id: this.take('invoices'),
        orderId: id,
        number: `INV-${order.invoice.issuedAt.getUTCFullYear()}-${String(id).padStart(6, '0')}`,
        amountMinor: order.quote.totalMinor,
        currency: DEMO_CURRENCY_CODE,
        ...order.invoice,
      });
      if (order.sale) sales.push({ ...order.sale, pluginId: order.pluginId, orderId: id });
    }
    await insertInChunks(tx, orders, orderRows);
    await insertInChunks(tx, invoices, invoiceRows);
    await this.writeSales(tx, sales);
    this.counts.orders += orderRows.length;
  }

  /**
   * After every item: the vendors' applications to sell (approved for those with items on sale), the demo
   * visitor's orders, and the sequences moved past the ids written.
   */
  async finish(
    tx: Queryable,
    catalogue: {
      seed: number;
      today: Date;
      vendors: readonly DemoSellerVendor[];
      visitor: { id: number; name: string };
    },
  ): Promise<void> {
    const demoSellers = catalogue.vendors.flatMap((vendor): DemoSeller[] => {
      const seller = generateSeller(catalogue.seed, vendor, this.firstSales.get(vendor.id), catalogue.today);
      return seller ? [seller] : [];
    });
    await insertInChunks(tx, sellers, demoSellers);
    this.counts.sellers += demoSellers.length;
    await this.writeOrders(
      tx,
      generateVisitorOrders(catalogue.seed, catalogue.visitor, this.visitorItems, catalogue.today),
    );
    for (const table of SEQUENCE_TABLES) {
      await tx.execute(
        sql.raw(
          `SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM ${table})) WHERE EXISTS (SELECT 1 FROM ${table})`,
        ),
      );
    }
  }

  /** Sales with ids of their own, sent as arrays and unnested by the server. */
  async writeSales(tx: Queryable, rows: readonly DemoSaleRow[]): Promise<void> {
    const ids = rows.map(() => this.take('sales'));
    await insertSaleRows(tx, rows, ids);
    this.counts.sales += rows.length;
  }
}

/**
 * Inserts sales in statements of up to 50,000 rows, each column sent as one array. Without `ids` the
 * table's sequence numbers them; `table` may name a table of the same columns (the benchmark's staging).
 */
export async function insertSaleRows(
  tx: Queryable,
  rows: readonly DemoSaleRow[],
  ids?: readonly number[],
  table = 'sales',
): Promise<void> {
  const chunkSize = 50_000;
  for (let start = 0; start < rows.length; start += chunkSize) {
    const chunk = rows.slice(start, start + chunkSize);
    const column = <T extends number | string | boolean>(pick: (row: DemoSaleRow) => T) =>
      arrayLiteral(chunk.map(pick));
    const orderIds = `{${chunk.map((row) => (row.orderId === null ? 'NULL' : row.orderId)).join(',')}}`;
    const idColumn = ids ? sql`${arrayLiteral(ids.slice(start, start + chunkSize))}::bigint[], ` : sql``;
    await tx.execute(sql`
      INSERT INTO ${sql.identifier(table)} (${ids ? sql`id, ` : sql``}plugin_id, order_id, sold_at, license_kind,
        billing_period, quantity, country_code, currency, gross_minor, discount_minor, commission_minor,
        net_minor, after_trial)
      SELECT * FROM unnest(${idColumn}${column((row) => row.pluginId)}::integer[], ${orderIds}::integer[],
        ${column((row) => row.soldAt.toISOString())}::timestamptz[], ${column((row) => row.licenseKind)}::text[],
        ${column((row) => row.billingPeriod)}::text[], ${column((row) => row.quantity)}::integer[],
        ${column((row) => row.countryCode)}::text[], ${column(() => DEMO_CURRENCY_CODE)}::text[],
        ${column((row) => row.grossMinor)}::bigint[], ${column((row) => row.discountMinor)}::bigint[],
        ${column((row) => row.commissionMinor)}::bigint[], ${column((row) => row.netMinor)}::bigint[],
        ${column((row) => row.afterTrial)}::boolean[])`);
  }
}
