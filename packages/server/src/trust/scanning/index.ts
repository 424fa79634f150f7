import type { FastifyInstance } from 'fastify';
import { scannerFor } from './service';

export { enqueueScan } from './queue';
export { attachScanner, scanEnvironment, scannerFor, Scanner, scanTempDirectory } from './service';
export { runScanWorker, type ScanEnvironment } from './worker';
export { scanOptionsFromEnv, ScanConfigError, type ScanOptions } from './options';
export { scanningRoutes } from './routes';
export type { ScanFinding, ScanSeverity } from './findings';

/**
 * The scan queue, worked once until no job is due: the admin scheduler (src/admin/scheduler) runs it every
 * SCAN_INTERVAL_SECONDS on one node at a time; uploads also nudge this node's scanner at once.
 */
export async function workScanQueue(app: FastifyInstance): Promise<string> {
  const scanned = await scannerFor(app).workQueue();
  return scanned === 0 ? 'No version was waiting for its scan.' : `Scanned ${scanned} version(s).`;
}
