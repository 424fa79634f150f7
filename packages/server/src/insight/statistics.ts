import {
  dimensionsOf,
  isActivityMeasure,
  isTimeDimension,
  parseStatisticsDate,
  periodsBetween,
  type FilterDimension,
  type StatisticDimension,
  type StatisticMeasure,
  type TimeDimension,
} from '@marketplace/core';
import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { sellingStatistic } from '../commerce';
import { ApiError } from '../plugins/app/errors';
import { selectRows } from '../search/sql';

/** The longest range one request may ask for: ten years of days. */
export const MAX_STATISTICS_RANGE_DAYS = 3660;

export interface StatisticRequest {
  pluginId: number;
  measure: StatisticMeasure;
  dimension: StatisticDimension;
  /** yyyy-MM-dd, inclusive. */
  startDate: string;
  endDate: string;
  /** Values of other dimensions the events must have. */
  filters: Partial<Record<FilterDimension, string>>;
  /** With a time dimension, list periods without a value as 0. */
  fill: boolean;
}

export interface StatisticPoint {
  name: string;
  value: number;
}

/** The roll-up column of each activity measure. */
const COLUMN_OF = {
  'downloads-count': 'downloads',
  'downloads-unique': 'downloads_unique',
  installs: 'installs',
  'update-checks': 'update_checks',
} as const satisfies Partial<Record<StatisticMeasure, string>>;

/** The column of `insight_daily` that holds each filter dimension. */
const FILTER_COLUMN: Record<FilterDimension, string> = {
  version: 'version',
  product: 'product_code',
  branch: 'branch',
  country: 'country',
  channel: 'channel',
};

/** Checks the request against the rules of measures, dimensions and dates; throws a 400 that says what is wrong. */
export function checkStatisticRequest(request: StatisticRequest): void {
  const { measure, dimension, startDate, endDate, filters } = request;
  const start = parseStatisticsDate(startDate);
  const end = parseStatisticsDate(endDate);
  if (!start) throw new ApiError('validation', `startDate "${startDate}" is not a day of the calendar.`);
  if (!end) throw new ApiError('validation', `endDate "${endDate}" is not a day of the calendar.`);
  if (end < start) throw new ApiError('validation', 'endDate must not be before startDate.');
  const days = (end.getTime() - start.getTime()) / 86_400_000 + 1;
  if (days > MAX_STATISTICS_RANGE_DAYS)
    throw new ApiError(
      'validation',
      `Ask for at most ${MAX_STATISTICS_RANGE_DAYS} days at once (asked ${days}).`,
    );
  const allowed = dimensionsOf(measure);
  if (!allowed.includes(dimension)) {
    throw new ApiError(
      'validation',
      `The measure ${measure} cannot be broken down by ${dimension}; it can by ${allowed.join(', ')}.`,
    );
  }
  for (const filter of Object.keys(filters) as FilterDimension[]) {
    if (!allowed.includes(filter))
      throw new ApiError('validation', `The measure ${measure} cannot be filtered by ${filter}.`);
  }
  if (filters.branch !== undefined && !/^\d{0,4}$/.test(filters.branch))
    throw new ApiError('validation', `branch "${filters.branch}" is not a build branch such as 241.`);
}

function filterConditions(filters: StatisticRequest['filters']): SQL[] {
  return (Object.entries(filters) as [FilterDimension, string][]).map(([dimension, value]) => {
    const column = sql.raw(FILTER_COLUMN[dimension]);
    if (dimension === 'branch') return sql`${column} = ${value === '' ? 0 : Number(value)}`;
    return sql`${column} = ${dimension === 'country' || dimension === 'product' ? value.toUpperCase() : value}`;
  });
}

/** A filter's value as `insight_daily_by_dimension` keeps it (branches as text, '' for not told). */
function rolledUpValue(dimension: FilterDimension, value: string): string {
  if (dimension === 'branch') return value === '' ? '' : String(Number(value));
  return dimension === 'country' || dimension === 'product' ? value.toUpperCase() : value;
}

/** Downloads, unique downloaders, installs or update checks, from the roll-ups. */
async function activityStatistic(db: Queryable, request: StatisticRequest): Promise<StatisticPoint[]> {
  const { pluginId, dimension, startDate, endDate, filters } = request;
  const column = sql.raw(COLUMN_OF[request.measure as keyof typeof COLUMN_OF]);
  const time = isTimeDimension(dimension);
  const period = time ? sql`to_char(date_trunc(${dimension}, day::timestamp), 'YYYY-MM-DD')` : undefined;
  const order = time ? sql`1` : sql`2 DESC, 1`;
  const conditions = filterConditions(filters);
  const filtered = Object.entries(filters) as [FilterDimension, string][];
  let statement: SQL;
  if (conditions.length === 0 || (time && filtered.length === 1)) {
    // Unfiltered, or a series filtered by one value: the rows of one dimension's own roll-up (a downloader
    // has one value per dimension, so these are exact, uniques included) rather than every combination.
    const [only] = filtered;
    const rolledUp = only ? only[0] : time ? 'total' : dimension;
    const value = only ? rolledUpValue(only[0], only[1]) : undefined;
    statement = sql`SELECT ${period ?? sql`value`} AS name, sum(${column})::bigint AS value
      FROM insight_daily_by_dimension
      WHERE plugin_id = ${pluginId} AND dimension = ${rolledUp} AND day BETWEEN ${startDate}::date AND ${endDate}::date
        ${value === undefined ? sql`` : sql`AND value = ${value}`}
      GROUP BY 1 HAVING sum(${column}) > 0 ORDER BY ${order}`;
  } else {
    const group =
      period ??
      (dimension === 'branch'
        ? sql`CASE WHEN branch = 0 THEN '' ELSE branch::text END`
        : sql.raw(FILTER_COLUMN[dimension as FilterDimension]));
    statement = sql`SELECT ${group} AS name, sum(${column})::bigint AS value
      FROM insight_daily
      WHERE plugin_id = ${pluginId} AND day BETWEEN ${startDate}::date AND ${endDate}::date
        AND ${sql.join(conditions, sql` AND `)}
      GROUP BY 1 HAVING sum(${column}) > 0 ORDER BY ${order}`;
  }
  const rows = await selectRows<{ name: string; value: string | number }>(db, statement);
  return rows.map((row) => ({ name: row.name, value: Number(row.value) }));
}

/** The public daily downloads, as counted when they happen (download_counts), with every day when `fill`. */
export async function publicDailyDownloads(
  db: Queryable,
  request: StatisticRequest,
): Promise<StatisticPoint[]> {
  const rows = await selectRows<{ name: string; value: number }>(
    db,
    sql`SELECT to_char(day, 'YYYY-MM-DD') AS name, sum(count)::int AS value FROM download_counts
      WHERE plugin_id = ${request.pluginId} AND day BETWEEN ${request.startDate}::date AND ${request.endDate}::date
      GROUP BY day ORDER BY day`,
  );
  return request.fill ? filledPeriods(rows, request.startDate, request.endDate, 'day') : rows;
}

function filledPeriods(
  points: readonly StatisticPoint[],
  startDate: string,
  endDate: string,
  dimension: TimeDimension,
): StatisticPoint[] {
  const byPeriod = new Map(points.map((point) => [point.name, point.value]));
  return periodsBetween(startDate, endDate, dimension).map((name) => ({
    name,
    value: byPeriod.get(name) ?? 0,
  }));
}

/**
 * One statistic of one item: activity measures from the daily roll-ups (never the raw events), selling
 * measures from commerce. Check the request with {@link checkStatisticRequest} first.
 */
export async function readStatistic(db: Queryable, request: StatisticRequest): Promise<StatisticPoint[]> {
  const { measure, dimension, startDate, endDate } = request;
  let points: StatisticPoint[];
  if (isActivityMeasure(measure)) {
    points = await activityStatistic(db, request);
  } else {
    const country = request.filters.country?.toUpperCase();
    points = await sellingStatistic(
      db,
      request.pluginId,
      measure as 'trials' | 'sales' | 'revenue',
      dimension as 'day' | 'week' | 'month' | 'country',
      { startDate, endDate, ...(country !== undefined ? { country } : {}) },
    );
  }
  if (!request.fill || !isTimeDimension(dimension)) return points;
  const byPeriod = new Map(points.map((point) => [point.name, point.value]));
  return periodsBetween(startDate, endDate, dimension).map((name) => ({
    name,
    value: byPeriod.get(name) ?? 0,
  }));
}
