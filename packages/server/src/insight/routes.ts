import {
  ErrorBody,
  StatisticParams,
  StatisticQuery,
  StatisticResult,
  statisticFiltersOf,
} from '@marketplace/api-contract';
import { isActivityMeasure } from '@marketplace/core';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { refusalFor, type AuthRule } from '../auth/authorization';
import { ApiError } from '../plugins/app/errors';
import { pluginManagers } from '../publishing/plugin-access';
import { findVisiblePluginId } from '../routes/api/plugin-queries';
import { pluginNotFound } from '../routes/api/plugins';
import { viewerOf } from '../search/sql';
import { rolledUpUntil } from './rollup';
import {
  checkStatisticRequest,
  publicDailyDownloads,
  readStatistic,
  type StatisticRequest,
} from './statistics';

/** The item's people (owner, developers) and administrators; the plugin comes from the `plugin` query parameter. */
function managersOfPluginQuery(request: FastifyRequest) {
  const id = Number((request.query as { plugin?: unknown }).plugin);
  if (!Number.isSafeInteger(id) || id <= 0) return Promise.resolve(undefined);
  return pluginManagers(request.server.db, id);
}

const ITEM_PEOPLE: AuthRule = { rule: 'owner', ownerOf: managersOfPluginQuery };

/**
 * GET /statistic/{measure}/{dimension} (spec §7): any measure by any dimension, for the item's people and
 * administrators; and GET /statistic/downloads-count/day, the public daily downloads, which the same
 * people may also filter by the other dimensions.
 */
export const statisticRoutes =
  (currency: string): FastifyPluginAsyncTypebox =>
  async (app) => {
    async function answer(request: StatisticRequest) {
      checkStatisticRequest(request);
      const data = await readStatistic(app.db, request);
      const updatedAt = isActivityMeasure(request.measure) ? await rolledUpUntil(app.db) : undefined;
      return {
        measure: request.measure,
        dimension: request.dimension,
        data,
        ...(request.measure === 'revenue' ? { currency } : {}),
        ...(updatedAt ? { updatedAt: updatedAt.getTime() } : {}),
      };
    }

    app.get(
      '/statistic/downloads-count/day',
      {
        config: { cache: 'public' },
        schema: {
          tags: ['statistics'],
          summary:
            'Downloads per day between two days (inclusive); fill=full lists days without downloads as 0. ' +
            'Public; filters (version, product, branch, country, channel) are for the item’s developers and administrators',
          querystring: StatisticQuery,
          response: { 200: StatisticResult, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
        },
      },
      async (request) => {
        const { plugin, startDate, endDate, fill } = request.query;
        const statisticRequest: StatisticRequest = {
          pluginId: plugin,
          measure: 'downloads-count',
          dimension: 'day',
          startDate,
          endDate,
          filters: statisticFiltersOf(request.query),
          fill: fill === 'full',
        };
        if (Object.keys(statisticRequest.filters).length > 0) {
          const refusal = await refusalFor(request, ITEM_PEOPLE);
          if (refusal) {
            const code =
              refusal.status === 401 ? 'unauthorized' : refusal.status === 403 ? 'forbidden' : 'notFound';
            throw new ApiError(code, refusal.message);
          }
          return answer(statisticRequest);
        }
        checkStatisticRequest(statisticRequest);
        if (!(await findVisiblePluginId(app.db, plugin, viewerOf(request)))) throw pluginNotFound(plugin);
        // The public count is kept as downloads happen (download_counts), not rolled up: it is never behind.
        return {
          measure: 'downloads-count' as const,
          dimension: 'day' as const,
          data: await publicDailyDownloads(app.db, statisticRequest),
        };
      },
    );

    app.get(
      '/statistic/:measure/:dimension',
      {
        config: { auth: ITEM_PEOPLE },
        schema: {
          tags: ['statistics'],
          summary:
            'A measure of an item by a dimension between two days (inclusive), with filters of the other dimensions; for its developers and administrators',
          params: StatisticParams,
          querystring: StatisticQuery,
          response: { 200: StatisticResult, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
        },
      },
      async (request) => {
        const { measure, dimension } = request.params;
        const { plugin, startDate, endDate, fill } = request.query;
        return answer({
          pluginId: plugin,
          measure,
          dimension,
          startDate,
          endDate,
          filters: statisticFiltersOf(request.query),
          fill: fill === 'full',
        });
      },
    );
  };
