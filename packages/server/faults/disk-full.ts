import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, rmdir, statfs, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { uploadTempDirectory } from '../src/publishing';
import { createFileStore } from '../src/storage';
import {
  createPostgresDatabase,
  describeBody,
  downloadVersion,
  pluginArchive,
  prepareCatalogue,
  sha256,
  startServer,
  uploadVersion,
  type DriverResult,
  type PostgresDatabase,
  type ServerHome,
  type ServerProcess,
} from './support';

const execFileAsync = promisify(execFile);

export interface DiskFullOptions {
  database: 'postgres' | 'pglite';
  /** Size of the tmpfs the data folder lives on (MB, FAULTS_DISK_MB). */
  diskMb: number;
}

/**
 * Disk full during an upload: the data folder (the file store, the temporary uploads and, with PGlite, the
 * database) is a small tmpfs mounted for the run. An archive larger than the space left, and one arriving
 * when a ballast file has taken nearly all of it, must be answered 507 with a message; nothing of them is
 * stored (no version row, no file, no temporary file); reads (an item, a search, a download) keep being
 * served meanwhile; once space is freed an upload succeeds again, without a restart.
 * Needs root (mount -t tmpfs); without it the driver says so and is counted as skipped.
 */
export async function runDiskFull(options: DiskFullOptions): Promise<DriverResult> {
  const name = `disk full during an upload (${options.database})`;
  const failures: string[] = [];
  const driverStarted = Date.now();
  const mountPoint = await mkdtemp(join(tmpdir(), 'mp-faults-disk-'));
  try {
    await execFileAsync('mount', ['-t', 'tmpfs', '-o', `size=${options.diskMb}m`, 'tmpfs', mountPoint]);
  } catch (error) {
    await rmdir(mountPoint).catch(() => undefined);
    return {
      name,
      failures: [],
      figures: {},
      skipped: `a tmpfs cannot be mounted here (${(error as Error).message.split('\n')[0]}): run the suite as root`,
    };
  }
  let postgres: PostgresDatabase | undefined;
  let server: ServerProcess | undefined;
  try {
    if (options.database === 'postgres') postgres = await createPostgresDatabase('disk');
    const home: ServerHome = { dataDir: mountPoint, ...(postgres ? { databaseUrl: postgres.url } : {}) };
    const catalogue = await prepareCatalogue(home, { pluginCount: 2, reviewerCount: 2, label: 'disk' });
    server = await startServer(home);
    const origin = server.origin;
    const plugin = catalogue.plugins[0]!;
    const fileStore = createFileStore(mountPoint);
    const storedFiles = async () => {
      let count = 0;
      for await (const _hash of fileStore.list()) count += 1;
      return count;
    };
    const temporaryFiles = async () =>
      (await readdir(uploadTempDirectory(mountPoint)).catch(() => [])).length +
      (await readdir(fileStore.root).catch(() => [])).filter((entry) => entry.startsWith('.incoming-'))
        .length;
    const freeBytes = async () => {
      const stats = await statfs(mountPoint);
      return stats.bavail * stats.bsize;
    };

    // A version stored while there is room: what the reads below serve.
    const first = await pluginArchive(plugin.xmlId, '1.0.0', 200_000);
    const firstAnswer = await uploadVersion(origin, catalogue.token, plugin.xmlId, first);
    if (firstAnswer.versionId === undefined) {
      failures.push(
        `The first upload, with room to spare, answered ${firstAnswer.status}: ${describeBody(firstAnswer.body)}`,
      );
      return { name, failures, figures: {} };
    }
    const filesBefore = await storedFiles();

    let reads = 0;
    let readsServed = 0;
    const readFailures: string[] = [];
    const readAll = async () => {
      const checks: [string, () => Promise<boolean>][] = [
        [
          `GET /api/plugins/${plugin.id}`,
          async () => (await fetch(`${origin}/api/plugins/${plugin.id}`)).status === 200,
        ],
        [
          'GET /api/searchPlugins',
          async () => (await fetch(`${origin}/api/searchPlugins?search=Fault`)).status === 200,
        ],
        [
          `download of version ${firstAnswer.versionId}`,
          async () => {
            const answer = await downloadVersion(origin, catalogue.token, firstAnswer.versionId!);
            return answer.status === 200 && answer.contentSha256 === sha256(first);
          },
        ],
      ];
      for (const [what, check] of checks) {
        reads += 1;
        const ok = await check().catch(() => false);
        if (ok) readsServed += 1;
        else if (readFailures.length < 5) readFailures.push(what);
      }
    };

    const refusals: { case: string; status: number; body: unknown }[] = [];
    const refusedUpload = async (label: string, version: string, bytes: number) => {
      const archive = await pluginArchive(plugin.xmlId, version, bytes);
      const reading = readAll();
      const answer = await uploadVersion(origin, catalogue.token, plugin.xmlId, archive).catch(
        (error: unknown) => ({ status: 0, body: (error as Error).message, versionId: undefined }),
      );
      await reading;
      refusals.push({ case: label, status: answer.status, body: answer.body });
      const message = (answer.body as { message?: unknown } | null)?.message;
      if (answer.status !== 507 || typeof message !== 'string' || message === '') {
        failures.push(
          `${label}: answered ${answer.status} ${describeBody(answer.body)}, not 507 with a message.`,
        );
      }
      if (answer.versionId !== undefined)
        failures.push(`${label}: a version was stored (${answer.versionId}).`);
    };

    // 1. An archive larger than all the space left.
    const free = await freeBytes();
    await refusedUpload('an archive larger than the free space', '1.1.0', free + 2 * 1024 * 1024);
    // 2. A small archive when a ballast has taken nearly everything.
    const ballast = join(mountPoint, 'ballast.bin');
    const leave = 256 * 1024;
    await writeFile(ballast, Buffer.alloc(Math.max(0, (await freeBytes()) - leave)));
    await refusedUpload('a 1 MB archive with 256 kB left', '1.2.0', 1024 * 1024);
    await readAll();

    const filesAfter = await storedFiles();
    const temporaryLeft = await temporaryFiles();
    if (filesAfter !== filesBefore)
      failures.push(`Refused uploads left ${filesAfter - filesBefore} stored file(s).`);
    if (temporaryLeft > 0) failures.push(`Refused uploads left ${temporaryLeft} temporary file(s).`);
    if (readsServed < reads) {
      failures.push(
        `${reads - readsServed} of ${reads} reads failed while the disk was full: ${readFailures.join(', ')}.`,
      );
    }
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      failures.push(`The server exited while the disk was full: ${server.output().slice(-1500)}`);
    }

    // Space freed: the next upload succeeds without a restart.
    await rm(ballast, { force: true });
    const after = await pluginArchive(plugin.xmlId, '1.3.0', 200_000);
    const afterAnswer = await uploadVersion(origin, catalogue.token, plugin.xmlId, after).catch(
      (error: unknown) => ({ status: 0, body: (error as Error).message, versionId: undefined }),
    );
    const recovered = afterAnswer.versionId !== undefined;
    if (!recovered) {
      failures.push(
        `Once space was freed, an upload answered ${afterAnswer.status}: ${describeBody(afterAnswer.body)}`,
      );
    }

    return {
      name,
      failures,
      durationMs: Date.now() - driverStarted,
      figures: {
        'disk (tmpfs) MB': options.diskMb,
        'faults injected (full disk)': refusals.length,
        'uploads answered 507': refusals.filter((refusal) => refusal.status === 507).length,
        'files left by refused uploads': filesAfter - filesBefore,
        'temporary files left': temporaryLeft,
        'reads served while full': `${readsServed}/${reads}`,
        'upload after space freed': recovered ? 'stored' : `failed (${afterAnswer.status})`,
      },
    };
  } finally {
    if (server) await server.stop('SIGTERM').catch(() => undefined);
    await postgres?.drop().catch(() => undefined);
    await execFileAsync('umount', ['-l', mountPoint]).catch(() => undefined);
    await rm(mountPoint, { recursive: true, force: true }).catch(() => undefined);
  }
}
