import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  createPostgresDatabase,
  fitLine,
  openDescriptors,
  percentile,
  pluginArchive,
  prepareCatalogue,
  residentBytes,
  serverPid,
  sleep,
  startServer,
  uploadVersion,
  type DriverResult,
  type PostgresDatabase,
  type ServerProcess,
} from './support';

export interface SoakOptions {
  /** How long the traffic flows (ms, FAULTS_SOAK_MINUTES). */
  durationMs: number;
  /** Requests started per second, whatever the answers take (FAULTS_SOAK_RPS). */
  requestsPerSecond: number;
  /** Memory and descriptors sampled this often (ms, FAULTS_SOAK_SAMPLE_SECONDS). */
  sampleMs: number;
  /**
   * The first part of the traffic, not judged for memory: JIT, caches and pools filling (ms,
   * FAULTS_SOAK_WARM_UP_SECONDS). A quarter of a long soak; most of a short one, whose warm-up still grows.
   */
  warmUpMs: number;
  /** Resident memory may grow at most this fast after the warm-up (MB per hour, FAULTS_SOAK_MAX_SLOPE_MB_H). */
  maxSlopeMbPerHour: number;
}

type Operation = 'search' | 'item' | 'feed' | 'download' | 'upload' | 'review';

/** The traffic mix, per 100 requests. */
const MIX: [Operation, number][] = [
  ['search', 35],
  ['item', 22],
  ['feed', 10],
  ['download', 20],
  ['upload', 3],
  ['review', 10],
];

const SEARCH_WORDS = ['Fault', 'plugin', 'number', 'suite', 'soak', 'xyz', '1', 'Plugin 7', ''];

/**
 * Soak: mixed traffic (search, item, IDE feed, download, upload, review) started at a steady rate for the
 * whole duration, against one server process on PostgreSQL. Every answer must be the one the request asks
 * for; resident memory and open descriptors are sampled every `sampleMs`: the slope of a line fitted to
 * memory after the warm-up (JIT, caches, pools filling) must stay under the limit, and descriptors must end
 * where they were after the warm-up.
 */
export async function runSoak(options: SoakOptions): Promise<DriverResult> {
  const name = 'soak (mixed traffic)';
  const failures: string[] = [];
  const dataDir = await mkdtemp(join(tmpdir(), 'mp-faults-soak-'));
  let postgres: PostgresDatabase | undefined;
  let server: ServerProcess | undefined;
  try {
    postgres = await createPostgresDatabase('soak');
    const home = { dataDir, databaseUrl: postgres.url };
    const catalogue = await prepareCatalogue(home, { pluginCount: 20, reviewerCount: 20, label: 'soak' });
    server = await startServer(home);
    const origin = server.origin;
    const pid = serverPid(server);

    // A first version of every plugin, approved, so that the feed and public downloads have something.
    const versionIds: number[] = [];
    for (const plugin of catalogue.plugins) {
      const answer = await uploadVersion(
        origin,
        catalogue.token,
        plugin.xmlId,
        await pluginArchive(plugin.xmlId, '1.0.0', 100_000),
      );
      if (answer.versionId === undefined)
        throw new Error(`The first version of ${plugin.xmlId} was refused.`);
      versionIds.push(answer.versionId);
    }
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    await client.query(`UPDATE plugin_versions SET approval_state = 'approved'`);
    await client.end();

    const counts = new Map<Operation, { sent: number; failed: number; ms: number[] }>(
      MIX.map(([operation]) => [operation, { sent: 0, failed: 0, ms: [] }]),
    );
    const unexpected: string[] = [];
    let sequence = 0;
    let uploads = 0;
    const pick = (n: number): Operation => {
      let left = n % 100;
      for (const [operation, share] of MIX) {
        if (left < share) return operation;
        left -= share;
      }
      return 'search';
    };
    const perform = async (operation: Operation, n: number) => {
      const plugin = catalogue.plugins[n % catalogue.plugins.length]!;
      const started = performance.now();
      let status = 0;
      let expected = [200];
      let detail = '';
      try {
        switch (operation) {
          case 'search': {
            const word = SEARCH_WORDS[n % SEARCH_WORDS.length]!;
            const response = await fetch(
              `${origin}/api/searchPlugins?search=${encodeURIComponent(word)}&max=10`,
            );
            status = response.status;
            await response.arrayBuffer();
            break;
          }
          case 'item': {
            const response = await fetch(`${origin}/api/plugins/${plugin.id}`);
            status = response.status;
            await response.arrayBuffer();
            break;
          }
          case 'feed': {
            const response = await fetch(`${origin}/plugins/list?build=IU-243.12818`, {
              headers: { 'accept-encoding': 'gzip' },
            });
            status = response.status;
            await response.arrayBuffer();
            break;
          }
          case 'download': {
            const versionId = versionIds[n % versionIds.length]!;
            const response = await fetch(`${origin}/plugin/download?updateId=${versionId}`);
            status = response.status;
            await response.arrayBuffer();
            break;
          }
          case 'upload': {
            uploads += 1;
            const archive = await pluginArchive(plugin.xmlId, `2.${uploads}.0`, 50_000 + (n % 7) * 20_000);
            const answer = await uploadVersion(origin, catalogue.token, plugin.xmlId, archive);
            status = answer.status;
            if (status !== 200) detail = JSON.stringify(answer.body).slice(0, 200);
            break;
          }
          case 'review': {
            // Stars set again and again: a review created once per reviewer and plugin, then changed.
            const reviewer = catalogue.reviewers[Math.floor(n / 7) % catalogue.reviewers.length]!;
            const response = await fetch(`${origin}/api/plugins/${plugin.id}/rating`, {
              method: 'PUT',
              headers: { authorization: `Bearer ${reviewer.token}`, 'content-type': 'application/json' },
              body: JSON.stringify({ rating: 1 + (n % 5) }),
            });
            status = response.status;
            expected = [200, 201];
            const text = await response.text();
            if (!expected.includes(status)) detail = text.slice(0, 200);
            break;
          }
        }
      } catch (error) {
        detail = (error as Error).message;
      }
      const entry = counts.get(operation)!;
      entry.sent += 1;
      entry.ms.push(performance.now() - started);
      if (!expected.includes(status)) {
        entry.failed += 1;
        if (unexpected.length < 10) unexpected.push(`${operation}: ${status} ${detail}`);
      }
    };

    // Sockets come and go with the traffic's connections; files and pipes are what a leak shows in.
    const samples: { t: number; rss: number; fds: number; sockets: number; other: number }[] = [];
    const sample = async () => {
      const [rss, fds] = await Promise.all([residentBytes(pid), openDescriptors(pid)]);
      samples.push({
        t: Date.now(),
        rss,
        fds: fds.total,
        sockets: fds.sockets,
        other: fds.files + fds.other,
      });
    };

    const started = Date.now();
    await sample();
    let nextSample = started + options.sampleMs;
    // Samples are taken beside the traffic, one after another, never holding up a request's start.
    let sampling: Promise<void> = Promise.resolve();
    let samplingError: unknown;
    const inFlight = new Set<Promise<void>>();
    let skipped = 0;
    // Start times the generator itself missed (its process not run on time, on a busy machine): dropped, not
    // made up in a burst, which would fill the 64 places at once and blame the server for the generator.
    let generatorMissed = 0;
    let generatorLateMs = 0;
    const interval = 1000 / options.requestsPerSecond;
    let nextStart = performance.now();
    while (Date.now() - started < options.durationMs) {
      if (Date.now() >= nextSample) {
        nextSample += options.sampleMs;
        sampling = sampling.then(sample).catch((error: unknown) => {
          samplingError ??= error;
        });
      }
      const wait = nextStart - performance.now();
      if (wait > 0) await sleep(wait);
      const late = performance.now() - nextStart;
      if (late >= interval) {
        const missed = Math.floor(late / interval);
        generatorMissed += missed;
        generatorLateMs = Math.max(generatorLateMs, late);
        nextStart += missed * interval;
      }
      nextStart += interval;
      // An open loop: requests start on time whatever the answers take, up to 64 in flight.
      if (inFlight.size >= 64) {
        skipped += 1;
        continue;
      }
      const n = sequence++;
      const running = perform(pick(n * 37), n).finally(() => inFlight.delete(running));
      inFlight.add(running);
    }
    await Promise.all(inFlight);
    await sampling;
    if (samplingError) throw samplingError;
    await sleep(1000);
    await sample();
    if (server.child.exitCode !== null) failures.push('The server exited during the soak.');

    // After the warm-up, memory flat and descriptors back where they were.
    const warm = samples.filter((point) => point.t - started >= options.warmUpMs);
    const fitted = fitLine(
      warm.map((point) => ({ x: (point.t - started) / 3_600_000, y: point.rss / 1048576 })),
    );
    const slope = fitted.slope;
    const firstWarm = warm[0] ?? samples[0]!;
    const last = samples.at(-1)!;
    const sent = [...counts.values()].reduce((sum, entry) => sum + entry.sent, 0);
    const failed = [...counts.values()].reduce((sum, entry) => sum + entry.failed, 0);
    if (failed > 0)
      failures.push(`${failed} answer(s) other than the traffic asked for: ${unexpected.join(' | ')}`);
    if (warm.length >= 3 && slope > options.maxSlopeMbPerHour) {
      failures.push(
        `Resident memory grew ${slope.toFixed(1)} MB/hour after the warm-up (limit ${options.maxSlopeMbPerHour}).`,
      );
    }
    if (last.other > firstWarm.other + 3) {
      failures.push(
        `Open files and pipes went from ${firstWarm.other} (after the warm-up) to ${last.other}: a leak.`,
      );
    }
    const maxSockets = Math.max(...samples.map((point) => point.sockets));
    if (skipped > sent / 100)
      failures.push(`${skipped} request(s) could not start on time: the server fell behind.`);
    const slots = sent + skipped + generatorMissed;
    if (generatorMissed > slots / 10)
      failures.push(
        `The load generator missed ${generatorMissed} of its ${slots} start times (up to ` +
          `${(generatorLateMs / 1000).toFixed(1)} s late): the machine was too busy for the soak to judge the server.`,
      );
    const all = [...counts.values()].flatMap((entry) => entry.ms);
    const byOperation = Object.fromEntries(
      [...counts].map(([operation, entry]) => [
        `${operation}: sent / failed / p99 ms`,
        `${entry.sent} / ${entry.failed} / ${Math.round(percentile(entry.ms, 99))}`,
      ]),
    );
    return {
      name,
      failures,
      figures: {
        'duration / warm-up min': `${Math.round(options.durationMs / 6000) / 10} / ${Math.round(options.warmUpMs / 6000) / 10}`,
        'requests sent (rate /s)': `${sent} (${options.requestsPerSecond})`,
        'unexpected answers': failed,
        'p50 / p99 ms': `${percentile(all, 50).toFixed(1)} / ${percentile(all, 99).toFixed(1)}`,
        ...byOperation,
        'memory samples': samples.length,
        'RSS MB start / after warm-up / end': `${(samples[0]!.rss / 1048576).toFixed(0)} / ${(firstWarm.rss / 1048576).toFixed(0)} / ${(last.rss / 1048576).toFixed(0)}`,
        'RSS slope after warm-up MB/hour': Number(slope.toFixed(2)),
        'fds start / after warm-up / end': `${samples[0]!.fds} / ${firstWarm.fds} / ${last.fds}`,
        'non-socket fds after warm-up / end': `${firstWarm.other} / ${last.other}`,
        'sockets at most': maxSockets,
        'requests skipped (server behind)': skipped,
        'start times missed by the generator (at most, ms)': `${generatorMissed} (${Math.round(generatorLateMs)})`,
      },
    };
  } finally {
    if (server) await server.stop('SIGTERM').catch(() => undefined);
    await postgres?.drop().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
  }
}
