import type { StatisticQuery, StatisticResult } from '@marketplace/api-contract';
import type { StatisticDimension, StatisticMeasure } from '@marketplace/core';
import { pathId } from './paths';
import { buildQuery } from './query';
import type { ApiTransport, CallOptions } from './transport';

/** A statistic's answer: points `{name, value}`, revenue's currency, and when the roll-ups were brought up to date. */
export type Statistic = StatisticResult;
/**
 * What a statistic is asked for: the plugin, the first and last day (yyyy-MM-dd, inclusive), `fill: 'full'` for
 * periods without a value, and filters by version, product, branch, country or channel. An empty filter is a
 * value of its own ('' is "not told"; for channel, the stable channel), so only `undefined` leaves one out.
 */
export type StatisticInput = StatisticQuery;

/** The paths of the insight routes (spec §7 `GET {measure}/{dimension}` below `/statistic`). */
export const insightPaths = {
  /**
   * The measure and dimension are words of core's lists (the types say so) and need no escaping; the days are
   * checked by the server (400 for anything but a yyyy-MM-dd day), so the client stays small on public pages.
   * Filters go as given: an empty one is sent (`product=`), only an absent one is left out.
   */
  statistic: (measure: StatisticMeasure, dimension: StatisticDimension, query: StatisticInput) =>
    `/statistic/${measure}/${dimension}${buildQuery({ ...query, plugin: pathId('Plugin id', query.plugin) })}`,
};

/**
 * Statistics by measure and dimension. Only the item's people and administrators may read them (the public
 * only the daily downloads), so calls carry the signed-in user's token as every call does.
 */
export class InsightClient {
  constructor(private readonly transport: ApiTransport) {}

  /**
   * One measure broken down by one dimension: per period (oldest first, named by the period's first day) for
   * day, week and month; per value (largest first) for the others.
   */
  statistic(
    measure: StatisticMeasure,
    dimension: StatisticDimension,
    query: StatisticInput,
    options: CallOptions = {},
  ): Promise<Statistic> {
    return this.transport.sendJson<Statistic>({
      ...options,
      method: 'GET',
      path: insightPaths.statistic(measure, dimension, query),
    });
  }
}
