import type { Statistic, StatisticInput } from '@marketplace/api-client';
import type { StatisticDimension, StatisticMeasure } from '@marketplace/core';
import { api } from '../../../lib/api';
import { useLoad, type Loaded } from '../../../lib/use-load';

export interface StatisticRequest {
  measure: StatisticMeasure;
  dimension: StatisticDimension;
  query: StatisticInput;
}

/**
 * One statistic, loaded when asked (nothing is asked while the range is not valid) and cancelled when the
 * question changes. useLoad keeps the last answer while the next one loads; an answer to another question is
 * not shown as this one's, so the tab says it is getting statistics instead of showing the old measure's.
 */
export function useStatistic(request: StatisticRequest | undefined): Loaded<Statistic | undefined> {
  const key = request ? JSON.stringify(request) : '';
  const [answer] = useLoad(
    async (signal) => ({
      key,
      statistic: request
        ? await api.insight.statistic(request.measure, request.dimension, request.query, { signal })
        : undefined,
    }),
    [key],
  );
  if (answer.status !== 'resolved') return answer;
  if (answer.data.key !== key) return { status: 'pending' };
  return { status: 'resolved', data: answer.data.statistic };
}
