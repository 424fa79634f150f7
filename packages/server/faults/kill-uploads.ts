import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/db/client';
import { pluginVersions } from '../src/db/schema';
import { sweepOrphanedFiles, uploadTempDirectory } from '../src/publishing';
import { createFileStore } from '../src/storage';
import { freePort } from '../test/support/server-process';
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
  uploadVersion,
  type DriverResult,
  type PostgresDatabase,
  type ServerHome,
  type ServerProcess,
} from './support';

export interface KillUploadsOptions {
  database: 'postgres' | 'pglite';
  /** SIGKILLs to deliver (FAULTS_KILLS, FAULTS_KILLS_PGLITE). */
  kills: number;
  /** Uploads in flight at once (FAULTS_KILL_CONCURRENCY). */
  concurrency: number;
  /** The server lives a random time between these after its first acknowledged upload, then is killed (ms). */
  minUpMs: number;
  maxUpMs: number;
  /** Random payload per archive, between these (bytes). */
  minArchiveBytes: number;
  maxArchiveBytes: number;
}

/**
 * Kill -9 during uploads: `concurrency` uploaders send real plugin archives to the real server while it is
 * SIGKILLed at random moments and started again on the same data, `kills` times. Then: every upload that
 * was answered 200 downloads byte-identical, every version row has its file (with the content its hash
 * names), and no stored file is left that no version owns once the orphan sweep has run (files written
 * between the store and the commit when the kill came are what the sweep is for; the figure says how many).
 */
export async function runKillUploads(options: KillUploadsOptions): Promise<DriverResult> {
  const name = `kill -9 during uploads (${options.database})`;
  const failures: string[] = [];
  const driverStarted = Date.now();
  const dataDir = await mkdtemp(join(tmpdir(), 'mp-faults-kill-'));
  let postgres: PostgresDatabase | undefined;
  let server: ServerProcess | undefined;
  try {
    if (options.database === 'postgres') postgres = await createPostgresDatabase('kill');
    const home: ServerHome = { dataDir, ...(postgres ? { databaseUrl: postgres.url } : {}) };
    const catalogue = await prepareCatalogue(home, { pluginCount: 3, label: 'kill' });
    const port = await freePort();

    // version id -> sha256 of the archive sent (downloads carry it countersigned: compared without signatures)
    const acknowledged = new Map<number, string>();
    let attempted = 0;
    let unanswered = 0;
    let refused = 0;
    let sequence = 0;
    const restartMs: number[] = [];

    for (let kill = 0; kill < options.kills; kill++) {
      const started = Date.now();
      server = await startServer(home, { port });
      restartMs.push(Date.now() - started);
      let killed = false;
      let firstAcknowledged: () => void = () => undefined;
      const acknowledgedInThisLife = new Promise<void>((resolve) => (firstAcknowledged = resolve));
      const uploader = async (worker: number) => {
        while (!killed) {
          sequence += 1;
          const plugin = catalogue.plugins[worker % catalogue.plugins.length]!;
          const size =
            options.minArchiveBytes +
            Math.floor(Math.random() * (options.maxArchiveBytes - options.minArchiveBytes));
          const archive = await pluginArchive(plugin.xmlId, `1.${kill}.${sequence}`, size);
          attempted += 1;
          try {
            const answer = await uploadVersion(server!.origin, catalogue.token, plugin.xmlId, archive);
            if (answer.versionId !== undefined) {
              acknowledged.set(answer.versionId, sha256(archive));
              firstAcknowledged();
            } else {
              refused += 1;
              failures.push(`An upload was answered ${answer.status}: ${describeBody(answer.body)}`);
            }
          } catch (error) {
            // A request in flight when the kill came fails with a reset connection: not acknowledged.
            if (killed) unanswered += 1;
            else failures.push(`An upload failed before any kill: ${(error as Error).message}`);
          }
        }
      };
      const uploads = Promise.all(
        Array.from({ length: options.concurrency }, (_, worker) => uploader(worker)),
      );
      // The kill comes a random time after this life's first acknowledged upload (or after a minute without
      // one), so that every kill lands among uploads in flight however slowly a loaded machine answers.
      await Promise.race([acknowledgedInThisLife, sleep(60_000)]);
      await sleep(options.minUpMs + Math.random() * (options.maxUpMs - options.minUpMs));
      killed = true;
      await server.stop('SIGKILL');
      await uploads;
    }

    // Started once more on what the kills left: everything acknowledged is there, byte for byte.
    const started = Date.now();
    server = await startServer(home, { port });
    restartMs.push(Date.now() - started);
    let lost = 0;
    for (const [versionId, expected] of acknowledged) {
      const answer = await downloadVersion(server.origin, catalogue.token, versionId);
      if (answer.status !== 200 || answer.contentSha256 !== expected) {
        lost += 1;
        failures.push(
          `Acknowledged version ${versionId} ${answer.status === 200 ? 'downloads different bytes' : `answers ${answer.status}`}.`,
        );
      }
    }
    await server.stop('SIGTERM');
    server = undefined;

    // Every version row has its file, with the content its hash names; then no file without a row.
    const database = await openDatabase({ dataDir, databaseUrl: postgres?.url, maxConnections: 2 });
    let versions = 0;
    let missingFiles = 0;
    let orphansBeforeSweep = 0;
    let orphansAfterSweep = 0;
    let temporaryLeft = 0;
    let swept = { files: 0, temporary: 0, claims: 0 };
    try {
      const fileStore = createFileStore(dataDir);
      const rows = await database.db
        .select({ id: pluginVersions.id, fileHash: pluginVersions.fileHash })
        .from(pluginVersions);
      versions = rows.length;
      for (const row of rows) {
        const opened = await fileStore.open(row.fileHash);
        if (!opened) {
          missingFiles += 1;
          failures.push(`Version ${row.id} is listed but its file ${row.fileHash} is missing.`);
          continue;
        }
        const hash = createHash('sha256');
        for await (const chunk of opened.stream) hash.update(chunk as Buffer);
        if (hash.digest('hex') !== row.fileHash) {
          missingFiles += 1;
          failures.push(`Version ${row.id}'s file does not hash to ${row.fileHash}.`);
        }
      }
      const referenced = new Set(rows.map((row) => row.fileHash));
      for await (const hash of fileStore.list()) if (!referenced.has(hash)) orphansBeforeSweep += 1;
      const result = await sweepOrphanedFiles(database.db, fileStore, {
        graceMs: 0,
        now: new Date(Date.now() + 1000),
        temporaryDirectories: [uploadTempDirectory(dataDir)],
      });
      swept = {
        files: result.removedFiles.length,
        temporary: result.removedTemporaryFiles,
        claims: result.removedClaims,
      };
      for await (const hash of fileStore.list()) if (!referenced.has(hash)) orphansAfterSweep += 1;
      temporaryLeft =
        (await readdir(uploadTempDirectory(dataDir)).catch(() => [])).length +
        (await readdir(fileStore.root).catch(() => [])).filter((entry) => entry.startsWith('.incoming-'))
          .length;
    } finally {
      await database.close();
    }
    if (orphansAfterSweep > 0)
      failures.push(`${orphansAfterSweep} stored file(s) no version owns after the sweep.`);
    if (temporaryLeft > 0) failures.push(`${temporaryLeft} temporary upload file(s) left after the sweep.`);
    if (versions < acknowledged.size) {
      failures.push(`${versions} version rows for ${acknowledged.size} acknowledged uploads.`);
    }
    if (acknowledged.size === 0) failures.push('No upload was acknowledged: the driver proved nothing.');

    return {
      name,
      failures,
      durationMs: Date.now() - driverStarted,
      figures: {
        'faults injected (SIGKILL)': options.kills,
        'uploads attempted': attempted,
        'uploads acknowledged (200)': acknowledged.size,
        'uploads in flight at a kill': unanswered,
        'uploads refused (non-200)': refused,
        'acknowledged uploads lost': lost,
        'version rows': versions,
        'versions whose file is missing': missingFiles,
        'orphan files before the sweep': orphansBeforeSweep,
        'orphans removed by the sweep': swept.files,
        'orphan files after the sweep': orphansAfterSweep,
        'temporary files swept / left': `${swept.temporary} / ${temporaryLeft}`,
        'restart ms (p50 / max)': `${Math.round(percentile(restartMs, 50))} / ${Math.round(Math.max(...restartMs))}`,
      },
    };
  } finally {
    if (server) await server.stop('SIGKILL').catch(() => undefined);
    await postgres?.drop().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
  }
}
