import { currencyOf, type Currency } from '@marketplace/core';
import { describe, expect, it } from 'vitest';
import { priceTextsOf, readAmount, readPriceTexts, readWholeNumber, type PriceTexts } from './money-input';

const USD = currencyOf('USD') as Currency;
const JPY = currencyOf('JPY') as Currency;

const empty: PriceTexts = {
  'PERSONAL-MONTHLY': '',
  'PERSONAL-YEARLY': '',
  'ORGANIZATION-MONTHLY': '',
  'ORGANIZATION-YEARLY': '',
};

describe('price fields', () => {
  it('read typed decimals into whole minor units, leaving empty fields out (not sold)', () => {
    const reading = readPriceTexts(
      { ...empty, 'PERSONAL-YEARLY': '49', 'ORGANIZATION-YEARLY': ' 1,234.5 ', 'PERSONAL-MONTHLY': '0.29' },
      USD,
    );
    expect(reading).toEqual({
      ok: true,
      value: [
        { licenseKind: 'PERSONAL', billingPeriod: 'MONTHLY', amountMinor: 29 },
        { licenseKind: 'PERSONAL', billingPeriod: 'YEARLY', amountMinor: 4900 },
        { licenseKind: 'ORGANIZATION', billingPeriod: 'YEARLY', amountMinor: 123450 },
      ],
    });
  });

  it('never go through floats: 0.29 and 4.35 are exact', () => {
    // 4.35 * 100 is 434.99999999999994 in floating point.
    expect(readAmount('4.35', USD, 'Price')).toEqual({ ok: true, value: 435 });
    expect(readAmount('0.29', USD, 'Price')).toEqual({ ok: true, value: 29 });
  });

  it('say which price is wrong and how to write it', () => {
    const reading = readPriceTexts({ ...empty, 'ORGANIZATION-MONTHLY': '12.345' }, USD);
    expect(reading.ok).toBe(false);
    if (!reading.ok) {
      expect(reading.error).toContain('Organization, monthly');
      expect(reading.error).toContain('12.50');
    }
    expect(readPriceTexts({ ...empty, 'PERSONAL-MONTHLY': '-5' }, USD).ok).toBe(false);
    expect(readPriceTexts({ ...empty, 'PERSONAL-MONTHLY': 'abc' }, USD).ok).toBe(false);
  });

  it('refuse a decimal comma rather than read 9,90 as 990 dollars', () => {
    const reading = readAmount('9,90', USD, 'Price');
    expect(reading.ok).toBe(false);
    if (!reading.ok) expect(reading.error).toContain('point');
    expect(readAmount('9,9', USD, 'Price').ok).toBe(false);
    expect(readAmount('1,2345', USD, 'Price').ok).toBe(false);
    expect(readAmount('1,234', USD, 'Price')).toEqual({ ok: true, value: 123_400 });
    expect(readAmount('1,234,567.89', USD, 'Price')).toEqual({ ok: true, value: 123_456_789 });
  });

  it('need at least one price and refuse zero and amounts above the marketplace maximum', () => {
    expect(readPriceTexts(empty, USD)).toEqual({ ok: false, error: 'Give at least one price.' });
    expect(readPriceTexts({ ...empty, 'PERSONAL-YEARLY': '0.00' }, USD).ok).toBe(false);
    expect(readPriceTexts({ ...empty, 'PERSONAL-YEARLY': '10000000.00' }, USD).ok).toBe(true);
    expect(readPriceTexts({ ...empty, 'PERSONAL-YEARLY': '10000000.01' }, USD).ok).toBe(false);
  });

  it('follow the currency: no fraction in yen', () => {
    expect(readAmount('1200', JPY, 'Price')).toEqual({ ok: true, value: 1200 });
    expect(readAmount('1200.5', JPY, 'Price').ok).toBe(false);
  });

  it('start from the current prices as plain decimals', () => {
    expect(
      priceTextsOf(
        [
          { licenseKind: 'PERSONAL', billingPeriod: 'YEARLY', amountMinor: 4900 },
          { licenseKind: 'ORGANIZATION', billingPeriod: 'MONTHLY', amountMinor: 5 },
        ],
        USD,
      ),
    ).toEqual({ ...empty, 'PERSONAL-YEARLY': '49.00', 'ORGANIZATION-MONTHLY': '0.05' });
  });

  it('round-trip: what the form shows reads back to the same amounts', () => {
    for (const amountMinor of [1, 99, 100, 4900, 123456789]) {
      const texts = priceTextsOf([{ licenseKind: 'PERSONAL', billingPeriod: 'MONTHLY', amountMinor }], USD);
      expect(readPriceTexts(texts, USD)).toEqual({
        ok: true,
        value: [{ licenseKind: 'PERSONAL', billingPeriod: 'MONTHLY', amountMinor }],
      });
    }
  });
});

describe('whole numbers in forms', () => {
  it('accept digits only', () => {
    expect(readWholeNumber(' 25 ')).toBe(25);
    expect(readWholeNumber('2.5')).toBeUndefined();
    expect(readWholeNumber('-1')).toBeUndefined();
    expect(readWholeNumber('')).toBeUndefined();
  });
});
