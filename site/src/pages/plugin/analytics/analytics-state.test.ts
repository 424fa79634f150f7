import { ACTIVITY_MEASURES, STATISTIC_MEASURES, type StatisticMeasure } from '@marketplace/core';
import { describe, expect, it } from 'vitest';
import {
  alignToPeriods,
  automaticUnit,
  comparedRangeOf,
  daysIn,
  filtersWithout,
  firstDayOf,
  measuresFor,
  percentChange,
  periodLabel,
  periodTick,
  previousPeriod,
  rangeOf,
  readAnalyticsState,
  statisticQuery,
  unitOf,
  withMeasure,
  writeAnalyticsState,
  yearEarlier,
  type AnalyticsState,
} from './analytics-state';

const NOW = new Date('2026-11-25T23:30:00Z');
const FIRST_DAY = '2021-03-04';

function stateOf(query: string, measures: readonly StatisticMeasure[] = STATISTIC_MEASURES): AnalyticsState {
  return readAnalyticsState(new URLSearchParams(query), measures);
}

function range(query: string) {
  const checked = rangeOf(stateOf(query), NOW, FIRST_DAY);
  if (!checked.ok) throw new Error(checked.message);
  return checked.value;
}

describe('the ranges', () => {
  it('end today (UTC) and hold both ends: 30 days is today and the 29 before', () => {
    expect(range('')).toEqual({ start: '2026-10-27', end: '2026-11-25' });
    expect(range('range=90')).toEqual({ start: '2026-08-28', end: '2026-11-25' });
    expect(range('range=365')).toEqual({ start: '2025-11-26', end: '2026-11-25' });
    expect(daysIn(range('range=90'))).toBe(90);
  });

  it('"all" starts on the item’s first day, never before the marketplace started counting', () => {
    expect(range('range=all')).toEqual({ start: FIRST_DAY, end: '2026-11-25' });
    expect(firstDayOf(Date.UTC(2022, 4, 17, 15))).toBe('2022-05-17');
    expect(firstDayOf(Date.UTC(2015, 0, 1))).toBe('2019-06-26');
    expect(firstDayOf(Number.NaN)).toBe('2019-06-26');
  });

  it('take a custom range as chosen when it is valid', () => {
    expect(range('range=custom&from=2026-01-01&to=2026-03-31')).toEqual({
      start: '2026-01-01',
      end: '2026-03-31',
    });
    expect(range('range=custom&from=2026-11-25&to=2026-11-25')).toEqual({
      start: '2026-11-25',
      end: '2026-11-25',
    });
  });

  it('say clearly what is wrong with a custom range', () => {
    const problem = (query: string) => {
      const checked = rangeOf(stateOf(query), NOW, FIRST_DAY);
      return checked.ok ? undefined : checked.message;
    };
    expect(problem('range=custom&from=2026-03-02&to=2026-03-01')).toBe(
      'The start date is after the end date: choose a start on or before the end.',
    );
    expect(problem('range=custom&from=2026-03-02')).toBe('Choose the start and the end date of the range.');
    expect(problem('range=custom&from=2026-11-01&to=2026-11-26')).toBe(
      'The end date is in the future: choose 25.11.2026 or earlier.',
    );
    expect(problem('range=custom&from=2019-06-25&to=2019-07-01')).toBe(
      'The marketplace counts from 26.06.2019: choose that day or a later one.',
    );
    // Impossible days in the address are not taken as days at all.
    expect(problem('range=custom&from=2026-02-30&to=2026-03-01')).toBe(
      'Choose the start and the end date of the range.',
    );
  });
});

describe('the unit of the time series', () => {
  it('is the day up to 90 days, the week up to a year, the month beyond', () => {
    expect(automaticUnit({ start: '2026-10-27', end: '2026-11-25' })).toBe('day');
    expect(automaticUnit({ start: '2026-08-28', end: '2026-11-25' })).toBe('day');
    expect(automaticUnit({ start: '2026-08-27', end: '2026-11-25' })).toBe('week');
    expect(automaticUnit({ start: '2025-11-26', end: '2026-11-25' })).toBe('week');
    expect(automaticUnit({ start: '2024-11-25', end: '2026-11-25' })).toBe('month');
  });

  it('can be chosen instead', () => {
    const state = stateOf('range=365&unit=day');
    expect(unitOf(state, range('range=365'))).toBe('day');
    expect(unitOf(stateOf('range=365'), range('range=365'))).toBe('week');
  });
});

describe('the compared period', () => {
  it('is by default the one of the same length just before', () => {
    expect(previousPeriod({ start: '2026-10-27', end: '2026-11-25' })).toEqual({
      start: '2026-09-27',
      end: '2026-10-26',
    });
    expect(previousPeriod({ start: '2026-03-01', end: '2026-03-01' })).toEqual({
      start: '2026-02-28',
      end: '2026-02-28',
    });
    const thirty = range('');
    const compared = comparedRangeOf(stateOf('compare=previous'), thirty);
    expect(compared).toEqual({ ok: true, value: { start: '2026-09-27', end: '2026-10-26' } });
    expect(compared.ok && compared.value && daysIn(compared.value)).toBe(30);
  });

  it('can be the same days a year earlier (29 February becomes the 28th)', () => {
    expect(yearEarlier({ start: '2026-10-27', end: '2026-11-25' })).toEqual({
      start: '2025-10-27',
      end: '2025-11-25',
    });
    expect(yearEarlier({ start: '2028-02-01', end: '2028-02-29' })).toEqual({
      start: '2027-02-01',
      end: '2027-02-28',
    });
  });

  it('can start on a chosen day and is as long as the range', () => {
    const chosen = comparedRangeOf(stateOf('compare=custom&compareFrom=2026-01-10'), range(''));
    expect(chosen).toEqual({ ok: true, value: { start: '2026-01-10', end: '2026-02-08' } });
    expect(comparedRangeOf(stateOf('compare=custom'), range(''))).toEqual({
      ok: false,
      message: 'Choose the start date of the period to compare with.',
    });
  });

  it('is none when not asked, or when the range is the item’s whole life', () => {
    expect(comparedRangeOf(stateOf(''), range(''))).toEqual({ ok: true, value: undefined });
    expect(comparedRangeOf(stateOf('range=all&compare=previous'), range('range=all'))).toEqual({
      ok: true,
      value: undefined,
    });
  });

  it('gives the change in percent, or nothing when there was nothing before', () => {
    expect(percentChange(150, 100)).toBe(50);
    expect(percentChange(75, 100)).toBe(-25);
    expect(percentChange(0, 0)).toBeUndefined();
    expect(percentChange(5, 0)).toBeUndefined();
  });
});

describe('the address', () => {
  it('reads back what it wrote, leaving defaults out', () => {
    const state = stateOf(
      'measure=installs&range=custom&from=2026-01-01&to=2026-03-31&unit=week&compare=custom&compareFrom=2025-01-01&breakdown=country&product=IU&version=',
    );
    const written = writeAnalyticsState(state).toString();
    expect(written).toBe(
      'measure=installs&range=custom&from=2026-01-01&to=2026-03-31&unit=week&compare=custom&compareFrom=2025-01-01&breakdown=country&version=&product=IU',
    );
    expect(stateOf(written)).toEqual(state);
    expect(writeAnalyticsState(stateOf('')).toString()).toBe('');
  });

  it('keeps an empty filter as "not told", and ignores what is not a choice', () => {
    const state = stateOf('measure=bogus&range=7&unit=hour&compare=always&breakdown=planet&country=');
    expect(state).toEqual({
      measure: 'downloads-count',
      range: '30',
      from: '',
      to: '',
      unit: 'auto',
      compare: 'none',
      compareFrom: '',
      breakdown: 'version',
      filters: { country: '' },
    });
  });

  it('offers the selling measures only for items that are not free', () => {
    expect(measuresFor('FREE')).toEqual(ACTIVITY_MEASURES);
    expect(measuresFor('PAID')).toContain('revenue');
    expect(measuresFor('FREEMIUM')).toContain('trials');
    expect(stateOf('measure=revenue', measuresFor('FREE')).measure).toBe('downloads-count');
  });

  it('drops the breakdowns and filters a measure does not have', () => {
    const state = stateOf('breakdown=product&product=IU&country=DE&version=1.0');
    expect(withMeasure(state, 'sales')).toMatchObject({
      measure: 'sales',
      breakdown: 'country',
      filters: { country: 'DE' },
    });
    expect(stateOf('measure=revenue&breakdown=version&version=1.0')).toMatchObject({
      breakdown: 'country',
      filters: {},
    });
  });
});

describe('the statistic calls', () => {
  it('ask for the range with fill=full for the series, and the filters', () => {
    const days = { start: '2026-10-27', end: '2026-11-25' };
    expect(statisticQuery(7, days, { product: 'IU', version: '' }, true)).toEqual({
      plugin: 7,
      startDate: '2026-10-27',
      endDate: '2026-11-25',
      fill: 'full',
      product: 'IU',
      version: '',
    });
    expect(statisticQuery(7, days, {}, false)).toEqual({
      plugin: 7,
      startDate: '2026-10-27',
      endDate: '2026-11-25',
    });
  });

  it('do not narrow a breakdown by its own filter', () => {
    expect(filtersWithout({ product: 'IU', country: 'DE' }, 'product')).toEqual({ country: 'DE' });
  });
});

describe('the periods of the series', () => {
  it('are every period of the range, 0 where the answer has none', () => {
    const days = { start: '2026-03-01', end: '2026-03-04' };
    expect(alignToPeriods([{ name: '2026-03-02', value: 5 }], days, 'day')).toEqual([
      { name: '2026-03-01', value: 0 },
      { name: '2026-03-02', value: 5 },
      { name: '2026-03-03', value: 0 },
      { name: '2026-03-04', value: 0 },
    ]);
    // Weeks start on Monday: 1 March 2026 is a Sunday, in the week of 23 February.
    expect(
      alignToPeriods(
        [
          { name: '2026-02-23', value: 1 },
          { name: '2026-03-02', value: 2 },
        ],
        days,
        'week',
      ),
    ).toEqual([
      { name: '2026-02-23', value: 1 },
      { name: '2026-03-02', value: 2 },
    ]);
  });

  it('are labelled with their days within the range, in the display format', () => {
    const days = { start: '2026-03-01', end: '2026-04-10' };
    expect(periodLabel('2026-03-05', 'day', days)).toBe('05.03.2026');
    expect(periodLabel('2026-02-23', 'week', days)).toBe('01.03.2026');
    expect(periodLabel('2026-03-02', 'week', days)).toBe('02.03.2026–08.03.2026');
    expect(periodLabel('2026-04-01', 'month', days)).toBe('01.04.2026–10.04.2026');
    expect(periodLabel('2026-03-01', 'month', days)).toBe('01.03.2026–31.03.2026');
    expect(periodTick('2026-03-05', 'day')).toBe('05.03.2026');
    expect(periodTick('2026-03-01', 'month')).toBe('03.2026');
  });
});
