import { MAX_ORDER_QUANTITY, MAX_UNIT_PRICE_MINOR, percentOf } from './money';
import type { CommunityProgram, OfferDiscountKind } from './terms';

/*
 * How a price is quoted. The order is fixed and documented, because discounts compose: each one is taken
 * from what the ones before it left.
 *
 *   1. LIST        unit price x quantity (the subtotal)
 *   2. VOLUME      the item's volume tier for the quantity: percent off
 *   3. CONTINUITY  the buyer's year of continuous subscription to the item: percent off
 *   4. PROGRAM     a community program the buyer was accepted into: percent off (100 = free)
 *   5. COUPON      the coupon's offer: percent off, or an amount off the order (never more than what is left)
 *
 * Percentages are rounded half up to the minor unit, so every line is a whole number of minor units and the
 * total is exactly the subtotal minus the discount lines. Nothing is ever below zero.
 */

export const QUOTE_LINE_KINDS = ['LIST', 'VOLUME', 'CONTINUITY', 'PROGRAM', 'COUPON'] as const;
export type QuoteLineKind = (typeof QUOTE_LINE_KINDS)[number];

export interface VolumeTier {
  /** The tier applies from this many licences on (2 or more). */
  minQuantity: number;
  percent: number;
}

export interface ContinuityStep {
  /** The subscription year from which the percent applies (2 = the second year). */
  year: number;
  percent: number;
}

export interface QuoteDiscountOffer {
  kind: OfferDiscountKind;
  /** A whole percent for PERCENT, minor units off the order for AMOUNT. */
  value: number;
  code: string;
}

export interface QuoteInput {
  unitPriceMinor: number;
  quantity: number;
  volumeTiers?: readonly VolumeTier[];
  continuitySteps?: readonly ContinuityStep[];
  /** The year of continuous subscription this order pays for; 1 (or absent) for a new subscription. */
  subscriptionYear?: number;
  program?: { program: CommunityProgram; percent: number };
  coupon?: QuoteDiscountOffer;
}

export interface QuoteLine {
  kind: QuoteLineKind;
  /** Minor units: the subtotal for LIST, a negative amount (or 0) for each discount. */
  amountMinor: number;
  /** The percent a discount line took, when it is a percentage. */
  percent?: number;
  /** What the line is, for people: '5 licences x $100.00', 'Volume discount (10+ licences)'. */
  detail: string;
}

export interface Quote {
  quantity: number;
  unitPriceMinor: number;
  subtotalMinor: number;
  lines: QuoteLine[];
  discountMinor: number;
  totalMinor: number;
}

export class QuoteInputError extends Error {
  override name = 'QuoteInputError';
}

/** The volume tier for a quantity: the one with the highest threshold it reaches. */
export function volumeTierFor(tiers: readonly VolumeTier[], quantity: number): VolumeTier | undefined {
  let best: VolumeTier | undefined;
  for (const tier of tiers) {
    if (quantity >= tier.minQuantity && (!best || tier.minQuantity > best.minQuantity)) best = tier;
  }
  return best;
}

/** The continuity percent for a subscription year: the step with the highest year it reaches. */
export function continuityStepFor(
  steps: readonly ContinuityStep[],
  year: number,
): ContinuityStep | undefined {
  let best: ContinuityStep | undefined;
  for (const step of steps) {
    if (year >= step.year && (!best || step.year > best.year)) best = step;
  }
  return best;
}

function checkInput(input: QuoteInput): void {
  const { unitPriceMinor, quantity } = input;
  if (!Number.isInteger(unitPriceMinor) || unitPriceMinor < 0 || unitPriceMinor > MAX_UNIT_PRICE_MINOR) {
    throw new QuoteInputError(
      `A unit price must be a whole number of minor units from 0 to ${MAX_UNIT_PRICE_MINOR}.`,
    );
  }
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_ORDER_QUANTITY) {
    throw new QuoteInputError(`The quantity must be a whole number from 1 to ${MAX_ORDER_QUANTITY}.`);
  }
  const percents = [
    ...(input.volumeTiers ?? []).map((tier) => tier.percent),
    ...(input.continuitySteps ?? []).map((step) => step.percent),
    ...(input.program ? [input.program.percent] : []),
    ...(input.coupon?.kind === 'PERCENT' ? [input.coupon.value] : []),
  ];
  if (percents.some((percent) => !Number.isInteger(percent) || percent < 0 || percent > 100)) {
    throw new QuoteInputError('A discount must be a whole percent from 0 to 100.');
  }
  if (
    input.coupon?.kind === 'AMOUNT' &&
    (!Number.isSafeInteger(input.coupon.value) || input.coupon.value < 0)
  ) {
    throw new QuoteInputError('An amount off must be a whole number of minor units, 0 or more.');
  }
}

/**
 * The quote for an order, line by line in the documented order. `describeMoney` writes amounts for the
 * lines' details (the caller knows the currency).
 */
export function priceQuote(input: QuoteInput, describeMoney: (minor: number) => string): Quote {
  checkInput(input);
  const { unitPriceMinor, quantity } = input;
  const subtotalMinor = unitPriceMinor * quantity;
  const lines: QuoteLine[] = [
    {
      kind: 'LIST',
      amountMinor: subtotalMinor,
      detail: `${quantity} ${quantity === 1 ? 'licence' : 'licences'} x ${describeMoney(unitPriceMinor)}`,
    },
  ];
  let remaining = subtotalMinor;
  const takePercent = (kind: QuoteLineKind, percent: number, detail: string) => {
    const amount = Math.min(remaining, percentOf(remaining, percent));
    remaining -= amount;
    lines.push({ kind, amountMinor: -amount, percent, detail });
  };

  const tier = volumeTierFor(input.volumeTiers ?? [], quantity);
  if (tier && tier.percent > 0) {
    takePercent('VOLUME', tier.percent, `Volume discount (${tier.minQuantity}+ licences)`);
  }
  const year = input.subscriptionYear ?? 1;
  const step = year > 1 ? continuityStepFor(input.continuitySteps ?? [], year) : undefined;
  if (step && step.percent > 0) {
    takePercent('CONTINUITY', step.percent, `Continuity discount (subscription year ${year})`);
  }
  if (input.program && input.program.percent > 0) {
    takePercent('PROGRAM', input.program.percent, `Program discount (${input.program.program})`);
  }
  const coupon = input.coupon;
  if (coupon) {
    if (coupon.kind === 'PERCENT') {
      takePercent('COUPON', coupon.value, `Coupon ${coupon.code}`);
    } else {
      const amount = Math.min(remaining, coupon.value);
      remaining -= amount;
      lines.push({
        kind: 'COUPON',
        amountMinor: -amount,
        detail: `Coupon ${coupon.code} (${describeMoney(coupon.value)} off)`,
      });
    }
  }
  return {
    quantity,
    unitPriceMinor,
    subtotalMinor,
    lines,
    discountMinor: subtotalMinor - remaining,
    totalMinor: remaining,
  };
}

/** Why a coupon does not apply to an order, each with the sentence the buyer reads. */
export const COUPON_REFUSALS = {
  UNKNOWN: 'There is no such coupon.',
  NOT_STARTED: 'This coupon is not valid yet.',
  EXPIRED: 'This coupon has expired.',
  USED_UP: 'This coupon has been used up.',
  WRONG_ITEM: 'This coupon is for another item.',
  WRONG_LICENSE_KIND: 'This coupon is not valid for this kind of licence.',
} as const;
export type CouponRefusal = keyof typeof COUPON_REFUSALS;

export interface CouponState {
  pluginId: number;
  validFrom: Date;
  validUntil: Date;
  licenseKinds: readonly string[];
  /** How often the coupon may be used; null: without limit. */
  maxUses: number | null;
  uses: number;
}

/** Whether a coupon applies to an order of an item and licence kind at a time; the refusal when not. */
export function couponRefusal(
  coupon: CouponState | undefined,
  order: { pluginId: number; licenseKind: string; at: Date },
): CouponRefusal | undefined {
  if (!coupon) return 'UNKNOWN';
  if (coupon.pluginId !== order.pluginId) return 'WRONG_ITEM';
  if (order.at < coupon.validFrom) return 'NOT_STARTED';
  if (order.at >= coupon.validUntil) return 'EXPIRED';
  if (coupon.maxUses !== null && coupon.uses >= coupon.maxUses) return 'USED_UP';
  if (coupon.licenseKinds.length > 0 && !coupon.licenseKinds.includes(order.licenseKind)) {
    return 'WRONG_LICENSE_KIND';
  }
  return undefined;
}
