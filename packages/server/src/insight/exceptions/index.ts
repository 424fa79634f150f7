import type { FastifyInstance } from 'fastify';
import { EXCEPTION_LIMITS } from '@marketplace/core';
import { exceptionRoutes, reportReceiver } from './routes';

export { fileReport, fingerprintOf, listGroups, loadGroup, setGroupStatus } from './repository';
export { decodeReportBody, readReportForm, type IncomingReport } from './receive';

export interface ExceptionAnalyzerOptions {
  /** Error reports accepted per minute from one client address (default 60). */
  reportsPerMinute?: number;
}

/**
 * The exception analyzer: IDEs post a plugin's error reports to /trackerRpc/idea/createScr (what a plugin's
 * `ITNReporter` points at), they are grouped by the fingerprint of their normalised stack trace, and the
 * item's people and administrators read and mark the groups under /api/plugins/{id}/exceptions.
 */
export default async function exceptionAnalyzer(
  app: FastifyInstance,
  options: ExceptionAnalyzerOptions = {},
): Promise<void> {
  await app.register(reportReceiver, {
    reportsPerMinute: options.reportsPerMinute ?? EXCEPTION_LIMITS.reportsPerMinute,
  });
  await app.register(exceptionRoutes);
}
