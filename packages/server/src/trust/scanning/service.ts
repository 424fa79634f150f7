import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { publishingOptionsFromEnv } from '../../publishing/options';
import { scanOptionsFromEnv, type ScanOptions } from './options';
import { openScanJobsOfPlugin } from './queue';
import { runScanWorker, type ScanEnvironment } from './worker';

/** How often an approval looks again at a scan that another node is running. */
const SETTLE_LOOK_MS = 200;

/** Where archives are copied while they are scanned: on the data disk, beside uploads. */
export function scanTempDirectory(dataDir: string): string {
  return join(dataDir, 'scanning');
}

/** The environment the worker runs in, for the app and for tests that call the worker directly. */
export function scanEnvironment(
  app: FastifyInstance,
  options: ScanOptions = scanOptionsFromEnv(),
): ScanEnvironment {
  const publishing = publishingOptionsFromEnv();
  return {
    db: app.db,
    fileStore: app.fileStore,
    tempDir: scanTempDirectory(app.config.dataDir),
    options,
    archiveLimits: { ...publishing.archiveLimits, maxArchiveBytes: publishing.maxUploadBytes },
    log: app.log,
    onCatalogueChanged: () => {
      if (app.hasDecorator('catalogueChanged')) app.catalogueChanged();
    },
  };
}

/**
 * This process's scanner: works the queue when nudged (after an upload commits, so that a scan normally ends
 * within moments), when the scheduler's `trust-scan` job runs, and for an approval that waits for the scans
 * of the versions it approves. Runs of the queue in this process never overlap: a nudge during a run makes
 * it go round once more. Other nodes work the same queue; the jobs' leases keep them apart.
 */
export class Scanner {
  private running: Promise<number> | undefined;
  private again = false;
  private closed = false;
  /** Runs of the queue for approvals, awaited on close too. */
  private readonly settling = new Set<Promise<number>>();

  constructor(readonly env: ScanEnvironment) {}

  /** Works the queue in the background, now or right after the run under way. */
  nudge(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    void this.workQueue().catch((error: unknown) =>
      this.env.log.error({ err: error }, 'the scan queue could not be worked'),
    );
  }

  /** Works the queue until no job is due; resolves with how many scans ran (the scheduler's job). */
  async workQueue(): Promise<number> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const run = (async () => {
      let scanned = 0;
      do {
        this.again = false;
        scanned += await runScanWorker(this.env);
      } while (this.again && !this.closed);
      return scanned;
    })();
    this.running = run;
    try {
      return await run;
    } finally {
      this.running = undefined;
    }
  }

  /**
   * Waits until the plugin's versions have no scan under way, so that an approval finds each version
   * passed or quarantined: the run of this process first, then the plugin's due jobs, scanned here, then,
   * for at most SCAN_APPROVAL_WAIT_SECONDS, the ones another node is running. Jobs that back off after a
   * failure are not waited for; their versions stay held until their scan passes.
   */
  async settlePlugin(pluginId: number): Promise<void> {
    const deadline = Date.now() + this.env.options.approvalWaitMs;
    for (;;) {
      await this.running?.catch(() => undefined);
      const settling = runScanWorker(this.env, { pluginId });
      this.settling.add(settling);
      try {
        await settling;
      } finally {
        this.settling.delete(settling);
      }
      const open = await openScanJobsOfPlugin(this.env.db, pluginId);
      const elsewhere = open.filter((job) => job.state === 'running' && job.leaseLive);
      if (elsewhere.length === 0 || Date.now() >= deadline || this.closed) return;
      await sleep(SETTLE_LOOK_MS);
    }
  }

  /** Stops taking work and waits for the run under way (before the database closes). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([this.running, ...this.settling].map((run) => run?.catch(() => undefined)));
  }
}

const scanners = new WeakMap<Database, Scanner>();

/** The scanner of the app's database in this process, made on first use. */
export function scannerFor(app: FastifyInstance): Scanner {
  let scanner = scanners.get(app.db);
  if (!scanner) {
    scanner = new Scanner(scanEnvironment(app));
    scanners.set(app.db, scanner);
  }
  return scanner;
}

/**
 * Makes the app's scanner at start (a wrong SCAN_* setting stops the start) and stops it when the app
 * closes. Publishing calls it when it registers the upload routes.
 */
export function attachScanner(app: FastifyInstance): Scanner {
  const known = scanners.get(app.db);
  if (known) return known;
  const scanner = scannerFor(app);
  app.addHook('onClose', async () => {
    await scanner.close();
    scanners.delete(app.db);
  });
  return scanner;
}
