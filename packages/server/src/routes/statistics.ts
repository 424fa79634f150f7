import { formatStatisticsDate } from '@marketplace/core';
import { DownloadsPerDayQuery, DownloadsPerDayResult, ErrorBody } from '@marketplace/api-contract';
import { viewerOf } from '../search/sql';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'drizzle-orm';
import { ApiError } from '../plugins/app/errors';
import { selectRows } from '../search/sql';
import { findVisiblePluginId } from './api/plugin-queries';
import { pluginNotFound } from './api/plugins';

/** The longest range one request may ask for: ten years of days. */
export const MAX_STATISTICS_RANGE_DAYS = 3660;
const DAY_MS = 86_400_000;

/** Reads a yyyy-MM-dd day as UTC midnight; undefined for a day that does not exist (2026-02-30). */
export function parseDay(text: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const time = Date.UTC(year, month - 1, day);
  const date = new Date(time);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return undefined;
  return time;
}

/** GET /statistic/downloads-count/day: downloads of a plugin per day, optionally with every day listed. */
const statisticsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/statistic/downloads-count/day',
    {
      config: { cache: 'public' },
      schema: {
        tags: ['statistics'],
        summary:
          'Downloads per day between two days (inclusive); fill=full lists days without downloads as 0',
        querystring: DownloadsPerDayQuery,
        response: { 200: DownloadsPerDayResult, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const { plugin, startDate, endDate, fill } = request.query;
      const start = parseDay(startDate);
      const end = parseDay(endDate);
      if (start === undefined)
        throw new ApiError('validation', `startDate "${startDate}" is not a day of the calendar.`);
      if (end === undefined)
        throw new ApiError('validation', `endDate "${endDate}" is not a day of the calendar.`);
      if (end < start) throw new ApiError('validation', 'endDate must not be before startDate.');
      const days = (end - start) / DAY_MS + 1;
      if (days > MAX_STATISTICS_RANGE_DAYS) {
        throw new ApiError(
          'validation',
          `Ask for at most ${MAX_STATISTICS_RANGE_DAYS} days at once (asked ${days}).`,
        );
      }
      if (!(await findVisiblePluginId(app.db, plugin, viewerOf(request)))) throw pluginNotFound(plugin);
      const rows = await selectRows<{ day: string; value: number }>(
        app.db,
        sql`SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(count)::int AS value FROM download_counts
          WHERE plugin_id = ${plugin} AND day BETWEEN ${startDate}::date AND ${endDate}::date
          GROUP BY day ORDER BY day`,
      );
      let data = rows.map((row) => ({ name: row.day, value: row.value }));
      if (fill === 'full') {
        const byDay = new Map(data.map((point) => [point.name, point.value]));
        data = [];
        for (let time = start; time <= end; time += DAY_MS) {
          const name = formatStatisticsDate(time);
          data.push({ name, value: byDay.get(name) ?? 0 });
        }
      }
      return { measure: 'downloads-count' as const, dimension: 'day' as const, data };
    },
  );
};

export default statisticsRoutes;
