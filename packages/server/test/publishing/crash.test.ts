import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApiToken } from '../../src/auth/api-tokens';
import { createLocalUser } from '../../src/auth/users';
import { openDatabase } from '../../src/db/client';
import { migrate } from '../../src/db/migrate';
import { pluginVersions } from '../../src/db/schema';
import { sweepOrphanedFiles, uploadTempDirectory } from '../../src/publishing';
import { createFileStore } from '../../src/storage';
import { unsignedZip, verifySignatures } from '../../src/trust/signatures';
import { archiveBytes, pluginJarContent, pluginXml } from '../archive/plugin-fixtures';
import { freePort, startServerProcess, type ServerProcess } from '../support/server-process';
import { insertPlugin } from './publishing-test-app';

// A real server process is started three times, and PGlite recovers after the kill: minutes on a busy machine.
vi.setConfig({ testTimeout: 240_000, hookTimeout: 60_000 });

/** The server with this data folder, as `pnpm start` runs it (no demo, no sweep, no Redis). */
function startServer(dataDir: string, port: number): Promise<ServerProcess> {
  return startServerProcess({
    port,
    env: {
      DATA_DIR: dataDir,
      NO_DEMO: 'true',
      LOG_LEVEL: 'warn',
      WRITE_RATE_LIMIT: '100000',
      SWEEP_INTERVAL_SECONDS: '0',
      REDIS_URL: '',
    },
  });
}

/** A plugin jar of about `size` bytes (random, so it does not compress), declaring `version`. */
async function jarOfVersion(version: string, size: number): Promise<Buffer> {
  return archiveBytes({
    ...pluginJarContent(pluginXml({ version: `<version>${version}</version>` })),
    'resources/payload.bin': randomBytes(size),
  });
}

describe('a server killed with SIGKILL while uploads are in flight', () => {
  let dataDir: string;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'mp-crash-'));
  });
  afterAll(async () => {
    if (server) await server.stop('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged upload, no row without its file, and no unreferenced file after the sweep', async () => {
    // The plugin, its owner and an upload token, written before the server owns the embedded database.
    const setup = await openDatabase({ dataDir });
    await migrate(setup);
    const owner = await createLocalUser(setup.db, { login: 'crash-owner', password: 'crash-owner-password' });
    const pluginId = await insertPlugin(setup.db, { xmlId: 'com.example.rainbow', ownerId: owner.id });
    const { token } = await createApiToken(setup.db, {
      userId: owner.id,
      name: 'gradle',
      scopes: ['upload'],
    });
    await setup.close();

    const port = await freePort();
    server = await startServer(dataDir, port);
    const baseUrl = server.origin;

    const acknowledged = new Map<number, string>(); // version id -> sha256 of the archive
    let attempted = 0;
    let stopped = false;
    const uploadOne = async (index: number) => {
      const jar = await jarOfVersion(`3.0.${index}`, 1_500_000 + index * 10_000);
      const form = new FormData();
      form.set('file', new Blob([jar]), `rainbow-3.0.${index}.jar`);
      form.set('xmlId', 'com.example.rainbow');
      try {
        const response = await fetch(`${baseUrl}/api/updates/upload`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
          body: form,
        });
        if (response.status === 200) {
          const version = (await response.json()) as { id: number };
          acknowledged.set(version.id, createHash('sha256').update(jar).digest('hex'));
        } else {
          throw new Error(`Upload ${index} answered ${response.status}: ${await response.text()}`);
        }
      } catch (error) {
        // After the kill, requests in flight fail with a reset connection; before it, nothing may fail.
        if (!stopped) throw error;
      }
    };
    const workers = Array.from({ length: 4 }, async () => {
      while (!stopped) {
        attempted += 1;
        await uploadOne(attempted);
      }
    });
    const killer = (async () => {
      while (acknowledged.size < 5) await new Promise((resolve) => setTimeout(resolve, 20));
      stopped = true;
      await server!.stop('SIGKILL');
    })();
    await Promise.all([killer, ...workers]);
    expect(acknowledged.size).toBeGreaterThanOrEqual(5);
    expect(attempted).toBeGreaterThan(acknowledged.size);

    // After the restart, every acknowledged version downloads: the archive sent, byte for byte, with the
    // marketplace's countersignature added.
    server = await startServer(dataDir, port);
    for (const [versionId, sha256] of acknowledged) {
      const response = await fetch(`${baseUrl}/plugin/download?updateId=${versionId}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(200);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(createHash('sha256').update(unsignedZip(bytes)).digest('hex')).toBe(sha256);
      expect(verifySignatures(bytes).valid).toBe(true);
    }
    await server.stop('SIGTERM');
    server = undefined;

    // No version row without its file; after the sweep, no file without its row.
    const database = await openDatabase({ dataDir });
    try {
      const fileStore = createFileStore(dataDir);
      const rows = await database.db.select().from(pluginVersions);
      expect(rows.every((row) => row.pluginId === pluginId)).toBe(true);
      expect(rows.length).toBeGreaterThanOrEqual(acknowledged.size);
      for (const row of rows) expect(await fileStore.has(row.fileHash)).toBe(true);

      await sweepOrphanedFiles(database.db, fileStore, {
        graceMs: 0,
        now: new Date(Date.now() + 1000),
        temporaryDirectories: [uploadTempDirectory(dataDir)],
      });
      const stored: string[] = [];
      for await (const hash of fileStore.list()) stored.push(hash);
      expect(stored.sort()).toEqual([...new Set(rows.map((row) => row.fileHash))].sort());
      expect(await readdir(uploadTempDirectory(dataDir))).toEqual([]);
      expect((await readdir(fileStore.root)).filter((name) => name.startsWith('.incoming-'))).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
