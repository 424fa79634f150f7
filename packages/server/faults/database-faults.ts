import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RATING_CATEGORIES } from '@marketplace/core';
import pg from 'pg';
import {
  createPostgresDatabase,
  describeBody,
  downloadVersion,
  percentile,
  pluginArchive,
  prepareCatalogue,
  sha256,
  sleep,
  startServer,
  terminateBackends,
  uploadVersion,
  type DriverResult,
  type PostgresDatabase,
  type ServerProcess,
} from './support';

export interface DatabaseFaultsOptions {
  /** How long reads and writes flow while connections are cut (ms, FAULTS_DB_SECONDS). */
  durationMs: number;
  /** Time between two cuts, random between these (ms). */
  minGapMs: number;
  maxGapMs: number;
  /** Readers and writers at once (FAULTS_DB_CONCURRENCY each). */
  concurrency: number;
}

/** The generic message of an unexplained 500: a database outage must say more than this. */
const INTERNAL_MESSAGE_START = 'Something went wrong';

type Outcome = 'ok' | 'clear503' | 'unclear' | 'connection';

/**
 * Database faults: while readers (an item, its reviews, a download) and writers (uploads, reviews with
 * stars per category, rating changes) flow, every connection the server holds to PostgreSQL is cut with
 * pg_terminate_backend at random moments. A request in flight may fail, but only with 503 and a message
 * saying the database is unreachable (never a 500 or a dropped connection); the server reconnects by
 * itself (all traffic succeeds again after the last cut, without a restart); no write is half-applied (every
 * version has its audit entry and verification job, every review all its category stars, every plugin's
 * rating totals match its reviews); every acknowledged upload downloads byte-identical.
 */
export async function runDatabaseFaults(options: DatabaseFaultsOptions): Promise<DriverResult> {
  const name = 'database faults (pg_terminate_backend)';
  const failures: string[] = [];
  const dataDir = await mkdtemp(join(tmpdir(), 'mp-faults-db-'));
  let postgres: PostgresDatabase | undefined;
  let server: ServerProcess | undefined;
  // The traffic runs until this is set: after the checks, or when the run ends early with an error.
  let stopped = false;
  try {
    postgres = await createPostgresDatabase('db');
    const home = { dataDir, databaseUrl: postgres.url };
    const reviewerCount = Math.max(8, options.concurrency * 4);
    const catalogue = await prepareCatalogue(home, { pluginCount: 6, reviewerCount, label: 'db' });
    server = await startServer(home);
    const origin = server.origin;
    const running = server;
    // Each plugin gets a first version before the faults, and the readers start once visitors are offered
    // it: a plugin whose only versions still wait for their scan is not listed (src/trust/scanning), which
    // would be a 404 for a reason that has nothing to do with the database.
    for (const plugin of catalogue.plugins) {
      const archive = await pluginArchive(plugin.xmlId, '1.0.0', 30_000);
      const answer = await uploadVersion(origin, catalogue.token, plugin.xmlId, archive);
      if (answer.status !== 200)
        throw new Error(`The first version of ${plugin.xmlId} was refused: ${answer.status}`);
      const deadline = Date.now() + 60_000;
      while ((await fetch(`${origin}/api/plugins/${plugin.id}`)).status !== 200) {
        if (Date.now() > deadline)
          throw new Error(`${plugin.xmlId} was not offered a minute after its upload.`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    let exitedWith: string | undefined;
    server.child.once('exit', (code, signal) => {
      exitedWith = `The server exited (${String(code ?? signal)}) during the faults: ${running.output().slice(-1500)}`;
    });

    const counts: Record<Outcome, number> = { ok: 0, clear503: 0, unclear: 0, connection: 0 };
    const unclear: string[] = [];
    const acknowledged = new Map<number, string>();
    let cutting = true;
    let sequence = 0;

    const classify = (what: string, status: number, body: unknown, expected: number[]): Outcome => {
      if (expected.includes(status)) return 'ok';
      const message = (body as { message?: unknown } | null)?.message;
      if (
        status === 503 &&
        typeof message === 'string' &&
        message.length > 0 &&
        !message.startsWith(INTERNAL_MESSAGE_START)
      ) {
        return 'clear503';
      }
      if (unclear.length < 10) unclear.push(`${what}: ${status} ${describeBody(body)}`);
      return 'unclear';
    };
    const record = (outcome: Outcome, duringFaults: boolean, what: string) => {
      counts[outcome] += 1;
      if (!duringFaults && outcome !== 'ok') {
        failures.push(`After the last cut, ${what} still failed (${outcome}): the server did not recover.`);
      }
    };
    const json = async (response: Response) => {
      const text = await response.text();
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return text;
      }
    };

    const read = async (worker: number, duringFaults: boolean) => {
      const plugin = catalogue.plugins[(worker + sequence++) % catalogue.plugins.length]!;
      const paths = [
        `/api/plugins/${plugin.id}`,
        `/api/comments?pluginId=${plugin.id}`,
        `/api/plugins/${plugin.id}/updates`,
      ];
      const path = paths[sequence % paths.length]!;
      try {
        const response = await fetch(`${origin}${path}`);
        record(classify(`GET ${path}`, response.status, await json(response), [200]), duringFaults, path);
      } catch (error) {
        record('connection', duringFaults, `GET ${path}`);
        if (unclear.length < 10) unclear.push(`GET ${path}: ${(error as Error).message}`);
      }
    };

    const reviewed = new Set<string>();
    const write = async (worker: number, duringFaults: boolean) => {
      const kind = sequence++ % 3;
      const plugin = catalogue.plugins[sequence % catalogue.plugins.length]!;
      try {
        if (kind === 0) {
          const archive = await pluginArchive(plugin.xmlId, `2.${worker}.${sequence}`, 30_000);
          const answer = await uploadVersion(origin, catalogue.token, plugin.xmlId, archive);
          record(classify('upload', answer.status, answer.body, [200]), duringFaults, 'an upload');
          if (answer.versionId !== undefined) acknowledged.set(answer.versionId, sha256(archive));
          return;
        }
        // A review with stars in every category (several rows in one transaction), or a change of stars.
        const reviewer = catalogue.reviewers[(worker * 7 + sequence) % catalogue.reviewers.length]!;
        const key = `${reviewer.id}/${plugin.id}`;
        const categories = Object.fromEntries(
          RATING_CATEGORIES.map((category) => [category, 1 + (sequence % 5)]),
        );
        const fresh = kind === 1 && !reviewed.has(key);
        const response = fresh
          ? await fetch(`${origin}/api/comments`, {
              method: 'POST',
              headers: { authorization: `Bearer ${reviewer.token}`, 'content-type': 'application/json' },
              body: JSON.stringify({
                pluginId: plugin.id,
                rating: 1 + (sequence % 5),
                comment: 'Steady.',
                categories,
              }),
            })
          : await fetch(`${origin}/api/plugins/${plugin.id}/rating`, {
              method: 'PUT',
              headers: { authorization: `Bearer ${reviewer.token}`, 'content-type': 'application/json' },
              body: JSON.stringify({ rating: 1 + (sequence % 5), categories }),
            });
        const body = await json(response);
        // 409: this reviewer reviewed the plugin in a request whose answer the cut lost.
        const outcome = classify(
          fresh ? 'POST /api/comments' : 'PUT rating',
          response.status,
          body,
          [200, 201, 409],
        );
        if (outcome === 'ok') reviewed.add(key);
        record(outcome, duringFaults, fresh ? 'a review' : 'a rating');
      } catch (error) {
        record('connection', duringFaults, 'a write');
        if (unclear.length < 10) unclear.push(`write: ${(error as Error).message}`);
      }
    };

    let faults = 0;
    let connectionsCut = 0;
    const traffic = Promise.all([
      ...Array.from({ length: options.concurrency }, async (_, worker) => {
        while (!stopped) await read(worker, cutting);
      }),
      ...Array.from({ length: options.concurrency }, async (_, worker) => {
        while (!stopped) await write(worker, cutting);
      }),
    ]);
    const started = Date.now();
    while (Date.now() - started < options.durationMs) {
      await sleep(options.minGapMs + Math.random() * (options.maxGapMs - options.minGapMs));
      connectionsCut += await terminateBackends(postgres.name);
      faults += 1;
    }
    // The server reconnects by itself: a moment after the last cut, every request must succeed again.
    await sleep(1000);
    cutting = false;
    const recoveryStarted = Date.now();
    const firstAnswers: number[] = [];
    while (Date.now() - recoveryStarted < 5000) {
      const begin = performance.now();
      if (exitedWith) break;
      const response = await fetch(`${origin}/api/plugins/${catalogue.plugins[0]!.id}`);
      await response.arrayBuffer();
      firstAnswers.push(performance.now() - begin);
      if (response.status !== 200) failures.push(`After the cuts, an item read answered ${response.status}.`);
      await sleep(100);
    }
    stopped = true;
    await traffic;

    if (exitedWith) {
      failures.push(exitedWith);
      return { name, failures, figures: { 'faults injected (cuts)': faults } };
    }
    // Every acknowledged upload is there, byte for byte.
    let lost = 0;
    for (const [versionId, expected] of acknowledged) {
      const answer = await downloadVersion(origin, catalogue.token, versionId);
      // The same content as sent, countersigned by the marketplace.
      if (answer.status !== 200 || answer.contentSha256 !== expected) lost += 1;
    }
    if (lost > 0) failures.push(`${lost} acknowledged upload(s) do not download byte-identical.`);

    // No write half-applied.
    const halfApplied = await halfAppliedWrites(postgres.url);
    failures.push(...halfApplied);

    if (counts.unclear > 0) {
      failures.push(
        `${counts.unclear} answer(s) were neither success nor a clear 503: ${unclear.join(' | ')}`,
      );
    }
    if (counts.connection > 0) failures.push(`${counts.connection} request(s) lost their connection.`);
    if (faults === 0 || connectionsCut === 0)
      failures.push('No connection was cut: the driver proved nothing.');

    return {
      name,
      failures,
      figures: {
        'faults injected (cuts)': faults,
        'connections cut': connectionsCut,
        'requests answered as asked': counts.ok,
        'requests failed with a clear 503': counts.clear503,
        'requests answered otherwise (500...)': counts.unclear,
        'requests that lost their connection': counts.connection,
        'uploads acknowledged': acknowledged.size,
        'acknowledged uploads lost': lost,
        'half-applied writes': halfApplied.length,
        'read p99 ms after the cuts': Math.round(percentile(firstAnswers, 99)),
      },
    };
  } finally {
    stopped = true;
    if (server) await server.stop('SIGTERM').catch(() => undefined);
    await postgres?.drop().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Rows that a multi-row change left without their companions, each as a sentence. */
async function halfAppliedWrites(databaseUrl: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const checks: [string, string][] = [
      [
        'version(s) without their audit entry',
        `SELECT count(*)::int AS n FROM plugin_versions v WHERE NOT EXISTS (SELECT 1 FROM plugin_audit_log a
          WHERE a.action = 'upload-version' AND (a.details->>'versionId')::int = v.id)`,
      ],
      [
        'audit entries of uploads without their version',
        `SELECT count(*)::int AS n FROM plugin_audit_log a WHERE a.action = 'upload-version'
          AND NOT EXISTS (SELECT 1 FROM plugin_versions v WHERE v.id = (a.details->>'versionId')::int)`,
      ],
      [
        'version(s) without their verification job',
        `SELECT count(*)::int AS n FROM plugin_versions v
          WHERE NOT EXISTS (SELECT 1 FROM verification_jobs j WHERE j.version_id = v.id)`,
      ],
      [
        'review(s) without all their category stars',
        `SELECT count(*)::int AS n FROM reviews r WHERE (SELECT count(*) FROM review_category_ratings c
          WHERE c.review_id = r.id) NOT IN (0, ${RATING_CATEGORIES.length})`,
      ],
      [
        'plugin(s) whose rating totals do not match their reviews',
        `SELECT count(*)::int AS n FROM plugins p WHERE p.rating_count <> (SELECT count(*) FROM reviews r
          WHERE r.plugin_id = p.id) OR p.rating_total <> (SELECT coalesce(sum(rating), 0) FROM reviews r
          WHERE r.plugin_id = p.id)`,
      ],
    ];
    const found: string[] = [];
    for (const [label, query] of checks) {
      const result = await client.query<{ n: number }>(query);
      const count = result.rows[0]?.n ?? 0;
      if (count > 0) found.push(`${count} ${label}.`);
    }
    return found;
  } finally {
    await client.end();
  }
}
