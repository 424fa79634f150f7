/**
 * What the statistics paths `GET /statistic/{measure}/{dimension}` can be asked for (spec §7), and which
 * measure can be broken down by which dimension.
 */
import { DAY_MS } from '../constants';
import { formatStatisticsDate } from '../format';

/**
 * - `downloads-count`: every download (site, IDE, build tools);
 * - `downloads-unique`: distinct downloaders per day, by a salted hash of address and client that changes
 *   every day (so no one is followed from one day to the next; weeks and months add the days up);
 * - `installs`: downloads made by an IDE;
 * - `update-checks`: an IDE asking whether the item has a newer version;
 * - `trials`, `sales`, `revenue`: started trials, sold licences and net revenue (minor units) from selling.
 */
export const STATISTIC_MEASURES = [
  'downloads-count',
  'downloads-unique',
  'installs',
  'update-checks',
  'trials',
  'sales',
  'revenue',
] as const;
export type StatisticMeasure = (typeof STATISTIC_MEASURES)[number];

/** `branch` is the IDE's build branch (`241` for IU-241.14494.240). */
export const STATISTIC_DIMENSIONS = [
  'day',
  'week',
  'month',
  'version',
  'product',
  'branch',
  'country',
  'channel',
] as const;
export type StatisticDimension = (typeof STATISTIC_DIMENSIONS)[number];

export const TIME_DIMENSIONS = ['day', 'week', 'month'] as const;
export type TimeDimension = (typeof TIME_DIMENSIONS)[number];

/** The dimensions that can also filter a query (`?product=IU&country=DE`). */
export const FILTER_DIMENSIONS = ['version', 'product', 'branch', 'country', 'channel'] as const;
export type FilterDimension = (typeof FILTER_DIMENSIONS)[number];

/** Measures counted from downloads and update checks; the others come from selling. */
export const ACTIVITY_MEASURES = [
  'downloads-count',
  'downloads-unique',
  'installs',
  'update-checks',
] as const satisfies readonly StatisticMeasure[];

export function isTimeDimension(dimension: StatisticDimension): dimension is TimeDimension {
  return (TIME_DIMENSIONS as readonly string[]).includes(dimension);
}

export function isActivityMeasure(measure: StatisticMeasure): boolean {
  return (ACTIVITY_MEASURES as readonly string[]).includes(measure);
}

/**
 * The dimensions a measure can be broken down by and filtered with. A download knows all of them; a sale
 * knows its buyer's country but no version, IDE or channel; a trial knows only when it started.
 */
export function dimensionsOf(measure: StatisticMeasure): readonly StatisticDimension[] {
  if (isActivityMeasure(measure)) return STATISTIC_DIMENSIONS;
  return measure === 'trials' ? TIME_DIMENSIONS : ['day', 'week', 'month', 'country'];
}

/** Whether the public may read the measure by this dimension: only the daily downloads are public (§7). */
export function isPublicStatistic(measure: StatisticMeasure, dimension: StatisticDimension): boolean {
  return measure === 'downloads-count' && dimension === 'day';
}

/**
 * The first day (yyyy-MM-dd) of the period a day falls in: the day itself, its ISO week (weeks start on
 * Monday) or its month. Statistics name periods by their first day, in the format of days.
 */
export function periodStart(day: string, dimension: TimeDimension): string {
  if (dimension === 'day') return day;
  if (dimension === 'month') return `${day.slice(0, 8)}01`;
  const time = Date.parse(`${day}T00:00:00Z`);
  const weekday = (new Date(time).getUTCDay() + 6) % 7;
  return formatStatisticsDate(time - weekday * DAY_MS);
}

/**
 * Every period from the one holding `first` to the one holding `last` (yyyy-MM-dd days, inclusive), in
 * order: what a chart shows, with periods that have no value as 0.
 */
export function periodsBetween(first: string, last: string, dimension: TimeDimension): string[] {
  const periods: string[] = [];
  let current = periodStart(first, dimension);
  const end = Date.parse(`${last}T00:00:00Z`);
  while (Date.parse(`${current}T00:00:00Z`) <= end) {
    periods.push(current);
    const time = Date.parse(`${current}T00:00:00Z`);
    if (dimension === 'day') current = formatStatisticsDate(time + DAY_MS);
    else if (dimension === 'week') current = formatStatisticsDate(time + 7 * DAY_MS);
    else {
      const date = new Date(time);
      current = formatStatisticsDate(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1));
    }
  }
  return periods;
}
