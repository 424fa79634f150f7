import type { StatisticInput } from '@marketplace/api-client';
import {
  ACTIVITY_MEASURES,
  DAY_MS,
  dimensionsOf,
  formatDisplayDate,
  formatStatisticsDate,
  MARKETPLACE_START_DATE,
  parseStatisticsDate,
  periodsBetween,
  periodStart,
  STATISTIC_MEASURES,
  type PricingModel,
  type StatisticMeasure,
  type TimeDimension,
} from '@marketplace/core';

/*
 * What the analytics tab shows lives in the page address (?measure=installs&range=90&compare=previous&product=IU),
 * so a view can be bookmarked and Back works. Days are yyyy-MM-dd in UTC, as the statistics calls read them;
 * ranges are inclusive of both days.
 */

export const RANGES = [
  ['30', 'Last 30 days'],
  ['90', 'Last 90 days'],
  ['365', 'Last year'],
  ['all', 'All time'],
  ['custom', 'Custom range'],
] as const;
export type RangeKey = (typeof RANGES)[number][0];

export const UNITS = [
  ['auto', 'Automatic'],
  ['day', 'Day'],
  ['week', 'Week'],
  ['month', 'Month'],
] as const;
export type UnitChoice = (typeof UNITS)[number][0];

export const COMPARISONS = [
  ['none', 'Nothing'],
  ['previous', 'The previous period'],
  ['year', 'The same days a year earlier'],
  ['custom', 'A period starting on…'],
] as const;
export type Comparison = (typeof COMPARISONS)[number][0];

/** The breakdowns the tab shows; each is also a filter of the time series. */
export const BREAKDOWNS = ['version', 'product', 'country'] as const;
export type Breakdown = (typeof BREAKDOWNS)[number];

export interface AnalyticsState {
  measure: StatisticMeasure;
  range: RangeKey;
  /** The custom range's first and last day, yyyy-MM-dd; empty when not chosen yet. */
  from: string;
  to: string;
  unit: UnitChoice;
  compare: Comparison;
  /** The first day of the chosen period to compare with (same length as the range). */
  compareFrom: string;
  breakdown: Breakdown;
  /** The time series (and the other breakdowns) only count this version, product or country; '' is "not told". */
  filters: Partial<Record<Breakdown, string>>;
}

export interface DayRange {
  /** First and last day, yyyy-MM-dd, inclusive. */
  start: string;
  end: string;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

const DEFAULT_MEASURE: StatisticMeasure = 'downloads-count';
const DEFAULT_RANGE: RangeKey = '30';
/** Ranges up to this many days are drawn per day, up to a year per week, longer ones per month. */
const DAILY_UP_TO_DAYS = 90;
const WEEKLY_UP_TO_DAYS = 366;

function oneOf<T extends string>(
  choices: readonly (readonly [T, string])[],
  value: string | null,
): T | undefined {
  return choices.find(([choice]) => choice === value)?.[0];
}

/** The measures an item has: every activity measure, and the selling ones unless the item is free. */
export function measuresFor(pricingModel: PricingModel): readonly StatisticMeasure[] {
  return pricingModel === 'FREE' ? ACTIVITY_MEASURES : STATISTIC_MEASURES;
}

/** The breakdowns a measure has (a sale knows its country, not the version or IDE). */
export function breakdownsOf(measure: StatisticMeasure): readonly Breakdown[] {
  const dimensions = dimensionsOf(measure);
  return BREAKDOWNS.filter((breakdown) => dimensions.includes(breakdown));
}

/** The state with another measure: breakdowns and filters that measure does not have are dropped. */
export function withMeasure(state: AnalyticsState, measure: StatisticMeasure): AnalyticsState {
  const breakdowns = breakdownsOf(measure);
  const filters: AnalyticsState['filters'] = {};
  for (const breakdown of breakdowns) {
    const value = state.filters[breakdown];
    if (value !== undefined) filters[breakdown] = value;
  }
  return {
    ...state,
    measure,
    breakdown: breakdowns.includes(state.breakdown) ? state.breakdown : (breakdowns[0] ?? 'country'),
    filters,
  };
}

function dayOrEmpty(text: string | null): string {
  return text !== null && parseStatisticsDate(text) ? text : '';
}

/** Reads the address; what is not a choice of this item's tab falls back to the default. */
export function readAnalyticsState(
  params: URLSearchParams,
  measures: readonly StatisticMeasure[],
): AnalyticsState {
  const measureText = params.get('measure');
  const measure = measures.find((candidate) => candidate === measureText) ?? DEFAULT_MEASURE;
  const filters: AnalyticsState['filters'] = {};
  for (const breakdown of BREAKDOWNS) {
    const value = params.get(breakdown);
    // Present and empty is a filter of its own: "not told".
    if (value !== null) filters[breakdown] = value.slice(0, 100);
  }
  const breakdownText = params.get('breakdown');
  const state: AnalyticsState = {
    measure,
    range: oneOf(RANGES, params.get('range')) ?? DEFAULT_RANGE,
    from: dayOrEmpty(params.get('from')),
    to: dayOrEmpty(params.get('to')),
    unit: oneOf(UNITS, params.get('unit')) ?? 'auto',
    compare: oneOf(COMPARISONS, params.get('compare')) ?? 'none',
    compareFrom: dayOrEmpty(params.get('compareFrom')),
    breakdown: BREAKDOWNS.find((candidate) => candidate === breakdownText) ?? 'version',
    filters,
  };
  return withMeasure(state, measure);
}

/** The address query of a state, leaving out what is the default. */
export function writeAnalyticsState(state: AnalyticsState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.measure !== DEFAULT_MEASURE) params.set('measure', state.measure);
  if (state.range !== DEFAULT_RANGE) params.set('range', state.range);
  if (state.range === 'custom') {
    if (state.from) params.set('from', state.from);
    if (state.to) params.set('to', state.to);
  }
  if (state.unit !== 'auto') params.set('unit', state.unit);
  if (state.compare !== 'none') params.set('compare', state.compare);
  if (state.compare === 'custom' && state.compareFrom) params.set('compareFrom', state.compareFrom);
  if (state.breakdown !== breakdownsOf(state.measure)[0]) params.set('breakdown', state.breakdown);
  for (const breakdown of BREAKDOWNS) {
    const value = state.filters[breakdown];
    if (value !== undefined) params.set(breakdown, value);
  }
  return params;
}

function dayTime(day: string): number {
  return Date.parse(`${day}T00:00:00Z`);
}

/** The day `days` days after (or before, when negative) a yyyy-MM-dd day. */
export function shiftDay(day: string, days: number): string {
  return formatStatisticsDate(dayTime(day) + days * DAY_MS);
}

/** How many days a range holds, both ends included. */
export function daysIn(range: DayRange): number {
  return Math.round((dayTime(range.end) - dayTime(range.start)) / DAY_MS) + 1;
}

export function today(now: Date): string {
  return formatStatisticsDate(now);
}

/**
 * The first day the item can have figures: its creation day, but never before the marketplace started
 * counting (an item imported with an older date has no figures from before then).
 */
export function firstDayOf(createdAt: number): string {
  const created = formatStatisticsDate(createdAt);
  return created && created > MARKETPLACE_START_DATE ? created : MARKETPLACE_START_DATE;
}

/**
 * The days a state shows: a preset ends today (30 days is today and the 29 before), 'all' starts on the item's
 * first day, a custom range is checked (both days given, the start not after the end, the end not in the
 * future, the start not before the marketplace began counting).
 */
export function rangeOf(state: AnalyticsState, now: Date, firstDay: string): Checked<DayRange> {
  const end = today(now);
  if (state.range === 'all') return { ok: true, value: { start: firstDay < end ? firstDay : end, end } };
  if (state.range !== 'custom') {
    return { ok: true, value: { start: shiftDay(end, 1 - Number(state.range)), end } };
  }
  if (!state.from || !state.to)
    return { ok: false, message: 'Choose the start and the end date of the range.' };
  if (state.from > state.to) {
    return {
      ok: false,
      message: 'The start date is after the end date: choose a start on or before the end.',
    };
  }
  if (state.to > end) {
    return {
      ok: false,
      message: `The end date is in the future: choose ${formatDisplayDate(now)} or earlier.`,
    };
  }
  if (state.from < MARKETPLACE_START_DATE) {
    return {
      ok: false,
      message: `The marketplace counts from ${formatDisplayDate(dayTime(MARKETPLACE_START_DATE))}: choose that day or a later one.`,
    };
  }
  return { ok: true, value: { start: state.from, end: state.to } };
}

/** Day for up to 90 days, week for up to a year, month beyond. */
export function automaticUnit(range: DayRange): TimeDimension {
  const days = daysIn(range);
  if (days <= DAILY_UP_TO_DAYS) return 'day';
  return days <= WEEKLY_UP_TO_DAYS ? 'week' : 'month';
}

export function unitOf(state: AnalyticsState, range: DayRange): TimeDimension {
  return state.unit === 'auto' ? automaticUnit(range) : state.unit;
}

/** The period of the same length that ends the day before the range starts. */
export function previousPeriod(range: DayRange): DayRange {
  return { start: shiftDay(range.start, -daysIn(range)), end: shiftDay(range.start, -1) };
}

/** The same calendar days one year earlier (29 February becomes the 28th). */
export function yearEarlier(range: DayRange): DayRange {
  const back = (day: string) => {
    const [year = '', month = '', date = ''] = day.split('-');
    const candidate = `${String(Number(year) - 1).padStart(4, '0')}-${month}-${date}`;
    return parseStatisticsDate(candidate) ? candidate : `${candidate.slice(0, 8)}28`;
  };
  return { start: back(range.start), end: back(range.end) };
}

/**
 * The period the range is compared with, as long as the range: none when not asked, or when the range is the
 * item's whole life (nothing came before it); a chosen period needs its first day.
 */
export function comparedRangeOf(state: AnalyticsState, range: DayRange): Checked<DayRange | undefined> {
  if (state.compare === 'none' || state.range === 'all') return { ok: true, value: undefined };
  if (state.compare === 'previous') return { ok: true, value: previousPeriod(range) };
  if (state.compare === 'year') return { ok: true, value: yearEarlier(range) };
  if (!state.compareFrom)
    return { ok: false, message: 'Choose the start date of the period to compare with.' };
  return {
    ok: true,
    value: { start: state.compareFrom, end: shiftDay(state.compareFrom, daysIn(range) - 1) },
  };
}

/** The call of a statistic over a range: `fill=full` for time dimensions, the given filters only. */
export function statisticQuery(
  pluginId: number,
  range: DayRange,
  filters: AnalyticsState['filters'],
  time: boolean,
): StatisticInput {
  return {
    plugin: pluginId,
    startDate: range.start,
    endDate: range.end,
    ...(time ? { fill: 'full' as const } : {}),
    ...filters,
  };
}

/** The filters without one dimension's own: a breakdown by product is not narrowed to the chosen product. */
export function filtersWithout(
  filters: AnalyticsState['filters'],
  dimension: Breakdown,
): AnalyticsState['filters'] {
  const rest = { ...filters };
  delete rest[dimension];
  return rest;
}

export interface SeriesPoint {
  /** The period's first day (yyyy-MM-dd), as the API names it. */
  name: string;
  value: number;
}

/**
 * Every period of a range with its value, 0 where the answer has none: the chart and the comparison line up
 * period by period even if an answer left some out.
 */
export function alignToPeriods(
  data: readonly SeriesPoint[],
  range: DayRange,
  unit: TimeDimension,
): SeriesPoint[] {
  const values = new Map<string, number>();
  for (const point of data) {
    const period = periodStart(point.name, unit);
    values.set(period, (values.get(period) ?? 0) + point.value);
  }
  return periodsBetween(range.start, range.end, unit).map((name) => ({ name, value: values.get(name) ?? 0 }));
}

/** The last day of the period starting on `start`. */
export function periodEnd(start: string, unit: TimeDimension): string {
  if (unit === 'day') return start;
  if (unit === 'week') return shiftDay(start, 6);
  const date = new Date(dayTime(start));
  return formatStatisticsDate(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) - DAY_MS);
}

/** A period as people read it: one day '05.03.2026', or its days within the range '02.03.2026–08.03.2026'. */
export function periodLabel(start: string, unit: TimeDimension, range: DayRange): string {
  if (unit === 'day') return formatDisplayDate(dayTime(start));
  const first = start < range.start ? range.start : start;
  const last = periodEnd(start, unit);
  const shownLast = last > range.end ? range.end : last;
  return first === shownLast
    ? formatDisplayDate(dayTime(first))
    : `${formatDisplayDate(dayTime(first))}–${formatDisplayDate(dayTime(shownLast))}`;
}

/** A range as people read it: '27.10.2026–25.11.2026'. */
export function rangeLabel(range: DayRange): string {
  return `${formatDisplayDate(dayTime(range.start))}–${formatDisplayDate(dayTime(range.end))}`;
}

/** A short axis label: the day for days and weeks ('05.03.2026'), month and year for months ('03.2026'). */
export function periodTick(start: string, unit: TimeDimension): string {
  const shown = formatDisplayDate(dayTime(start));
  return unit === 'month' ? shown.slice(3) : shown;
}

export function total(points: readonly SeriesPoint[]): number {
  return points.reduce((sum, point) => sum + point.value, 0);
}

/** The change from `previous` to `current` in percent; undefined when there was nothing before. */
export function percentChange(current: number, previous: number): number | undefined {
  if (previous === 0) return undefined;
  return ((current - previous) / previous) * 100;
}
