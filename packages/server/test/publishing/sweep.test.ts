import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildBoundColumns } from '../../src/db/catalogue-queries';
import { openDatabase, type DatabaseConnection } from '../../src/db/client';
import { fileClaims, pluginVersions } from '../../src/db/schema';
import { sweepOrphanedFiles, uploadTempDirectory } from '../../src/publishing';
import { claimStoredFile } from '../../src/publishing/file-claims';
import { createTestDatabase, type TestDatabase } from '../db/test-database';
import {
  addUser,
  buildPublishingTestApp,
  insertPlugin,
  storedHashes,
  type PublishingTestApp,
} from './publishing-test-app';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const HOUR = 3_600_000;

async function age(path: string, milliseconds: number): Promise<void> {
  const then = new Date(Date.now() - milliseconds);
  await utimes(path, then, then);
}

describe('the sweep of orphaned files', () => {
  let testApp: PublishingTestApp;
  beforeAll(async () => {
    testApp = await buildPublishingTestApp();
  });
  afterAll(async () => {
    await testApp.close();
  });

  const pathOf = (hash: string) => join(testApp.fileStore.root, hash.slice(0, 2), hash.slice(2));

  it('removes old unreferenced files and abandoned temporary uploads, and keeps referenced, claimed and young ones', async () => {
    const owner = await addUser(testApp.db, 'sweep-owner');
    const pluginId = await insertPlugin(testApp.db, { xmlId: 'com.example.swept', ownerId: owner.id });
    const referenced = await testApp.fileStore.put(Buffer.from('referenced archive'));
    await testApp.db.insert(pluginVersions).values({
      pluginId,
      version: '1.0',
      sinceBuild: '241',
      ...buildBoundColumns('241', null),
      fileHash: referenced.hash,
      fileSize: referenced.size,
      fileName: 'swept-1.0.jar',
    });
    const orphan = await testApp.fileStore.put(Buffer.from('orphaned by a crash'));
    const claimed = await testApp.fileStore.put(Buffer.from('upload in flight'));
    await claimStoredFile(testApp.db, claimed.hash);
    const young = await testApp.fileStore.put(Buffer.from('just written, row not yet committed'));
    for (const hash of [referenced.hash, orphan.hash, claimed.hash]) await age(pathOf(hash), 2 * HOUR);

    const uploads = uploadTempDirectory(testApp.config.dataDir);
    await mkdir(uploads, { recursive: true });
    await writeFile(join(uploads, 'upload-0123456789abcdef.part'), 'abandoned');
    await age(join(uploads, 'upload-0123456789abcdef.part'), 2 * HOUR);
    await writeFile(join(uploads, 'upload-fedcba9876543210.part'), 'arriving');

    const result = await sweepOrphanedFiles(testApp.db, testApp.fileStore, {
      graceMs: HOUR,
      temporaryDirectories: [uploads],
    });
    expect(result).toEqual({ removedFiles: [orphan.hash], removedClaims: 0, removedTemporaryFiles: 1 });
    expect((await storedHashes(testApp.fileStore)).sort()).toEqual(
      [referenced.hash, claimed.hash, young.hash].sort(),
    );
    expect(await readdir(uploads)).toEqual(['upload-fedcba9876543210.part']);

    // Once the claim is older than the grace period, its upload has died: claim and file go.
    const later = await sweepOrphanedFiles(testApp.db, testApp.fileStore, {
      graceMs: HOUR,
      now: new Date(Date.now() + 2 * HOUR),
    });
    expect(later.removedClaims).toBe(1);
    expect(later.removedFiles.sort()).toEqual([claimed.hash, young.hash].sort());
    expect(await storedHashes(testApp.fileStore)).toEqual([referenced.hash]);
    expect(await testApp.db.select().from(fileClaims)).toEqual([]);
  });
});

describe('two sweeps at once on PostgreSQL, as on two nodes', () => {
  let testDatabase: TestDatabase;
  let second: DatabaseConnection;
  let testApp: PublishingTestApp;
  beforeAll(async () => {
    testDatabase = await createTestDatabase({ kind: 'postgres' });
    second = await openDatabase({ databaseUrl: testDatabase.databaseUrl, dataDir: '' });
    testApp = await buildPublishingTestApp();
  });
  afterAll(async () => {
    await testApp.close();
    await second.close();
    await testDatabase.dispose();
  });

  it('remove each orphan once between them, and no referenced file', async () => {
    const store = testApp.fileStore;
    const orphans: string[] = [];
    for (let index = 0; index < 40; index += 1) {
      orphans.push((await store.put(Buffer.from(`orphan ${index}`))).hash);
    }
    const owner = await addUser(testDatabase.database.db, 'node-owner');
    const pluginId = await insertPlugin(testDatabase.database.db, {
      xmlId: 'com.example.nodes',
      ownerId: owner.id,
    });
    const kept = await store.put(Buffer.from('kept'));
    await testDatabase.database.db.insert(pluginVersions).values({
      pluginId,
      version: '1.0',
      sinceBuild: '241',
      ...buildBoundColumns('241', null),
      fileHash: kept.hash,
      fileSize: kept.size,
      fileName: 'nodes-1.0.jar',
    });
    const options = { graceMs: 0, now: new Date(Date.now() + 1000) };
    const [first, other] = await Promise.all([
      sweepOrphanedFiles(testDatabase.database.db, store, options),
      sweepOrphanedFiles(second.db, store, options),
    ]);
    expect([...first.removedFiles, ...other.removedFiles].sort()).toEqual(orphans.sort());
    expect(await storedHashes(store)).toEqual([kept.hash]);
  });
});
