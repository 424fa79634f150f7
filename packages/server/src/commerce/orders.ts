import type {
  InvoiceBody,
  LicenseBody,
  OrderAnswer,
  OrderBody,
  QuoteBody,
  TrialSettingsBody,
} from '@marketplace/api-contract';
import {
  BILLING_PERIOD_MONTHS,
  COUPON_REFUSALS,
  DAY_MS,
  couponRefusal,
  formatMoney,
  normalizeCouponCode,
  percentOf,
  priceQuote,
  type BillingPeriod,
  type CommunityProgram,
  type Currency,
  type LicenseKind,
  type OrderStatus,
} from '@marketplace/core';
import { sql } from 'drizzle-orm';
import type { Database, Queryable, Transaction } from '../db/client';
import { ApiError } from '../plugins/app/errors';
import { selectRows } from '../search/sql';
import type { LicenseKeys } from './license-keys';
import { findCoupon } from './offers';
import type { PaymentProvider } from './payments';
import {
  loadContinuitySteps,
  loadPricing,
  loadPrograms,
  loadSellableItem,
  loadTerms,
  loadVolumeTiers,
  unitPriceOf,
  type SellableItem,
} from './pricing';

/** A renewal within this long of the previous licence's end keeps the subscription continuous. */
const CONTINUITY_GRACE_MS = 30 * DAY_MS;

export interface CommerceEnvironment {
  db: Database;
  currency: Currency;
  commissionPercent: number;
  keys: LicenseKeys;
  payments: PaymentProvider;
}

export async function requireItem(db: Queryable, pluginId: number): Promise<SellableItem> {
  const item = await loadSellableItem(db, pluginId);
  if (!item) throw new ApiError('notFound', `There is no item ${pluginId}.`);
  return item;
}

/** The month a licence kind and period add to a start: calendar months in UTC. */
function addMonths(start: Date, months: number): Date {
  const end = new Date(start);
  end.setUTCMonth(end.getUTCMonth() + months);
  return end;
}

/**
 * The year of continuous subscription an order would pay for: 1 for a new subscriber, 2 once the buyer's
 * licences of the item have run without a gap (renewed within 30 days) for a year, and so on.
 */
export async function subscriptionYearOf(
  db: Queryable,
  buyerId: number,
  pluginId: number,
  now: Date,
): Promise<number> {
  const licences = await selectRows<{ starts_at: Date; expires_at: Date }>(
    db,
    sql`SELECT starts_at, expires_at FROM licenses WHERE user_id = ${buyerId} AND plugin_id = ${pluginId}
      AND order_id IS NOT NULL ORDER BY starts_at DESC`,
  );
  const latest = licences[0];
  if (!latest || new Date(latest.expires_at).getTime() + CONTINUITY_GRACE_MS < now.getTime()) return 1;
  let chainStart = new Date(latest.starts_at);
  for (const licence of licences.slice(1)) {
    if (new Date(licence.expires_at).getTime() + CONTINUITY_GRACE_MS < chainStart.getTime()) break;
    if (new Date(licence.starts_at) < chainStart) chainStart = new Date(licence.starts_at);
  }
  return Math.floor((now.getTime() - chainStart.getTime()) / (365 * DAY_MS)) + 1;
}

/** The best program discount the buyer was accepted into for this item. */
async function programOf(
  db: Queryable,
  buyerId: number,
  pluginId: number,
): Promise<{ program: CommunityProgram; percent: number } | undefined> {
  const offered = await loadPrograms(db, pluginId);
  if (offered.length === 0) return undefined;
  const approved = await selectRows<{ program: CommunityProgram }>(
    db,
    sql`SELECT program FROM program_applications WHERE plugin_id = ${pluginId} AND user_id = ${buyerId}
      AND status = 'APPROVED'`,
  );
  let best: { program: CommunityProgram; percent: number } | undefined;
  for (const { program } of approved) {
    const offer = offered.find((candidate) => candidate.program === program);
    if (offer && (!best || offer.percent > best.percent)) best = offer;
  }
  return best;
}

export interface QuoteRequest {
  pluginId: number;
  licenseKind?: LicenseKind;
  billingPeriod?: BillingPeriod;
  quantity: number;
  couponCode?: string;
  /** The signed-in buyer: their continuity year and programs count. */
  buyerId: number | null;
}

/**
 * The quote for an order. A coupon that does not apply is reported with its reason (the quote is then
 * without it); `strictCoupon` turns that into a 400, as placing an order does.
 */
export async function quoteFor(
  env: CommerceEnvironment,
  db: Queryable,
  request: QuoteRequest,
  options: { strictCoupon?: boolean; lockCoupon?: boolean; now?: Date } = {},
): Promise<QuoteBody & { couponId: number | null }> {
  const now = options.now ?? new Date();
  const item = await requireItem(db, request.pluginId);
  const pricing = await loadPricing(db, item, env.currency);
  const licenseKind = request.licenseKind ?? pricing.licenseKinds[0] ?? 'PERSONAL';
  const billingPeriod =
    request.billingPeriod ?? (pricing.billingPeriods.includes('YEARLY') ? 'YEARLY' : 'MONTHLY');
  const unitPriceMinor = unitPriceOf(pricing, licenseKind, billingPeriod, env.currency);

  let coupon: QuoteBody['coupon'] = null;
  let couponDiscount: { kind: 'PERCENT' | 'AMOUNT'; value: number; code: string } | undefined;
  let couponId: number | null = null;
  if (request.couponCode !== undefined && request.couponCode.trim() !== '') {
    const code = normalizeCouponCode(request.couponCode);
    const found = await findCoupon(db, code, { lock: options.lockCoupon });
    const refusal = couponRefusal(found, { pluginId: item.id, licenseKind, at: now });
    if (refusal) {
      if (options.strictCoupon) throw new ApiError('validation', COUPON_REFUSALS[refusal]);
      coupon = { code, applied: false, reason: COUPON_REFUSALS[refusal] };
    } else if (found) {
      coupon = { code, applied: true, reason: null };
      couponDiscount = { kind: found.discountKind, value: found.discountValue, code };
      couponId = found.couponId;
    }
  }

  const [volumeTiers, continuitySteps, subscriptionYear, program] = await Promise.all([
    loadVolumeTiers(db, item.id),
    loadContinuitySteps(db, item.id),
    request.buyerId === null ? Promise.resolve(1) : subscriptionYearOf(db, request.buyerId, item.id, now),
    request.buyerId === null ? Promise.resolve(undefined) : programOf(db, request.buyerId, item.id),
  ]);
  const quote = priceQuote(
    {
      unitPriceMinor,
      quantity: request.quantity,
      volumeTiers,
      continuitySteps,
      subscriptionYear,
      program,
      coupon: couponDiscount,
    },
    (minor) => formatMoney(minor, env.currency),
  );
  return {
    pluginId: item.id,
    currency: env.currency.code,
    licenseKind,
    billingPeriod,
    quantity: quote.quantity,
    unitPriceMinor: quote.unitPriceMinor,
    subtotalMinor: quote.subtotalMinor,
    lines: quote.lines,
    discountMinor: quote.discountMinor,
    totalMinor: quote.totalMinor,
    coupon,
    couponId,
  };
}

// ---- Licences --------------------------------------------------------------------------------------------

interface LicenseRow {
  id: number;
  plugin_id: number;
  plugin_name: string;
  product_code: string | null;
  licensee: string;
  license_kind: LicenseKind;
  seats: number;
  trial_id: number | null;
  starts_at: Date;
  expires_at: Date;
  token: string;
}

const LICENSE_SELECT = sql`SELECT l.id, l.plugin_id, p.name AS plugin_name,
    (SELECT pv.product_code FROM plugin_versions pv WHERE pv.plugin_id = p.id AND pv.product_code IS NOT NULL
      ORDER BY pv.created_at DESC LIMIT 1) AS product_code,
    l.licensee, l.license_kind, l.seats, l.trial_id, l.starts_at, l.expires_at, l.token
  FROM licenses l JOIN plugins p ON p.id = l.plugin_id`;

function licenseAnswer(row: LicenseRow): LicenseBody {
  return {
    id: row.id,
    pluginId: row.plugin_id,
    pluginName: row.plugin_name,
    productCode: row.product_code,
    licensee: row.licensee,
    licenseKind: row.license_kind,
    seats: row.seats,
    trial: row.trial_id !== null,
    startsAt: new Date(row.starts_at).getTime(),
    expiresAt: new Date(row.expires_at).getTime(),
    token: row.token,
  };
}

export async function listLicenses(db: Queryable, userId: number): Promise<LicenseBody[]> {
  const rows = await selectRows<LicenseRow>(
    db,
    sql`${LICENSE_SELECT} WHERE l.user_id = ${userId} ORDER BY l.created_at DESC, l.id DESC`,
  );
  return rows.map(licenseAnswer);
}

async function productCodeOf(db: Queryable, pluginId: number): Promise<string | null> {
  const [row] = await selectRows<{ product_code: string }>(
    db,
    sql`SELECT product_code FROM plugin_versions WHERE plugin_id = ${pluginId} AND product_code IS NOT NULL
      ORDER BY created_at DESC LIMIT 1`,
  );
  return row?.product_code ?? null;
}

/** Writes a licence row and its signed token in the caller's transaction. */
async function issueLicense(
  env: CommerceEnvironment,
  tx: Transaction,
  input: {
    item: SellableItem;
    userId: number;
    orderId: number | null;
    trialId: number | null;
    licensee: string;
    licenseKind: LicenseKind;
    seats: number;
    startsAt: Date;
    expiresAt: Date;
  },
): Promise<number> {
  const [row] = await selectRows<{ id: number }>(
    tx,
    sql`INSERT INTO licenses (plugin_id, user_id, order_id, trial_id, licensee, license_kind, seats, starts_at,
        expires_at, token)
      VALUES (${input.item.id}, ${input.userId}, ${input.orderId}, ${input.trialId}, ${input.licensee},
        ${input.licenseKind}, ${input.seats}, ${input.startsAt}, ${input.expiresAt}, '')
      RETURNING id`,
  );
  if (!row) throw new Error('The licence was not stored.');
  const token = await env.keys.sign({
    licenseId: String(row.id),
    pluginId: input.item.id,
    pluginXmlId: input.item.xmlId,
    productCode: await productCodeOf(tx, input.item.id),
    licensee: input.licensee,
    licenseKind: input.licenseKind,
    seats: input.seats,
    trial: input.trialId !== null,
    startsAt: input.startsAt,
    expiresAt: input.expiresAt,
  });
  await tx.execute(sql`UPDATE licenses SET token = ${token} WHERE id = ${row.id}`);
  return row.id;
}

// ---- Trials ----------------------------------------------------------------------------------------------

export async function trialSettings(
  env: CommerceEnvironment,
  pluginId: number,
  userId: number | null,
): Promise<TrialSettingsBody> {
  await requireItem(env.db, pluginId);
  const terms = await loadTerms(env.db, pluginId);
  if (userId === null) return { trialDays: terms.trialDays, myTrial: null };
  const [trial] = await selectRows<{ started_at: Date; ends_at: Date; license_id: number }>(
    env.db,
    sql`SELECT t.started_at, t.ends_at, l.id AS license_id FROM trials t JOIN licenses l ON l.trial_id = t.id
      WHERE t.plugin_id = ${pluginId} AND t.user_id = ${userId}`,
  );
  return {
    trialDays: terms.trialDays,
    myTrial: trial
      ? {
          startedAt: new Date(trial.started_at).getTime(),
          endsAt: new Date(trial.ends_at).getTime(),
          licenseId: trial.license_id,
        }
      : null,
  };
}

/** Starts the buyer's one trial of an item: a personal licence for one seat, for the item's trial days. */
export async function startTrial(
  env: CommerceEnvironment,
  pluginId: number,
  user: { id: number; name: string },
): Promise<LicenseBody> {
  const item = await requireItem(env.db, pluginId);
  const pricing = await loadPricing(env.db, item, env.currency);
  if (!pricing.forSale)
    throw new ApiError('validation', `${item.name} is not for sale here, so it has no trial.`);
  if (pricing.trialDays === 0) throw new ApiError('validation', `${item.name} offers no trial.`);
  await env.keys.prepare();
  const licenseId = await env.db.transaction(async (tx) => {
    const startsAt = new Date();
    const expiresAt = new Date(startsAt.getTime() + pricing.trialDays * DAY_MS);
    const [trial] = await selectRows<{ id: number }>(
      tx,
      sql`INSERT INTO trials (plugin_id, user_id, started_at, ends_at) VALUES (${item.id}, ${user.id}, ${startsAt}, ${expiresAt})
        ON CONFLICT (plugin_id, user_id) DO NOTHING RETURNING id`,
    );
    if (!trial) {
      throw new ApiError(
        'validation',
        `You have already tried ${item.name}: there is one trial per customer.`,
      );
    }
    return issueLicense(env, tx, {
      item,
      userId: user.id,
      orderId: null,
      trialId: trial.id,
      licensee: user.name,
      licenseKind: 'PERSONAL',
      seats: 1,
      startsAt,
      expiresAt,
    });
  });
  const [row] = await selectRows<LicenseRow>(env.db, sql`${LICENSE_SELECT} WHERE l.id = ${licenseId}`);
  return licenseAnswer(row!);
}

// ---- Orders ----------------------------------------------------------------------------------------------

interface OrderRow {
  id: number;
  plugin_id: number;
  plugin_name: string;
  buyer_id: number;
  buyer_name: string;
  license_kind: LicenseKind;
  billing_period: BillingPeriod;
  quantity: number;
  licensee: string;
  country_code: string;
  currency: string;
  lines: OrderAnswer['lines'];
  subtotal_minor: string | number;
  discount_minor: string | number;
  total_minor: string | number;
  status: OrderStatus;
  payment_provider: string;
  created_at: Date;
  paid_at: Date | null;
  invoice_id: number | null;
  invoice_number: string | null;
  invoice_amount: string | number | null;
  invoice_status: InvoiceBody['status'] | null;
  invoice_issued_at: Date | null;
  invoice_due_at: Date | null;
  invoice_paid_at: Date | null;
  license_id: number | null;
}

const ORDER_SELECT = sql`SELECT o.id, o.plugin_id, p.name AS plugin_name, o.buyer_id, u.name AS buyer_name,
    o.license_kind, o.billing_period, o.quantity, o.licensee, o.country_code, o.currency, o.lines,
    o.subtotal_minor, o.discount_minor, o.total_minor, o.status, o.payment_provider, o.created_at, o.paid_at,
    i.id AS invoice_id, i.number AS invoice_number, i.amount_minor AS invoice_amount, i.status AS invoice_status,
    i.issued_at AS invoice_issued_at, i.due_at AS invoice_due_at, i.paid_at AS invoice_paid_at,
    l.id AS license_id
  FROM orders o JOIN plugins p ON p.id = o.plugin_id JOIN users u ON u.id = o.buyer_id
  LEFT JOIN invoices i ON i.order_id = o.id LEFT JOIN licenses l ON l.order_id = o.id`;

function orderAnswer(row: OrderRow): OrderAnswer {
  const time = (value: Date | null) => (value ? new Date(value).getTime() : null);
  return {
    id: row.id,
    pluginId: row.plugin_id,
    pluginName: row.plugin_name,
    buyer: { id: row.buyer_id, name: row.buyer_name },
    licenseKind: row.license_kind,
    billingPeriod: row.billing_period,
    quantity: row.quantity,
    licensee: row.licensee,
    countryCode: row.country_code,
    currency: row.currency,
    lines: row.lines,
    subtotalMinor: Number(row.subtotal_minor),
    discountMinor: Number(row.discount_minor),
    totalMinor: Number(row.total_minor),
    status: row.status,
    paymentProvider: row.payment_provider,
    createdAt: new Date(row.created_at).getTime(),
    paidAt: time(row.paid_at),
    invoice:
      row.invoice_id === null
        ? null
        : {
            id: row.invoice_id,
            number: row.invoice_number ?? '',
            amountMinor: Number(row.invoice_amount),
            currency: row.currency,
            status: row.invoice_status ?? 'OPEN',
            issuedAt: time(row.invoice_issued_at) ?? 0,
            dueAt: time(row.invoice_due_at) ?? 0,
            paidAt: time(row.invoice_paid_at),
          },
    licenseId: row.license_id,
  };
}

export async function loadOrder(db: Queryable, orderId: number): Promise<OrderAnswer | undefined> {
  const [row] = await selectRows<OrderRow>(db, sql`${ORDER_SELECT} WHERE o.id = ${orderId}`);
  return row ? orderAnswer(row) : undefined;
}

export async function listOrdersOf(db: Queryable, buyerId: number): Promise<OrderAnswer[]> {
  const rows = await selectRows<OrderRow>(
    db,
    sql`${ORDER_SELECT} WHERE o.buyer_id = ${buyerId} ORDER BY o.created_at DESC, o.id DESC LIMIT 500`,
  );
  return rows.map(orderAnswer);
}

/** Orders by their invoice's state, for the administrators who mark invoices paid. */
export async function listOrdersByInvoice(
  db: Queryable,
  status: InvoiceBody['status'] | undefined,
): Promise<OrderAnswer[]> {
  const rows = await selectRows<OrderRow>(
    db,
    sql`${ORDER_SELECT} WHERE i.id IS NOT NULL ${status ? sql`AND i.status = ${status}` : sql``}
      ORDER BY i.issued_at DESC, o.id DESC LIMIT 500`,
  );
  return rows.map(orderAnswer);
}

/**
 * Places an order at the quote of this moment: the coupon is held and counted in the same transaction, so
 * two buyers cannot both spend its last use. The payment provider says what the buyer does next.
 */
export async function placeOrder(
  env: CommerceEnvironment,
  buyerId: number,
  body: OrderBody,
): Promise<OrderAnswer> {
  const orderId = await env.db.transaction(async (tx) => {
    const quote = await quoteFor(
      env,
      tx,
      {
        pluginId: body.pluginId,
        licenseKind: body.licenseKind,
        billingPeriod: body.billingPeriod,
        quantity: body.quantity,
        couponCode: body.couponCode,
        buyerId,
      },
      { strictCoupon: true, lockCoupon: true },
    );
    if (body.licenseKind === 'PERSONAL' && body.quantity !== 1) {
      throw new ApiError(
        'validation',
        'A personal licence is for one person: buy one, or buy organization licences for a team.',
      );
    }
    if (quote.couponId !== null) {
      await tx.execute(sql`UPDATE coupons SET uses = uses + 1 WHERE id = ${quote.couponId}`);
    }
    const [order] = await selectRows<{ id: number }>(
      tx,
      sql`INSERT INTO orders (buyer_id, plugin_id, license_kind, billing_period, quantity, licensee, country_code,
          currency, coupon_id, subtotal_minor, discount_minor, total_minor, lines, payment_provider)
        VALUES (${buyerId}, ${body.pluginId}, ${quote.licenseKind}, ${quote.billingPeriod}, ${quote.quantity},
          ${body.licensee.trim()}, ${body.countryCode}, ${env.currency.code}, ${quote.couponId}, ${quote.subtotalMinor},
          ${quote.discountMinor}, ${quote.totalMinor}, ${JSON.stringify(quote.lines)}::jsonb, ${env.payments.name})
        RETURNING id`,
    );
    if (!order) throw new Error('The order was not stored.');
    await env.payments.startPayment(tx, {
      orderId: order.id,
      amountMinor: quote.totalMinor,
      currency: env.currency.code,
      buyerId,
    });
    return order.id;
  });
  const order = await loadOrder(env.db, orderId);
  if (!order) throw new Error('The order disappeared.');
  return order;
}

/**
 * Money arrived for an order: the order is paid, its invoice too, the licence is issued (from the end of the
 * buyer's current licence of the same kind, so a renewal does not lose days) and the sale is recorded with
 * the marketplace's commission. Paying twice is refused; nothing is done twice.
 */
export async function markOrderPaid(
  env: CommerceEnvironment,
  orderId: number,
  paidBy: number | null,
): Promise<OrderAnswer> {
  await env.keys.prepare();
  await env.db.transaction(async (tx) => {
    const [order] = await selectRows<{
      id: number;
      buyer_id: number;
      plugin_id: number;
      license_kind: LicenseKind;
      billing_period: BillingPeriod;
      quantity: number;
      licensee: string;
      country_code: string;
      currency: string;
      subtotal_minor: string | number;
      discount_minor: string | number;
      total_minor: string | number;
      status: OrderStatus;
      created_at: Date;
    }>(tx, sql`SELECT * FROM orders WHERE id = ${orderId} FOR UPDATE`);
    if (!order) throw new ApiError('notFound', `There is no order ${orderId}.`);
    if (order.status !== 'AWAITING_PAYMENT') {
      throw new ApiError(
        'conflict',
        `Order ${orderId} is ${order.status === 'PAID' ? 'already paid' : 'cancelled'}.`,
      );
    }
    const now = new Date();
    await tx.execute(sql`UPDATE orders SET status = 'PAID', paid_at = ${now} WHERE id = ${orderId}`);
    await tx.execute(
      sql`UPDATE invoices SET status = 'PAID', paid_at = ${now}, marked_paid_by = ${paidBy} WHERE order_id = ${orderId}`,
    );
    const item = await requireItem(tx, order.plugin_id);
    const [current] = await selectRows<{ expires_at: Date }>(
      tx,
      sql`SELECT max(expires_at) AS expires_at FROM licenses WHERE user_id = ${order.buyer_id}
        AND plugin_id = ${order.plugin_id} AND license_kind = ${order.license_kind} AND order_id IS NOT NULL
        AND expires_at > ${now}`,
    );
    const startsAt = current?.expires_at ? new Date(current.expires_at) : now;
    await issueLicense(env, tx, {
      item,
      userId: order.buyer_id,
      orderId,
      trialId: null,
      licensee: order.licensee,
      licenseKind: order.license_kind,
      seats: order.quantity,
      startsAt,
      expiresAt: addMonths(startsAt, BILLING_PERIOD_MONTHS[order.billing_period]),
    });
    const total = Number(order.total_minor);
    const commission = percentOf(total, env.commissionPercent);
    await tx.execute(
      sql`INSERT INTO sales (plugin_id, order_id, sold_at, license_kind, billing_period, quantity, country_code,
          currency, gross_minor, discount_minor, commission_minor, net_minor, after_trial)
        VALUES (${order.plugin_id}, ${orderId}, ${now}, ${order.license_kind}, ${order.billing_period},
          ${order.quantity}, ${order.country_code}, ${order.currency}, ${Number(order.subtotal_minor)},
          ${Number(order.discount_minor)}, ${commission}, ${total - commission},
          EXISTS (SELECT 1 FROM trials WHERE plugin_id = ${order.plugin_id} AND user_id = ${order.buyer_id}
            AND started_at <= ${order.created_at}))`,
    );
  });
  const order = await loadOrder(env.db, orderId);
  if (!order) throw new Error('The order disappeared.');
  return order;
}

/** The buyer (or an administrator) cancels an order that is not paid; its coupon use is given back. */
export async function cancelOrder(db: Database, orderId: number): Promise<OrderAnswer> {
  await db.transaction(async (tx) => {
    const [order] = await selectRows<{ status: OrderStatus; coupon_id: number | null }>(
      tx,
      sql`SELECT status, coupon_id FROM orders WHERE id = ${orderId} FOR UPDATE`,
    );
    if (!order) throw new ApiError('notFound', `There is no order ${orderId}.`);
    if (order.status !== 'AWAITING_PAYMENT') {
      throw new ApiError(
        'conflict',
        `Order ${orderId} is ${order.status === 'PAID' ? 'paid' : 'already cancelled'}, so it cannot be cancelled.`,
      );
    }
    await tx.execute(sql`UPDATE orders SET status = 'CANCELLED' WHERE id = ${orderId}`);
    await tx.execute(sql`UPDATE invoices SET status = 'VOID' WHERE order_id = ${orderId}`);
    if (order.coupon_id !== null) {
      await tx.execute(sql`UPDATE coupons SET uses = greatest(uses - 1, 0) WHERE id = ${order.coupon_id}`);
    }
  });
  const order = await loadOrder(db, orderId);
  if (!order) throw new Error('The order disappeared.');
  return order;
}

/** The buyer of an order, for its access rule. */
export async function orderBuyer(db: Queryable, orderId: number): Promise<number | undefined> {
  const [row] = await selectRows<{ buyer_id: number }>(
    db,
    sql`SELECT buyer_id FROM orders WHERE id = ${orderId}`,
  );
  return row?.buyer_id;
}

/** The order an invoice bills. */
export async function orderOfInvoice(db: Queryable, invoiceId: number): Promise<number | undefined> {
  const [row] = await selectRows<{ order_id: number }>(
    db,
    sql`SELECT order_id FROM invoices WHERE id = ${invoiceId}`,
  );
  return row?.order_id;
}
