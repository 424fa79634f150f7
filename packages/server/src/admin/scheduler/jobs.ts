import type { FastifyInstance } from 'fastify';
import { deleteExpiredSignInRecords } from '../../auth/expired-records';
import { announceCacheEvent } from '../caches/events';
import { applyScheduledPriceChanges } from '../../commerce';
import { rollUpStatistics } from '../../insight';
import { publishingOptionsFromEnv, sweepOrphans } from '../../publishing';
import { verificationOptionsFromEnv, workVerificationQueue } from '../../verification';
import { scanOptionsFromEnv, workScanQueue } from '../../trust/scanning';
import { mirrorOptionsFromEnv, syncMirrors } from '../../trust/mirror';
import type { SchedulerOptions } from './options';
import type { RecurringJob } from './types';

/** Scheduled price changes were looked for every minute before the scheduler; there is no setting. */
const PRICE_CHANGE_INTERVAL_MS = 60_000;

/**
 * The recurring jobs of the marketplace, in the order the administrator sees them. The work is each
 * domain's; the intervals are the domains' existing settings (0 turns a job's schedule off; it can still be
 * run now).
 */
export function recurringJobs(app: FastifyInstance, options: SchedulerOptions): RecurringJob[] {
  return [
    {
      id: 'insight-rollup',
      title: 'Statistics roll-up',
      description:
        'Rolls raw download and update-check events up into daily statistics, and drops months of raw events past retention.',
      intervalMs: app.config.insight.rollupIntervalSeconds * 1000,
      setting: 'INSIGHT_ROLLUP_SECONDS',
      run: () => rollUpStatistics(app),
    },
    {
      id: 'price-changes',
      title: 'Scheduled price changes',
      description: 'Records price changes whose effective time has come, and clears kept answers.',
      intervalMs: PRICE_CHANGE_INTERVAL_MS,
      run: () => applyScheduledPriceChanges(app),
    },
    {
      id: 'verification-queue',
      title: 'Verification queue',
      description: 'Verifies the uploaded versions waiting in the queue against the IDE builds they claim.',
      intervalMs: verificationOptionsFromEnv().workerIntervalMs,
      setting: 'VERIFICATION_INTERVAL_SECONDS',
      run: () => workVerificationQueue(app),
    },
    {
      id: 'trust-scan',
      title: 'Scan queue',
      description:
        'Scans the uploaded versions waiting in the queue (known malware, secrets, native code and scripts out of place, look-alikes) before they are offered.',
      intervalMs: scanOptionsFromEnv().intervalMs,
      setting: 'SCAN_INTERVAL_SECONDS',
      run: () => workScanQueue(app),
    },
    {
      id: 'orphan-sweep',
      title: 'Orphan-file sweep',
      description:
        'Removes stored files no version or image refers to, and what interrupted uploads left behind.',
      intervalMs: publishingOptionsFromEnv().sweepIntervalMs,
      setting: 'SWEEP_INTERVAL_SECONDS',
      run: () => sweepOrphans(app),
    },
    {
      id: 'token-cleanup',
      title: 'Token expiry clean-up',
      description:
        'Deletes API tokens expired or revoked over 30 days ago, and sign-in records past their expiry.',
      intervalMs: options.tokenCleanupIntervalMs,
      setting: 'TOKEN_CLEANUP_SECONDS',
      run: async () => {
        const removed = await deleteExpiredSignInRecords(app.db);
        return `Deleted ${removed.apiTokens} API token(s) and ${removed.signInRecords} sign-in record(s).`;
      },
    },
    {
      id: 'search-reindex',
      title: 'Search re-index',
      description:
        'Rebuilds the search index from the database on this server, then on every other; searches are answered from the old index meanwhile.',
      intervalMs: options.searchReindexIntervalMs,
      setting: 'SEARCH_REINDEX_SECONDS',
      run: async () => {
        await app.caches.reload('search-index').done;
        // The job runs on one node; the others rebuild theirs when they hear this (src/admin/caches).
        await announceCacheEvent(app.db, {
          action: 'reload',
          cacheName: 'search-index',
          origin: app.caches.node,
          requestedBy: null,
        });
        return 'Rebuilt the search index of this server and asked the other servers to rebuild theirs.';
      },
    },
    {
      id: 'trust-mirror',
      title: 'Mirror sync',
      description:
        'Syncs the mirrored marketplaces that are due: new versions fetched, verified and imported byte for byte.',
      intervalMs: mirrorOptionsFromEnv().jobIntervalMs,
      setting: 'MIRROR_INTERVAL_SECONDS',
      run: (context) => syncMirrors(app, context),
    },
  ];
}
