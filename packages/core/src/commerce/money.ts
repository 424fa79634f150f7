/**
 * Money as the marketplace keeps it: whole numbers of the currency's minor unit (cents for USD), never
 * floats, in the one currency the operator configures. Percentages are whole percents.
 */

/** A currency the marketplace can sell in: its ISO 4217 code and how many digits its minor unit has. */
export interface Currency {
  code: string;
  minorDigits: number;
}

/** The currencies an operator can choose (ISO 4217 codes and their minor units). */
export const CURRENCIES: Readonly<Record<string, Currency>> = Object.freeze({
  USD: { code: 'USD', minorDigits: 2 },
  EUR: { code: 'EUR', minorDigits: 2 },
  GBP: { code: 'GBP', minorDigits: 2 },
  CHF: { code: 'CHF', minorDigits: 2 },
  CZK: { code: 'CZK', minorDigits: 2 },
  PLN: { code: 'PLN', minorDigits: 2 },
  SEK: { code: 'SEK', minorDigits: 2 },
  CAD: { code: 'CAD', minorDigits: 2 },
  AUD: { code: 'AUD', minorDigits: 2 },
  CNY: { code: 'CNY', minorDigits: 2 },
  INR: { code: 'INR', minorDigits: 2 },
  JPY: { code: 'JPY', minorDigits: 0 },
  KRW: { code: 'KRW', minorDigits: 0 },
});

export const DEFAULT_CURRENCY_CODE = 'USD';

/** The currency of an ISO code, or undefined when the marketplace cannot sell in it. */
export function currencyOf(code: string): Currency | undefined {
  return CURRENCIES[code.trim().toUpperCase()];
}

/**
 * The largest price of one licence, in minor units: ten million in a two-digit currency. Bounds keep every
 * product of amount, quantity and percent well inside the integers a double holds exactly.
 */
export const MAX_UNIT_PRICE_MINOR = 1_000_000_000;
/** The most licences one order may buy. */
export const MAX_ORDER_QUANTITY = 10_000;

/** Whether a value is an amount of money in minor units the marketplace accepts (a whole number >= 0). */
export function isMinorAmount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** Whether a value is a whole percent from 0 to 100. */
export function isWholePercent(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 100;
}

/**
 * `percent` percent of an amount, rounded half up to the minor unit, in integers only. With
 * amount <= 10^13 and percent <= 100 every intermediate stays below 2^53.
 */
export function percentOf(amountMinor: number, percent: number): number {
  return Math.floor((amountMinor * percent + 50) / 100);
}

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** The sign, whole part and fraction (with its point) of an amount in minor units, as digits. */
function splitMinor(
  amountMinor: number,
  currency: Currency,
): { sign: string; whole: string; fraction: string } {
  const digits = String(Math.abs(Math.trunc(amountMinor))).padStart(currency.minorDigits + 1, '0');
  const cut = digits.length - currency.minorDigits;
  return {
    sign: amountMinor < 0 ? '-' : '',
    whole: digits.slice(0, cut),
    fraction: currency.minorDigits > 0 ? `.${digits.slice(cut)}` : '',
  };
}

/**
 * An amount for people, exactly: `formatMoney(123456, USD)` is '$1,234.56', `formatMoney(-500, USD)` is
 * '-$5.00'. Numbers are written en-US (spec §9); the symbol is the currency's well-known one where it has
 * one, otherwise its code and a space.
 */
export function formatMoney(amountMinor: number, currency: Currency): string {
  const { sign, whole, fraction } = splitMinor(amountMinor, currency);
  const symbol = CURRENCY_SYMBOLS[currency.code] ?? `${currency.code} `;
  return `${sign}${symbol}${groupThousands(whole)}${fraction}`;
}

const CURRENCY_SYMBOLS: Readonly<Record<string, string>> = {
  USD: '$',
  EUR: '€',
  GBP: '£',
  JPY: '¥',
  CNY: 'CN¥',
  INR: '₹',
  KRW: '₩',
};

/**
 * An amount as it is written in a form or a CSV file ('1234.5', '1,234.50', '12') read into minor units
 * without floating point; undefined when it is not a plain non-negative amount with at most the currency's
 * minor digits.
 */
export function parseMoney(text: string, currency: Currency): number | undefined {
  const trimmed = text.trim();
  // Commas only group thousands ('1,234.50'); '9,90' is not read as 990.
  if (!/^(\d+|\d{1,3}(,\d{3})+)(\.\d+)?$/.test(trimmed)) return undefined;
  const cleaned = trimmed.replace(/,/g, '');
  const pattern =
    currency.minorDigits > 0 ? new RegExp(`^(\\d+)(?:\\.(\\d{1,${currency.minorDigits}}))?$`) : /^(\d+)$/;
  const match = pattern.exec(cleaned);
  if (!match?.[1]) return undefined;
  const fraction = (match[2] ?? '').padEnd(currency.minorDigits, '0');
  const minor = Number(`${match[1]}${fraction}`);
  return Number.isSafeInteger(minor) ? minor : undefined;
}

/** An amount in minor units as plain decimal text for machines (CSV): 123456 -> '1234.56'. */
export function minorToDecimalText(amountMinor: number, currency: Currency): string {
  const { sign, whole, fraction } = splitMinor(amountMinor, currency);
  return `${sign}${whole}${fraction}`;
}
