import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CURRENCIES,
  couponCodeFromBytes,
  couponRefusal,
  formatMoney,
  minorToDecimalText,
  normalizeCouponCode,
  offersConflict,
  parseMoney,
  percentOf,
  priceQuote,
  QUOTE_LINE_KINDS,
  QuoteInputError,
  type QuoteInput,
} from '.';

const USD = CURRENCIES.USD!;
const JPY = CURRENCIES.JPY!;
const usd = (minor: number) => formatMoney(minor, USD);

describe('money', () => {
  it('formats minor units exactly, en-US, in the currency', () => {
    expect(formatMoney(123456, USD)).toBe('$1,234.56');
    expect(formatMoney(5, USD)).toBe('$0.05');
    expect(formatMoney(-500, USD)).toBe('-$5.00');
    expect(formatMoney(1234567, JPY)).toBe('¥1,234,567');
    expect(formatMoney(990, CURRENCIES.CZK!)).toBe('CZK 9.90');
  });

  it('reads amounts people type without floating point', () => {
    expect(parseMoney('1,234.5', USD)).toBe(123450);
    expect(parseMoney('0.07', USD)).toBe(7);
    expect(parseMoney('19', USD)).toBe(1900);
    expect(parseMoney('1.005', USD)).toBeUndefined();
    expect(parseMoney('-3', USD)).toBeUndefined();
    expect(parseMoney('abc', USD)).toBeUndefined();
    expect(parseMoney('9,90', USD)).toBeUndefined();
    expect(parseMoney('12,345,678.9', USD)).toBe(1_234_567_890);
    expect(parseMoney('12.5', JPY)).toBeUndefined();
  });

  it('round-trips every amount through its decimal text', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 13 }), (minor) => {
        expect(parseMoney(minorToDecimalText(minor, USD), USD)).toBe(minor);
      }),
    );
  });

  it('rounds percentages half up to the minor unit', () => {
    expect(percentOf(1999, 20)).toBe(400); // 399.8
    expect(percentOf(250, 1)).toBe(3); // 2.5
    expect(percentOf(249, 1)).toBe(2); // 2.49
    expect(percentOf(1000, 100)).toBe(1000);
  });
});

const quoteInputs = fc.record({
  unitPriceMinor: fc.integer({ min: 0, max: 1_000_000_000 }),
  quantity: fc.integer({ min: 1, max: 10_000 }),
  volumeTiers: fc.array(
    fc.record({ minQuantity: fc.integer({ min: 2, max: 500 }), percent: fc.integer({ min: 0, max: 100 }) }),
    { maxLength: 4 },
  ),
  continuitySteps: fc.array(
    fc.record({ year: fc.integer({ min: 2, max: 5 }), percent: fc.integer({ min: 0, max: 100 }) }),
    { maxLength: 3 },
  ),
  subscriptionYear: fc.integer({ min: 1, max: 6 }),
  program: fc.option(
    fc.record({ program: fc.constant('STUDENTS' as const), percent: fc.integer({ min: 0, max: 100 }) }),
    { nil: undefined },
  ),
  coupon: fc.option(
    fc.oneof(
      fc.record({
        kind: fc.constant('PERCENT' as const),
        value: fc.integer({ min: 0, max: 100 }),
        code: fc.constant('C'),
      }),
      fc.record({
        kind: fc.constant('AMOUNT' as const),
        value: fc.integer({ min: 0, max: 10 ** 13 }),
        code: fc.constant('C'),
      }),
    ),
    { nil: undefined },
  ),
}) satisfies fc.Arbitrary<QuoteInput>;

describe('quotes', () => {
  it('applies volume, continuity, program and coupon in that order, each to what is left', () => {
    const quote = priceQuote(
      {
        unitPriceMinor: 10_000,
        quantity: 10,
        volumeTiers: [
          { minQuantity: 5, percent: 5 },
          { minQuantity: 10, percent: 10 },
        ],
        continuitySteps: [
          { year: 2, percent: 20 },
          { year: 3, percent: 40 },
        ],
        subscriptionYear: 2,
        coupon: { kind: 'AMOUNT', value: 2_500, code: 'SPRING' },
      },
      usd,
    );
    expect(quote.lines.map((line) => [line.kind, line.amountMinor])).toEqual([
      ['LIST', 100_000],
      ['VOLUME', -10_000], // 10% of 100,000
      ['CONTINUITY', -18_000], // 20% of 90,000
      ['COUPON', -2_500],
    ]);
    expect(quote.totalMinor).toBe(69_500);
    expect(quote.lines[0]?.detail).toBe('10 licences x $100.00');
  });

  it('never goes below zero, and the total is the sum of its lines', () => {
    fc.assert(
      fc.property(quoteInputs, (input) => {
        const quote = priceQuote(input, usd);
        expect(quote.totalMinor).toBeGreaterThanOrEqual(0);
        expect(quote.lines.reduce((sum, line) => sum + line.amountMinor, 0)).toBe(quote.totalMinor);
        expect(quote.subtotalMinor - quote.discountMinor).toBe(quote.totalMinor);
        for (const line of quote.lines) {
          expect(Number.isSafeInteger(line.amountMinor)).toBe(true);
          if (line.kind !== 'LIST') expect(line.amountMinor).toBeLessThanOrEqual(0);
        }
      }),
    );
  });

  it('keeps the documented order of its lines, each kind at most once', () => {
    fc.assert(
      fc.property(quoteInputs, (input) => {
        const kinds = priceQuote(input, usd).lines.map((line) => QUOTE_LINE_KINDS.indexOf(line.kind));
        expect(kinds).toEqual([...new Set(kinds)].sort((a, b) => a - b));
        expect(kinds[0]).toBe(0);
      }),
    );
  });

  it('takes each percentage from what the discounts before it left', () => {
    fc.assert(
      fc.property(quoteInputs, (input) => {
        const quote = priceQuote(input, usd);
        let remaining = quote.subtotalMinor;
        for (const line of quote.lines.slice(1)) {
          if (line.percent !== undefined) expect(-line.amountMinor).toBe(percentOf(remaining, line.percent));
          remaining += line.amountMinor;
        }
      }),
    );
  });

  it('refuses what is not money or a quantity, with a sentence', () => {
    expect(() => priceQuote({ unitPriceMinor: 10.5, quantity: 1 }, usd)).toThrow(QuoteInputError);
    expect(() => priceQuote({ unitPriceMinor: -1, quantity: 1 }, usd)).toThrow(/unit price/);
    expect(() => priceQuote({ unitPriceMinor: 100, quantity: 0 }, usd)).toThrow(/quantity/);
    expect(() =>
      priceQuote({ unitPriceMinor: 100, quantity: 1, volumeTiers: [{ minQuantity: 2, percent: 101 }] }, usd),
    ).toThrow(/percent/);
  });
});

describe('coupons and offers', () => {
  const coupon = {
    pluginId: 7,
    validFrom: new Date('2026-01-01T00:00:00Z'),
    validUntil: new Date('2026-02-01T00:00:00Z'),
    licenseKinds: ['PERSONAL'],
    maxUses: 2,
    uses: 1,
  };
  const at = new Date('2026-01-15T00:00:00Z');

  it('says why a coupon does not apply', () => {
    expect(couponRefusal(undefined, { pluginId: 7, licenseKind: 'PERSONAL', at })).toBe('UNKNOWN');
    expect(couponRefusal(coupon, { pluginId: 8, licenseKind: 'PERSONAL', at })).toBe('WRONG_ITEM');
    expect(couponRefusal(coupon, { pluginId: 7, licenseKind: 'PERSONAL', at: new Date('2025-12-31') })).toBe(
      'NOT_STARTED',
    );
    expect(couponRefusal(coupon, { pluginId: 7, licenseKind: 'PERSONAL', at: coupon.validUntil })).toBe(
      'EXPIRED',
    );
    expect(couponRefusal({ ...coupon, uses: 2 }, { pluginId: 7, licenseKind: 'PERSONAL', at })).toBe(
      'USED_UP',
    );
    expect(couponRefusal(coupon, { pluginId: 7, licenseKind: 'ORGANIZATION', at })).toBe(
      'WRONG_LICENSE_KIND',
    );
    expect(couponRefusal(coupon, { pluginId: 7, licenseKind: 'PERSONAL', at })).toBeUndefined();
    expect(
      couponRefusal({ ...coupon, maxUses: null, uses: 99 }, { pluginId: 7, licenseKind: 'PERSONAL', at }),
    ).toBeUndefined();
  });

  it('finds offers that conflict: overlapping windows covering a common licence kind', () => {
    const january = { validFrom: new Date('2026-01-01'), validUntil: new Date('2026-02-01') };
    const lateJanuary = { validFrom: new Date('2026-01-20'), validUntil: new Date('2026-03-01') };
    const february = { validFrom: new Date('2026-02-01'), validUntil: new Date('2026-03-01') };
    expect(
      offersConflict({ ...january, licenseKinds: [] }, { ...lateJanuary, licenseKinds: ['PERSONAL'] }),
    ).toBe(true);
    expect(
      offersConflict(
        { ...january, licenseKinds: ['ORGANIZATION'] },
        { ...lateJanuary, licenseKinds: ['PERSONAL'] },
      ),
    ).toBe(false);
    expect(offersConflict({ ...january, licenseKinds: [] }, { ...february, licenseKinds: [] })).toBe(false);
  });

  it('makes codes people can type, and reads them however they were typed', () => {
    const code = couponCodeFromBytes(new Uint8Array([0, 1, 2, 3, 31, 32, 63, 255, 8, 9, 10, 11]));
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{12}$/);
    expect(normalizeCouponCode(` ${code.slice(0, 4).toLowerCase()}-${code.slice(4)} `)).toBe(code);
  });
});
