import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
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
