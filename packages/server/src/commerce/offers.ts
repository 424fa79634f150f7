import { randomBytes } from 'node:crypto';
import type { CouponAnswer, OfferAnswer, OfferBody } from '@marketplace/api-contract';
import {
  couponCodeFromBytes,
  DAY_MS,
  MAX_UNIT_PRICE_MINOR,
  offersConflict,
  parseStatisticsDate,
  type CouponState,
  type LicenseKind,
  type OfferDiscountKind,
} from '@marketplace/core';
import { sql } from 'drizzle-orm';
import type { Database, Queryable } from '../db/client';
import { ApiError } from '../plugins/app/errors';
import { selectRows } from '../search/sql';

/*
 * Offers are a vendor's discounts with a validity window (whole UTC days, inclusive) and the licence kinds
 * they cover; coupons are the codes that carry them, each usable `maxUsesPerCoupon` times. Two offers of one
 * item that overlap in time and cover a common licence kind conflict and are refused.
 */

/** The instants of an offer's window: from the start of its first day to the end of its last. */
export function offerWindow(validFrom: string, validUntil: string): { from: Date; until: Date } {
  const from = parseStatisticsDate(validFrom);
  const lastDay = parseStatisticsDate(validUntil);
  if (!from) throw new ApiError('validation', `The first day "${validFrom}" is not a date.`);
  if (!lastDay) throw new ApiError('validation', `The last day "${validUntil}" is not a date.`);
  if (lastDay < from) {
    throw new ApiError('validation', `The offer ends (${validUntil}) before it starts (${validFrom}).`);
  }
  return { from, until: new Date(lastDay.getTime() + DAY_MS) };
}

interface OfferRow {
  id: number;
  plugin_id: number;
  name: string;
  discount_kind: OfferDiscountKind;
  discount_value: string | number;
  valid_from: Date;
  valid_until: Date;
  license_kinds: LicenseKind[];
  max_uses_per_coupon: number | null;
  created_at: Date;
  coupon_count: number;
  used_count: number;
}

function offerAnswer(row: OfferRow): OfferAnswer {
  return {
    id: row.id,
    pluginId: row.plugin_id,
    name: row.name,
    discountKind: row.discount_kind,
    discountValue: Number(row.discount_value),
    validFrom: new Date(row.valid_from).toISOString().slice(0, 10),
    validUntil: new Date(new Date(row.valid_until).getTime() - DAY_MS).toISOString().slice(0, 10),
    licenseKinds: row.license_kinds,
    maxUsesPerCoupon: row.max_uses_per_coupon,
    couponCount: Number(row.coupon_count),
    usedCount: Number(row.used_count),
    createdAt: new Date(row.created_at).getTime(),
  };
}

const OFFER_SELECT = sql`SELECT o.id, o.plugin_id, o.name, o.discount_kind, o.discount_value, o.valid_from,
    o.valid_until, o.license_kinds, o.max_uses_per_coupon, o.created_at,
    (SELECT count(*)::int FROM coupons c WHERE c.offer_id = o.id) AS coupon_count,
    (SELECT coalesce(sum(c.uses), 0)::int FROM coupons c WHERE c.offer_id = o.id) AS used_count
  FROM offers o`;

export async function listOffers(db: Queryable, pluginId: number): Promise<OfferAnswer[]> {
  const rows = await selectRows<OfferRow>(
    db,
    sql`${OFFER_SELECT} WHERE o.plugin_id = ${pluginId} ORDER BY o.valid_from DESC, o.id DESC`,
  );
  return rows.map(offerAnswer);
}

export async function loadOffer(db: Queryable, pluginId: number, offerId: number): Promise<OfferAnswer> {
  const [row] = await selectRows<OfferRow>(
    db,
    sql`${OFFER_SELECT} WHERE o.plugin_id = ${pluginId} AND o.id = ${offerId}`,
  );
  if (!row) throw new ApiError('notFound', `This item has no offer ${offerId}.`);
  return offerAnswer(row);
}

function checkOffer(body: OfferBody): { from: Date; until: Date; licenseKinds: LicenseKind[] } {
  const window = offerWindow(body.validFrom, body.validUntil);
  if (body.discountKind === 'PERCENT' && body.discountValue > 100) {
    throw new ApiError('validation', `A discount cannot be more than 100%, got ${body.discountValue}%.`);
  }
  if (body.discountKind === 'AMOUNT' && body.discountValue > MAX_UNIT_PRICE_MINOR) {
    throw new ApiError('validation', 'The amount off is larger than any price the marketplace allows.');
  }
  const licenseKinds = [...new Set(body.licenseKinds)];
  return { ...window, licenseKinds };
}

async function refuseConflicts(
  db: Queryable,
  pluginId: number,
  candidate: { from: Date; until: Date; licenseKinds: LicenseKind[] },
  exceptOfferId: number | null,
): Promise<void> {
  const others = await selectRows<{
    id: number;
    name: string;
    valid_from: Date;
    valid_until: Date;
    license_kinds: string[];
  }>(
    db,
    sql`SELECT id, name, valid_from, valid_until, license_kinds FROM offers
      WHERE plugin_id = ${pluginId} AND valid_from < ${candidate.until} AND valid_until > ${candidate.from}
        ${exceptOfferId === null ? sql`` : sql`AND id <> ${exceptOfferId}`}`,
  );
  for (const other of others) {
    const conflict = offersConflict(
      { validFrom: candidate.from, validUntil: candidate.until, licenseKinds: candidate.licenseKinds },
      {
        validFrom: new Date(other.valid_from),
        validUntil: new Date(other.valid_until),
        licenseKinds: other.license_kinds,
      },
    );
    if (conflict) {
      throw new ApiError(
        'validation',
        `This offer overlaps the offer "${other.name}" (${new Date(other.valid_from).toISOString().slice(0, 10)} to ${new Date(new Date(other.valid_until).getTime() - DAY_MS).toISOString().slice(0, 10)}) for the same kind of licence: change the days or the licence kinds so only one applies at a time.`,
      );
    }
  }
}

export async function createOffer(
  db: Database,
  pluginId: number,
  authorId: number,
  body: OfferBody,
): Promise<OfferAnswer> {
  const checked = checkOffer(body);
  return db.transaction(async (tx) => {
    // Serialises offer changes of one item, so two concurrent overlapping offers cannot both pass the check.
    await tx.execute(sql`SELECT id FROM plugins WHERE id = ${pluginId} FOR UPDATE`);
    await refuseConflicts(tx, pluginId, checked, null);
    const [row] = await selectRows<{ id: number }>(
      tx,
      sql`INSERT INTO offers (plugin_id, name, discount_kind, discount_value, valid_from, valid_until, license_kinds,
          max_uses_per_coupon, created_by)
        VALUES (${pluginId}, ${body.name.trim()}, ${body.discountKind}, ${body.discountValue}, ${checked.from},
          ${checked.until}, ${sql`ARRAY[${sql.join(
            checked.licenseKinds.map((kind) => sql`${kind}`),
            sql`, `,
          )}]::text[]`},
          ${body.maxUsesPerCoupon}, ${authorId})
        RETURNING id`,
    );
    if (!row) throw new Error('The offer was not stored.');
    return loadOffer(tx, pluginId, row.id);
  });
}

export async function updateOffer(
  db: Database,
  pluginId: number,
  offerId: number,
  body: OfferBody,
): Promise<OfferAnswer> {
  const checked = checkOffer(body);
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT id FROM plugins WHERE id = ${pluginId} FOR UPDATE`);
    await loadOffer(tx, pluginId, offerId);
    await refuseConflicts(tx, pluginId, checked, offerId);
    await tx.execute(
      sql`UPDATE offers SET name = ${body.name.trim()}, discount_kind = ${body.discountKind},
          discount_value = ${body.discountValue}, valid_from = ${checked.from}, valid_until = ${checked.until},
          license_kinds = ${sql`ARRAY[${sql.join(
            checked.licenseKinds.map((kind) => sql`${kind}`),
            sql`, `,
          )}]::text[]`},
          max_uses_per_coupon = ${body.maxUsesPerCoupon}
        WHERE id = ${offerId} AND plugin_id = ${pluginId}`,
    );
    return loadOffer(tx, pluginId, offerId);
  });
}

/** Deletes an offer and its coupons; an offer whose coupons were used is kept for the orders' record. */
export async function deleteOffer(db: Queryable, pluginId: number, offerId: number): Promise<void> {
  const offer = await loadOffer(db, pluginId, offerId);
  if (offer.usedCount > 0) {
    throw new ApiError(
      'conflict',
      `The offer "${offer.name}" has coupons that were used, so it is kept for the orders that used them. Change its last day to end it.`,
    );
  }
  await db.execute(sql`DELETE FROM offers WHERE id = ${offerId} AND plugin_id = ${pluginId}`);
}

/** The offer valid now, for coupons asked for without naming an offer; a 400 when none or several are. */
export async function currentOfferId(db: Queryable, pluginId: number): Promise<number> {
  const rows = await selectRows<{ id: number }>(
    db,
    sql`SELECT id FROM offers WHERE plugin_id = ${pluginId} AND valid_from <= now() AND valid_until > now()`,
  );
  if (rows.length === 1) return rows[0]!.id;
  throw new ApiError(
    'validation',
    rows.length === 0
      ? 'No offer of this item is valid today: create an offer first, or name one with offerId.'
      : 'Several offers of this item are valid today: name the one the coupons are for with offerId.',
  );
}

interface CouponRow {
  id: number;
  offer_id: number;
  code: string;
  uses: number;
  sent_at: Date | null;
  sent_to: string | null;
  created_at: Date;
}

function couponAnswer(row: CouponRow): CouponAnswer {
  return {
    id: row.id,
    offerId: row.offer_id,
    code: row.code,
    uses: row.uses,
    sentAt: row.sent_at ? new Date(row.sent_at).getTime() : null,
    sentTo: row.sent_to,
    createdAt: new Date(row.created_at).getTime(),
  };
}

export async function listCoupons(
  db: Queryable,
  pluginId: number,
  offerId: number | null,
): Promise<CouponAnswer[]> {
  const rows = await selectRows<CouponRow>(
    db,
    sql`SELECT c.id, c.offer_id, c.code, c.uses, c.sent_at, c.sent_to, c.created_at
      FROM coupons c JOIN offers o ON o.id = c.offer_id
      WHERE o.plugin_id = ${pluginId} ${offerId === null ? sql`` : sql`AND o.id = ${offerId}`}
      ORDER BY c.id LIMIT 5000`,
  );
  return rows.map(couponAnswer);
}

/** Makes `count` new coupons for an offer, with codes drawn from a cryptographic source. */
export async function generateCoupons(
  db: Database,
  pluginId: number,
  offerId: number,
  count: number,
): Promise<CouponAnswer[]> {
  await loadOffer(db, pluginId, offerId);
  const created: CouponAnswer[] = [];
  await db.transaction(async (tx) => {
    while (created.length < count) {
      const code = couponCodeFromBytes(randomBytes(16));
      // A code already taken (one chance in 32^12 per pair) is simply drawn again.
      const rows = await selectRows<CouponRow>(
        tx,
        sql`INSERT INTO coupons (offer_id, code) VALUES (${offerId}, ${code}) ON CONFLICT (code) DO NOTHING
          RETURNING id, offer_id, code, uses, sent_at, sent_to, created_at`,
      );
      if (rows[0]) created.push(couponAnswer(rows[0]));
    }
  });
  return created;
}

export async function markCouponSent(
  db: Queryable,
  pluginId: number,
  couponId: number,
  sentTo: string | undefined,
): Promise<CouponAnswer> {
  const [row] = await selectRows<CouponRow>(
    db,
    sql`UPDATE coupons c SET sent_at = now(), sent_to = ${sentTo?.trim() || null}
      FROM offers o WHERE o.id = c.offer_id AND o.plugin_id = ${pluginId} AND c.id = ${couponId}
      RETURNING c.id, c.offer_id, c.code, c.uses, c.sent_at, c.sent_to, c.created_at`,
  );
  if (!row) throw new ApiError('notFound', `This item has no coupon ${couponId}.`);
  return couponAnswer(row);
}

export interface CouponForQuote extends CouponState {
  couponId: number;
  code: string;
  discountKind: OfferDiscountKind;
  discountValue: number;
}

/** A coupon by its code with its offer, as a quote needs it; `lock` holds it for an order's transaction. */
export async function findCoupon(
  db: Queryable,
  code: string,
  options: { lock?: boolean } = {},
): Promise<CouponForQuote | undefined> {
  const [row] = await selectRows<{
    id: number;
    code: string;
    uses: number;
    plugin_id: number;
    discount_kind: OfferDiscountKind;
    discount_value: string | number;
    valid_from: Date;
    valid_until: Date;
    license_kinds: string[];
    max_uses_per_coupon: number | null;
  }>(
    db,
    sql`SELECT c.id, c.code, c.uses, o.plugin_id, o.discount_kind, o.discount_value, o.valid_from, o.valid_until,
        o.license_kinds, o.max_uses_per_coupon
      FROM coupons c JOIN offers o ON o.id = c.offer_id WHERE c.code = ${code}
      ${options.lock ? sql`FOR UPDATE OF c` : sql``}`,
  );
  if (!row) return undefined;
  return {
    couponId: row.id,
    code: row.code,
    pluginId: row.plugin_id,
    discountKind: row.discount_kind,
    discountValue: Number(row.discount_value),
    validFrom: new Date(row.valid_from),
    validUntil: new Date(row.valid_until),
    licenseKinds: row.license_kinds,
    maxUses: row.max_uses_per_coupon,
    uses: row.uses,
  };
}
