/**
 * Insight: statistics by measure and dimension (spec §7 `GET {measure}/{dimension}`) and the exception
 * analyzer. Daily downloads stay public at `/statistic/downloads-count/day` (statistics.ts); every other
 * statistic is for the item's people and administrators.
 */
import {
  FILTER_DIMENSIONS,
  STATISTIC_DIMENSIONS,
  STATISTIC_MEASURES,
  type FilterDimension,
} from '@marketplace/core';
import { Type, type Static } from 'typebox';
import { DateText } from './common';
import { DownloadStatisticPointSchema } from './statistics';

export const StatisticParams = Type.Object({
  measure: Type.Enum([...STATISTIC_MEASURES], { description: 'What is counted' }),
  dimension: Type.Enum([...STATISTIC_DIMENSIONS], { description: 'What it is broken down by' }),
});
export type StatisticParams = Static<typeof StatisticParams>;

const FilterValue = (description: string) => Type.Optional(Type.String({ maxLength: 100, description }));

export const StatisticQuery = Type.Object({
  plugin: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'Plugin id' }),
  startDate: DateText,
  endDate: DateText,
  fill: Type.Optional(
    Type.Enum(['full'], {
      description: '"full": with a time dimension, periods without a value are listed with 0',
    }),
  ),
  version: FilterValue('Only this version (its version text)'),
  product: FilterValue('Only this IDE product code (IU, PS...); empty: the IDE was not told'),
  branch: FilterValue('Only this build branch (241); empty: not told'),
  country: FilterValue('Only this country (ISO 3166 alpha-2); empty: not known'),
  channel: FilterValue('Only this release channel; empty: the stable channel'),
});
export type StatisticQuery = Static<typeof StatisticQuery>;

/** The filters a query carries, by dimension. */
export type StatisticFilters = Partial<Record<FilterDimension, string>>;

export function statisticFiltersOf(query: StatisticQuery): StatisticFilters {
  const filters: StatisticFilters = {};
  for (const dimension of FILTER_DIMENSIONS) {
    const value = query[dimension];
    if (value !== undefined) filters[dimension] = value;
  }
  return filters;
}

export const StatisticResult = Type.Object({
  measure: Type.Enum([...STATISTIC_MEASURES]),
  dimension: Type.Enum([...STATISTIC_DIMENSIONS]),
  data: Type.Array(DownloadStatisticPointSchema, {
    description:
      'Time dimensions: one point per period, named by its first day (yyyy-MM-dd), oldest first. Other ' +
      'dimensions: one point per value, largest first; an empty name is "not told" (stable for channel)',
  }),
  currency: Type.Optional(
    Type.String({ description: 'revenue only: the currency of the values, which are minor units' }),
  ),
  updatedAt: Type.Optional(
    Type.Number({ description: 'activity measures: the time the roll-ups were last brought up to date' }),
  ),
});
export type StatisticResult = Static<typeof StatisticResult>;
