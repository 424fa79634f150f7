import { describe, expect, it } from 'vitest';
import {
  attachmentFileName,
  presetDays,
  readSalesFilter,
  salesQueryOf,
  writeSalesFilter,
} from './sales-filter';

const NOW = new Date('2026-11-25T23:30:00Z');

describe('the sales filters', () => {
  it('turn presets into inclusive UTC day ranges ending today', () => {
    expect(presetDays('30', NOW)).toEqual({ start: '2026-10-27', end: '2026-11-25' });
    expect(presetDays('90', NOW)).toEqual({ start: '2026-08-28', end: '2026-11-25' });
    expect(presetDays('365', NOW)).toEqual({ start: '2025-11-26', end: '2026-11-25' });
  });

  it('read the address, ignoring what is not a filter', () => {
    expect(
      readSalesFilter(new URLSearchParams('range=bad&kind=TEAM&period=YEARLY&country=de&page=0')),
    ).toEqual({
      range: '365',
      from: '',
      to: '',
      licenseKind: undefined,
      billingPeriod: 'YEARLY',
      countryCode: 'DE',
      page: 1,
    });
  });

  it('write only what differs from the default, and read back the same', () => {
    const state = readSalesFilter(
      new URLSearchParams('range=custom&from=2026-01-01&to=2026-03-31&kind=PERSONAL&page=3'),
    );
    const written = writeSalesFilter(state).toString();
    expect(written).toBe('range=custom&from=2026-01-01&to=2026-03-31&kind=PERSONAL&page=3');
    expect(readSalesFilter(new URLSearchParams(written))).toEqual(state);
    expect(writeSalesFilter(readSalesFilter(new URLSearchParams())).toString()).toBe('');
  });

  it('become the API query', () => {
    expect(salesQueryOf(readSalesFilter(new URLSearchParams('range=30&country=FR')), NOW)).toEqual({
      startDate: '2026-10-27',
      endDate: '2026-11-25',
      countryCode: 'FR',
    });
    expect(salesQueryOf(readSalesFilter(new URLSearchParams('range=custom&to=2026-02-01')), NOW)).toEqual({
      endDate: '2026-02-01',
    });
  });
});

describe('the downloaded file name', () => {
  it('is the one the server sends, as a base name', () => {
    expect(attachmentFileName('attachment; filename="my.plugin-sales.csv"', 'x.csv')).toBe(
      'my.plugin-sales.csv',
    );
    expect(attachmentFileName("attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.csv", 'x.csv')).toBe(
      'résumé.csv',
    );
    expect(attachmentFileName('attachment; filename="../../etc/passwd"', 'x.csv')).toBe('_.._etc_passwd');
    expect(attachmentFileName(null, 'x.csv')).toBe('x.csv');
    expect(attachmentFileName('attachment', 'x.csv')).toBe('x.csv');
  });
});
