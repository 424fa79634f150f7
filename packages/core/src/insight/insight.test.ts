import { describe, expect, it } from 'vitest';
import { readIdeClient } from './ide-client';
import { dimensionsOf, isPublicStatistic, periodsBetween, periodStart } from './measures';

describe('readIdeClient', () => {
  it('takes product, build and branch from the build parameter the IDE adds to its URLs', () => {
    expect(readIdeClient('IntelliJ IDEA/241.14494.240', 'IC-241.14494.240')).toEqual({
      productCode: 'IC',
      build: '241.14494.240',
      branch: 241,
      fromIde: true,
    });
  });

  it('reads the IDE from its User-Agent, naming the product only where the name tells the edition', () => {
    expect(readIdeClient('PhpStorm/243.21565.202', undefined)).toEqual({
      productCode: 'PS',
      build: '243.21565.202',
      branch: 243,
      fromIde: true,
    });
    expect(readIdeClient('IntelliJ IDEA/241.14494.240', undefined)).toMatchObject({
      productCode: '',
      branch: 241,
      fromIde: true,
    });
    expect(readIdeClient('Android Studio/242.23339.11', undefined).productCode).toBe('AI');
  });

  it('takes a browser or a build tool for what it is', () => {
    const browser =
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 Version/17.5 Safari/605.1.15';
    expect(readIdeClient(browser, undefined)).toEqual({
      productCode: '',
      build: '',
      branch: 0,
      fromIde: false,
    });
    expect(readIdeClient('Gradle/8.10', undefined).fromIde).toBe(false);
    expect(readIdeClient(undefined, undefined).fromIde).toBe(false);
  });

  it('ignores a build parameter that is not a build number', () => {
    expect(readIdeClient(undefined, 'not a build')).toEqual({
      productCode: '',
      build: '',
      branch: 0,
      fromIde: false,
    });
    expect(readIdeClient(undefined, 'x'.repeat(500)).build.length).toBeLessThanOrEqual(60);
  });
});

describe('statistic measures and periods', () => {
  it('breaks selling measures down only by what a sale or a trial knows', () => {
    expect(dimensionsOf('downloads-count')).toContain('branch');
    expect(dimensionsOf('sales')).toEqual(['day', 'week', 'month', 'country']);
    expect(dimensionsOf('trials')).toEqual(['day', 'week', 'month']);
  });

  it('leaves only the daily downloads public', () => {
    expect(isPublicStatistic('downloads-count', 'day')).toBe(true);
    expect(isPublicStatistic('downloads-count', 'country')).toBe(false);
    expect(isPublicStatistic('installs', 'day')).toBe(false);
  });

  it('names weeks by their Monday and months by their first day', () => {
    expect(periodStart('2026-11-25', 'week')).toBe('2026-11-23');
    expect(periodStart('2026-11-23', 'week')).toBe('2026-11-23');
    expect(periodStart('2026-11-22', 'week')).toBe('2026-11-16');
    expect(periodStart('2026-11-25', 'month')).toBe('2026-11-01');
    expect(periodStart('2026-11-25', 'day')).toBe('2026-11-25');
  });

  it('lists every period between two days, across months and years', () => {
    expect(periodsBetween('2026-12-30', '2027-01-02', 'day')).toEqual([
      '2026-12-30',
      '2026-12-31',
      '2027-01-01',
      '2027-01-02',
    ]);
    expect(periodsBetween('2026-11-25', '2027-02-01', 'month')).toEqual([
      '2026-11-01',
      '2026-12-01',
      '2027-01-01',
      '2027-02-01',
    ]);
    expect(periodsBetween('2026-12-31', '2027-01-12', 'week')).toEqual([
      '2026-12-28',
      '2027-01-04',
      '2027-01-11',
    ]);
    expect(periodsBetween('2024-02-28', '2024-03-01', 'day')).toHaveLength(3);
  });
});
