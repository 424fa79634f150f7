import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { uploadTempDirectory } from '../../src/publishing';
import { HOSTILE_ARCHIVES, type HostileArchive } from '../archive/hostile-corpus';
import { archiveBytes, pluginJarContent, pluginXml } from '../archive/plugin-fixtures';
import {
  accessTokenFor,
  addUser,
  buildPublishingTestApp,
  insertPlugin,
  multipartBody,
  permanentToken,
  storedHashes,
  type PublishingTestApp,
} from './publishing-test-app';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

/** Where the HTTP route refuses before the inspection sees the archive, it says so in its own words. */
const REFUSED_BEFORE_INSPECTION: Record<string, RegExp> = {
  'non-zip: a PNG image uploaded by mistake':
    /^"icon\.png" is not a plugin archive: upload the \.zip or \.jar/,
  'an archive over the upload size limit':
    /^The upload is larger than 1 KB, the largest plugin archive accepted\.$/,
};

describe('uploading the hostile corpus through POST /api/updates/upload', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'mp-hostile-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  // Archives with their own limits get an app with those limits; the others share one app.
  const byLimits = new Map<string, HostileArchive[]>();
  for (const archive of HOSTILE_ARCHIVES) {
    const key = JSON.stringify(archive.limits ?? {});
    byLimits.set(key, [...(byLimits.get(key) ?? []), archive]);
  }

  for (const [limitsKey, archives] of byLimits) {
    describe(`with limits ${limitsKey}`, () => {
      let testApp: PublishingTestApp;
      let token: string;
      beforeAll(async () => {
        const limits = JSON.parse(limitsKey) as HostileArchive['limits'];
        testApp = await buildPublishingTestApp({
          archiveLimits: limits ?? {},
          ...(limits?.maxArchiveBytes ? { maxUploadBytes: limits.maxArchiveBytes } : {}),
        });
        const owner = await addUser(testApp.db, 'owner');
        await insertPlugin(testApp.db, { xmlId: 'com.example.rainbow', ownerId: owner.id });
        token = await permanentToken(testApp.db, owner.id, ['upload']);
      });
      afterAll(async () => {
        await testApp.close();
      });

      it.each(archives.map((archive) => [archive.name, archive] as const))(
        '%s: one clear 400, nothing stored',
        async (name, archive) => {
          const path = await archive.write(folder);
          const { body, headers } = multipartBody(
            { xmlId: 'com.example.rainbow' },
            { name: basename(path), content: await readFile(path) },
          );
          const response = await testApp.app.inject({
            method: 'POST',
            url: '/api/updates/upload',
            headers: { ...headers, authorization: `Bearer ${token}` },
            body,
          });
          expect(response.statusCode).toBe(400);
          const answer = response.json<{
            errors: string[];
            warnings: string[];
            isErrorUnknown: boolean;
            message: string;
            msg: string;
          }>();
          expect(answer.isErrorUnknown).toBe(false);
          expect(answer.errors).toHaveLength(1);
          expect(answer.errors[0]).toMatch(REFUSED_BEFORE_INSPECTION[name] ?? archive.expectedError);
          expect(answer.message).toBe(answer.errors[0]);
          expect(answer.msg).toBe(answer.message);

          expect(await storedHashes(testApp.fileStore)).toEqual([]);
          const versions = await testApp.db.execute<{ count: number }>(
            sql`SELECT count(*)::int AS count FROM plugin_versions`,
          );
          expect(versions.rows[0]?.count).toBe(0);
          const claims = await testApp.db.execute<{ count: number }>(
            sql`SELECT count(*)::int AS count FROM file_claims`,
          );
          expect(claims.rows[0]?.count).toBe(0);
          expect(await readdir(uploadTempDirectory(testApp.dataDir))).toEqual([]);
        },
      );
    });
  }
});

describe('an address in an uploaded plugin.xml that the link rule refuses', () => {
  let testApp: PublishingTestApp;
  afterAll(async () => testApp?.close());

  it('is left out with a warning: not stored, not in the API, not in the IDE feed', async () => {
    testApp = await buildPublishingTestApp();
    const owner = await addUser(testApp.db, 'vendor-with-a-script');
    const pluginId = await insertPlugin(testApp.db, { xmlId: 'com.example.scripted', ownerId: owner.id });
    const token = await permanentToken(testApp.db, owner.id, ['upload']);
    const jar = await archiveBytes(
      pluginJarContent(
        pluginXml({
          id: '<id>com.example.scripted</id>',
          vendor: '<vendor email="dev@example.com" url="javascript:alert(document.cookie)">Scripted</vendor>',
        }),
      ),
    );
    const { body, headers } = multipartBody(
      { xmlId: 'com.example.scripted' },
      { name: 'scripted.jar', content: jar },
    );
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/updates/upload',
      headers: { ...headers, authorization: `Bearer ${token}` },
      body,
    });
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json<{ warnings: string[] }>();
    expect(answer.warnings).toContain(
      "The vendor url 'javascript:alert(document.cookie)' is not a web address, so it was left out.",
    );
    // Listed, so visitors and IDEs see the item and its vendor: published by the owner, approved by an admin.
    const admin = await addUser(testApp.db, 'admin-of-scripted', true);
    for (const [action, userId] of [
      ['publish', owner.id],
      ['approve', admin.id],
    ] as const) {
      const changed = await testApp.app.inject({
        method: 'POST',
        url: `/api/plugins/${pluginId}/${action}`,
        headers: { authorization: `Bearer ${await accessTokenFor(testApp, userId)}` },
      });
      expect(changed.statusCode, changed.body).toBe(200);
    }
    const stored = await testApp.db.execute<{ url: string | null }>(sql`SELECT url FROM vendors`);
    expect(stored.rows.map((row) => row.url)).not.toContain('javascript:alert(document.cookie)');
    const everything = [
      (await testApp.app.inject({ url: `/api/plugins/${pluginId}` })).body,
      (await testApp.app.inject({ url: '/plugins/list?build=IU-243.1' })).body,
      (await testApp.app.inject({ url: '/updatePlugins.xml?build=IU-243.1' })).body,
    ].join('\n');
    expect(everything).toContain('com.example.scripted');
    expect(everything).not.toContain('javascript:');
  });
});

describe('an upload to a plugin the uploader does not develop', () => {
  let testApp: PublishingTestApp;
  let port: number;
  let strangerToken: string;
  let pluginId: number;
  beforeAll(async () => {
    testApp = await buildPublishingTestApp({ maxUploadBytes: 400 * 1024 * 1024 });
    const owner = await addUser(testApp.db, 'owner-of-guarded');
    const stranger = await addUser(testApp.db, 'stranger');
    pluginId = await insertPlugin(testApp.db, { xmlId: 'com.example.guarded', ownerId: owner.id });
    strangerToken = await permanentToken(testApp.db, stranger.id, ['upload']);
    await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    port = (testApp.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => testApp?.close());

  it('is refused with 403 as soon as the plugin id has arrived, before the archive is read', async () => {
    const boundary = 'early-refusal-boundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="pluginId"\r\n\r\n${pluginId}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.zip"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    );
    const archiveBytes = 300 * 1024 * 1024;
    const chunk = Buffer.alloc(256 * 1024, 7);
    let sent = 0;
    const answer = await new Promise<{ status: number; body: string; sentWhenAnswered: number }>(
      (resolve, reject) => {
        const request = httpRequest({
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/updates/upload',
          headers: {
            authorization: `Bearer ${strangerToken}`,
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'content-length': String(head.length + archiveBytes + `\r\n--${boundary}--\r\n`.length),
          },
        });
        request.on('response', (response) => {
          const sentWhenAnswered = sent;
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (text: string) => (body += text));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body, sentWhenAnswered }));
        });
        // Once refused, the server closes the connection: writes after that fail, as they should.
        request.on('error', (error) => (sent > head.length ? undefined : reject(error)));
        const pump = () => {
          while (sent < head.length + archiveBytes && !request.destroyed) {
            const ok = request.write(sent === 0 ? head : chunk);
            sent += sent === 0 ? head.length : chunk.length;
            if (!ok) return void request.once('drain', pump);
          }
        };
        pump();
      },
    );
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({
      message: `Only the developers of plugin ${pluginId} can upload its versions.`,
    });
    // The answer came while most of the 300 MB were still unsent (socket buffers hold a few MB at most).
    expect(answer.sentWhenAnswered).toBeLessThan(64 * 1024 * 1024);
    expect(await storedHashes(testApp.fileStore)).toEqual([]);
    expect(await readdir(uploadTempDirectory(testApp.dataDir))).toEqual([]);
  });
});
