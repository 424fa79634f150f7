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
    app.decorate('insightRecorder', new InsightRecorder(app.db, countries));
  },
  { name: 'insight-recording', fastify: '5.x', dependencies: ['services'] },
);

export interface InsightOptions {
  /** How often the roll-up job runs, in ms; the configuration's interval by default (0: never, for tests). */
  rollupIntervalMs?: number;
}

/**
 * Insight: statistics by measure and dimension, the exception analyzer, and the job that rolls raw events
 * up into daily counts.
 */
export default async function insight(app: FastifyInstance, options: InsightOptions = {}): Promise<void> {
  await app.register(statisticRoutes(app.config.commerce.currency.code));
  await app.register(exceptionAnalyzer);

  // A node that was down over a month's turn creates the month's partition before events arrive.
  app.addHook('onReady', async () => preparePartitions(app.db, new Date()));

  const intervalMs = options.rollupIntervalMs ?? app.config.insight.rollupIntervalSeconds * 1000;
  if (intervalMs > 0) {
    let running: Promise<unknown> | undefined;
    const run = () => {
      if (running) return;
      running = rollUpInsight(app.db, { keepMonths: app.config.insight.keepEventMonths })
        .then((result) => {
          if (result.droppedPartitions.length > 0)
            app.log.info(
              { partitions: result.droppedPartitions },
              'dropped raw insight events past retention',
            );
        })
        .catch((error: unknown) => app.log.error({ err: error }, 'rolling up statistics failed'))
        .finally(() => {
          running = undefined;
        });
    };
    const timer = setInterval(run, intervalMs);
    timer.unref();
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await running;
    });
  }
}
