import { describe, expect, it } from 'vitest';
import {
  breakdownValueLabel,
  changeLabel,
  countryName,
  measureLabel,
  shareLabel,
  updatedAtLabel,
} from './analytics-labels';

describe('the labels of the analytics tab', () => {
  it('name measures, in the wording of the family', () => {
    expect(measureLabel('downloads-count', 'intellij')).toBe('Downloads');
    expect(measureLabel('downloads-unique', 'intellij')).toBe('Unique downloads');
    expect(measureLabel('downloads-count', 'space')).toBe('Installations');
    expect(measureLabel('revenue', 'intellij')).toBe('Revenue');
  });

  it('name products from the IDE catalogue and countries in English', () => {
    expect(breakdownValueLabel('product', 'IU')).toBe('IntelliJ IDEA Ultimate');
    expect(breakdownValueLabel('product', 'PS')).toBe('PhpStorm');
    expect(breakdownValueLabel('product', 'ZZ')).toBe('ZZ');
    expect(breakdownValueLabel('product', '')).toBe('Not told (not an IDE, or an unknown one)');
    expect(breakdownValueLabel('country', 'DE')).toBe('Germany');
    expect(breakdownValueLabel('country', '')).toBe('Unknown country');
    expect(countryName('not a code')).toBe('not a code');
    expect(breakdownValueLabel('version', '1.2.0')).toBe('1.2.0');
    expect(breakdownValueLabel('version', '')).toBe('Unknown version');
  });

  it('say a change with its sign, and shares in percent', () => {
    expect(changeLabel(23.456)).toBe('+23.5%');
    expect(changeLabel(-12.5)).toBe('−12.5%');
    expect(changeLabel(1_250)).toBe('+1,250%');
    expect(changeLabel(0.01)).toBe('no change');
    expect(changeLabel(undefined)).toBe('no figures to compare with');
    expect(shareLabel(1, 3)).toBe('33.3%');
    expect(shareLabel(1, 0)).toBe('');
  });

  it('tell when the figures were brought up to date, in UTC', () => {
    expect(updatedAtLabel(Date.UTC(2026, 10, 25, 14, 5))).toBe('25.11.2026 14:05 UTC');
    expect(updatedAtLabel(Number.NaN)).toBe('');
  });
});
