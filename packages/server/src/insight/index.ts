import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import exceptionAnalyzer from './exceptions';
import { openCountryLookup } from './geo';
import { InsightRecorder } from './recorder';
import { preparePartitions, rollUpInsight } from './rollup';
import { statisticRoutes } from './routes';

export { countUpdateChecks, InsightRecorder, type ClientFacts } from './recorder';
export { rollUpInsight } from './rollup';
export { readStatistic } from './statistics';

declare module 'fastify' {
  interface FastifyInstance {
    /** Records downloads and update checks as insight events (src/insight). */
    insightRecorder: InsightRecorder;
  }
}

/**
 * What the catalogue routes need from insight before they are registered: the recorder of downloads and
 * update checks (with the country database opened once).
 */
export const insightRecording = fp(
  async function insightRecording(app: FastifyInstance) {
    const countries = await openCountryLookup(app.config.insight.geoipDatabase);
    app.decorate(
      'insightRecorder',
      new InsightRecorder(app.db, countries, app.config.insight.consentRequired),
    );
  },
  { name: 'insight-recording', fastify: '5.x', dependencies: ['services'] },
);

/**
 * Insight: statistics by measure and dimension, the exception analyzer, and the work of the job that rolls
 * raw events up into daily counts ({@link rollUpStatistics}, run by the admin scheduler).
 */
export default async function insight(app: FastifyInstance): Promise<void> {
  await app.register(statisticRoutes(app.config.commerce.currency.code));
  await app.register(exceptionAnalyzer);

  // A node that was down over a month's turn creates the month's partition before events arrive.
  app.addHook('onReady', async () => preparePartitions(app.db, new Date()));
}

/**
 * The statistics roll-up, once: the admin scheduler (src/admin/scheduler) runs it every
 * INSIGHT_ROLLUP_SECONDS. Resolves with what it did.
 */
export async function rollUpStatistics(app: FastifyInstance): Promise<string> {
  const result = await rollUpInsight(app.db, { keepMonths: app.config.insight.keepEventMonths });
  if (result.droppedPartitions.length > 0) {
    app.log.info({ partitions: result.droppedPartitions }, 'dropped raw insight events past retention');
  }
  const dropped = result.droppedPartitions.length;
  return `Rolled up ${result.days.length} day(s)${dropped > 0 ? `; dropped ${dropped} month(s) of raw events past retention` : ''}.`;
}
