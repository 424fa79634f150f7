import type { Price } from '@marketplace/api-client';
import {
  BILLING_PERIOD_LABELS,
  LICENSE_KIND_LABELS,
  MAX_UNIT_PRICE_MINOR,
  minorToDecimalText,
  parseMoney,
  type BillingPeriod,
  type Currency,
  type LicenseKind,
} from '@marketplace/core';

/*
 * Amounts as people type them in the selling forms ('12.50', '1,200') and as the API takes them (whole minor
 * units). Reading goes through core's parseMoney, never through floats.
 */

/** The four prices an item can have, in the order the forms show them. */
export const PRICE_SLOTS: readonly { licenseKind: LicenseKind; billingPeriod: BillingPeriod }[] = [
  { licenseKind: 'PERSONAL', billingPeriod: 'MONTHLY' },
  { licenseKind: 'PERSONAL', billingPeriod: 'YEARLY' },
  { licenseKind: 'ORGANIZATION', billingPeriod: 'MONTHLY' },
  { licenseKind: 'ORGANIZATION', billingPeriod: 'YEARLY' },
];

export type PriceSlotKey = `${LicenseKind}-${BillingPeriod}`;

/** The typed text of each price; an empty text means that licence is not sold. */
export type PriceTexts = Record<PriceSlotKey, string>;

export function slotKey(slot: { licenseKind: LicenseKind; billingPeriod: BillingPeriod }): PriceSlotKey {
  return `${slot.licenseKind}-${slot.billingPeriod}`;
}

/** What a price is called in a form and in its messages, e.g. "Personal, monthly". */
export function slotLabel(slot: { licenseKind: LicenseKind; billingPeriod: BillingPeriod }): string {
  return `${LICENSE_KIND_LABELS[slot.licenseKind]}, ${BILLING_PERIOD_LABELS[slot.billingPeriod].toLowerCase()}`;
}

/** The form's texts for a price list: each set price as plain decimals ('12.50'), the others empty. */
export function priceTextsOf(prices: readonly Price[], currency: Currency): PriceTexts {
  const texts = Object.fromEntries(PRICE_SLOTS.map((slot) => [slotKey(slot), ''])) as PriceTexts;
  for (const price of prices) texts[slotKey(price)] = minorToDecimalText(price.amountMinor, currency);
  return texts;
}

export type Reading<T> = { ok: true; value: T } | { ok: false; error: string };

/** One typed amount in minor units, or a sentence saying what is wrong with it. */
export function readAmount(text: string, currency: Currency, what: string): Reading<number> {
  // parseMoney refuses a decimal comma ('9,90'); this says why, in the form's words.
  if (text.includes(',') && !/^\s*\d{1,3}(,\d{3})+(\.\d*)?\s*$/.test(text)) {
    return {
      ok: false,
      error: `${what}: “${text.trim()}” — write decimals with a point (9.90); a comma only groups thousands (1,200).`,
    };
  }
  const minor = parseMoney(text, currency);
  if (minor === undefined) {
    const example = currency.minorDigits > 0 ? `12.${'5'.padEnd(currency.minorDigits, '0')}` : '1200';
    return {
      ok: false,
      error: `${what}: “${text.trim()}” is not an amount of ${currency.code}; write it like ${example}.`,
    };
  }
  if (minor > MAX_UNIT_PRICE_MINOR) {
    return {
      ok: false,
      error: `${what}: ${text.trim()} is more than the marketplace allows (${minorToDecimalText(MAX_UNIT_PRICE_MINOR, currency)}).`,
    };
  }
  return { ok: true, value: minor };
}

/**
 * The price list a form's texts describe: each filled price in minor units, empty ones left out (not sold).
 * A price list needs at least one price; a price of zero is refused (a free licence is a program, not a price).
 */
export function readPriceTexts(texts: PriceTexts, currency: Currency): Reading<Price[]> {
  const prices: Price[] = [];
  for (const slot of PRICE_SLOTS) {
    const text = texts[slotKey(slot)].trim();
    if (text === '') continue;
    const amount = readAmount(text, currency, slotLabel(slot));
    if (!amount.ok) return amount;
    if (amount.value === 0) {
      return {
        ok: false,
        error: `${slotLabel(slot)}: a price of zero is not a price; leave it empty to not sell this licence.`,
      };
    }
    prices.push({ ...slot, amountMinor: amount.value });
  }
  if (prices.length === 0) return { ok: false, error: 'Give at least one price.' };
  return { ok: true, value: prices };
}

/** A whole number typed in a form (quantities, percents, days), or undefined when it is not one. */
export function readWholeNumber(text: string): number | undefined {
  const cleaned = text.trim();
  if (!/^\d{1,9}$/.test(cleaned)) return undefined;
  return Number(cleaned);
}
