import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pluginJar } from './fixtures';
import {
  accessTokenFor,
  addUser,
  buildPublishingTestApp,
  insertPlugin,
  permanentToken,
  type PublishingTestApp,
} from './publishing-test-app';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const run = promisify(execFile);

describe("an upload exactly as the vendor's REST client sends it (curl -F)", () => {
  let testApp: PublishingTestApp;
  let folder: string;
  let baseUrl: string;

  beforeAll(async () => {
    testApp = await buildPublishingTestApp();
    folder = await mkdtemp(join(tmpdir(), 'mp-curl-'));
    await testApp.app.listen({ host: '127.0.0.1', port: 0 });
    const address = testApp.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('The server has no TCP address.');
    baseUrl = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    await testApp.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('stores the version, which appears in /plugins/list for a matching build once approved', async () => {
    const owner = await addUser(testApp.db, 'gradle');
    const admin = await addUser(testApp.db, 'moderator', true);
    const pluginId = await insertPlugin(testApp.db, {
      xmlId: 'com.example.rainbow',
      ownerId: owner.id,
      lifecycleState: 'published',
      approved: true,
    });
    const token = await permanentToken(testApp.db, owner.id, ['upload']);
    const jarPath = join(folder, 'rainbow-2.1.0.jar');
    await writeFile(jarPath, await pluginJar({ since: '241', until: '243.*' }));

    const { stdout } = await run('curl', [
      '--silent',
      '--show-error',
      '--header',
      `Authorization: Bearer ${token}`,
      '-F',
      `file=@${jarPath}`,
      '-F',
      'xmlId=com.example.rainbow',
      '-F',
      'channel=',
      '--write-out',
      '\n%{http_code}',
      `${baseUrl}/api/updates/upload`,
    ]);
    const [body, status] = stdout.split('\n');
    expect(status).toBe('200');
    const version = JSON.parse(body ?? '') as { id: number; pluginId: number; version: string };
    expect(version).toMatchObject({ pluginId, version: '2.1.0' });

    const feed = async (build: string) => (await fetch(`${baseUrl}/plugins/list?build=${build}`)).text();
    expect(await feed('IU-241.14494.240')).not.toContain('<version>2.1.0</version>');

    const approve = await fetch(`${baseUrl}/api/plugins/${pluginId}/approve`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await accessTokenFor(testApp, admin.id)}` },
    });
    expect(approve.status).toBe(200);
    const listed = await feed('IU-241.14494.240');
    expect(listed).toContain('<id>com.example.rainbow</id>');
    expect(listed).toContain('<version>2.1.0</version>');
    expect(listed).toContain(`/plugin/download?updateId=${version.id}`);
    // Outside since/until, the IDE is not offered it.
    expect(await feed('IU-251.1')).not.toContain('com.example.rainbow');

    const download = await fetch(`${baseUrl}/plugin/download?updateId=${version.id}`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain('-2.1.0.jar');
  });

  it('answers a failure with message and msg, as old clients read it', async () => {
    const user = await addUser(testApp.db, 'newcomer');
    const token = await permanentToken(testApp.db, user.id, ['upload']);
    const jarPath = join(folder, 'unknown.jar');
    await writeFile(jarPath, await pluginJar({ id: 'com.example.never' }));
    const { stdout } = await run('curl', [
      '--silent',
      '--header',
      `Authorization: Bearer ${token}`,
      '-F',
      `file=@${jarPath}`,
      '-F',
      'xmlId=com.example.never',
      '--write-out',
      '\n%{http_code}',
      `${baseUrl}/api/updates/upload`,
    ]);
    const [body, status] = stdout.split('\n');
    expect(status).toBe('404');
    const answer = JSON.parse(body ?? '') as { message: string; msg: string };
    expect(answer.message).toBe(
      "Plugin 'com.example.never' does not exist. Please upload the plugin manually at least once before uploading updates through the API.",
    );
    expect(answer.msg).toBe(answer.message);
  });
});
