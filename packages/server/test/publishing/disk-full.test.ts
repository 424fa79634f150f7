import type * as FsModule from 'node:fs';
import type { AddressInfo } from 'node:net';
import { readdir } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pluginVersions } from '../../src/db/schema';
import { DISK_FULL_MESSAGE } from '../../src/outage';
import { uploadTempDirectory } from '../../src/publishing';
import { archiveBytes, pluginJarContent, pluginXml } from '../archive/plugin-fixtures';
import {
  addUser,
  buildPublishingTestApp,
  insertPlugin,
  multipartBody,
  permanentToken,
  storedHashes,
  type PublishingTestApp,
} from './publishing-test-app';

/*
 * The disk filling up while an archive arrives: the temporary upload file is written to /dev/full, where the
 * kernel answers every write with ENOSPC as a full disk does. The upload is answered 507 with a message
 * (also to a real client still sending the body, which must not meet a reset connection), nothing is stored,
 * and the server goes on serving. The fault suite (`pnpm test:faults`) does it on a real full tmpfs.
 */
const disk = vi.hoisted(() => ({ full: false }));

vi.mock('node:fs', async (importOriginal) => {
  const original = await importOriginal<typeof FsModule>();
  const createWriteStream = ((
    path: FsModule.PathLike,
    options?: Parameters<typeof original.createWriteStream>[1],
  ) =>
    disk.full && /upload-[0-9a-f]+\.part$/.test(String(path))
      ? original.createWriteStream('/dev/full', { flags: 'w' })
      : original.createWriteStream(path, options)) as typeof original.createWriteStream;
  return { ...original, default: { ...original, createWriteStream }, createWriteStream };
});

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

describe('an upload meeting a full disk', () => {
  let testApp: PublishingTestApp;
  let token: string;
  let pluginId: number;

  beforeAll(async () => {
    testApp = await buildPublishingTestApp();
    const owner = await addUser(testApp.db, 'owner');
    pluginId = await insertPlugin(testApp.db, { xmlId: 'com.example.rainbow', ownerId: owner.id });
    token = await permanentToken(testApp.db, owner.id, ['upload']);
  });
  afterAll(async () => {
    disk.full = false;
    await testApp.close();
  });

  async function archive(version: string): Promise<Buffer> {
    return archiveBytes({
      ...pluginJarContent(pluginXml({ version: `<version>${version}</version>` })),
      'resources/payload.bin': randomBytes(3 * 1024 * 1024),
    });
  }

  it('answers 507 with a message and stores nothing', async () => {
    disk.full = true;
    const { body, headers } = multipartBody(
      { xmlId: 'com.example.rainbow' },
      { name: 'rainbow.jar', content: await archive('3.0.0') },
      { fileFirst: false },
    );
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/updates/upload',
      headers: { ...headers, authorization: `Bearer ${token}` },
      body,
    });
    expect(response.statusCode).toBe(507);
    expect(response.json()).toMatchObject({
      type: 'error',
      message: DISK_FULL_MESSAGE,
      errors: [DISK_FULL_MESSAGE],
    });
    expect(response.headers['retry-after']).toBe('60');
    expect(await storedHashes(testApp.fileStore)).toEqual([]);
    expect(await readdir(uploadTempDirectory(testApp.dataDir))).toEqual([]);
    expect(
      await testApp.db.select().from(pluginVersions).where(eq(pluginVersions.pluginId, pluginId)),
    ).toEqual([]);
    // Reads go on.
    expect((await testApp.app.inject({ method: 'GET', url: '/api/searchPlugins' })).statusCode).toBe(200);
  });

  it('gets the 507 to a real client still sending the body, and the next upload succeeds once there is room', async () => {
    await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = testApp.app.server.address() as AddressInfo;
    const send = async (version: string) => {
      const form = new FormData();
      form.set('xmlId', 'com.example.rainbow');
      form.set('file', new Blob([new Uint8Array(await archive(version))]), 'rainbow.jar');
      return fetch(`http://127.0.0.1:${port}/api/updates/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
    };
    disk.full = true;
    const refused = await send('3.0.1');
    expect(refused.status).toBe(507);
    expect(((await refused.json()) as { message: string }).message).toBe(DISK_FULL_MESSAGE);

    disk.full = false;
    const stored = await send('3.0.2');
    expect(stored.status).toBe(200);
    expect(await storedHashes(testApp.fileStore)).toHaveLength(1);
  });
});
