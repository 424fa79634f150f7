/**
 * Uploads through the client to the server's real upload endpoints (reference §3): the multipart stream the
 * client writes in Node is read by the server's own parser, and its answers come back in the spec's shape.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createApiClient, type ApiClient, type UploadProgress } from '../src';
import { archiveBytes, pluginJarContent, pluginXml } from '../../server/test/archive/plugin-fixtures';
import {
  addUser,
  buildPublishingTestApp,
  insertTags,
  permanentToken,
  type PublishingTestApp,
} from '../../server/test/publishing/publishing-test-app';

let testApp: PublishingTestApp;
let client: ApiClient;
let origin: string;
let archive: Uint8Array<ArrayBuffer>;

beforeAll(async () => {
  testApp = await buildPublishingTestApp();
  await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(testApp.app.server.address() as AddressInfo).port}`;
  const vendor = await addUser(testApp.db, 'vendor');
  await insertTags(testApp.db, ['Formatting']);
  const token = await permanentToken(testApp.db, vendor.id, ['upload']);
  client = createApiClient({ baseUrl: origin, getToken: () => token });
  archive = Uint8Array.from(await archiveBytes(pluginJarContent(pluginXml())));
}, 60_000);

afterAll(async () => {
  await testApp?.close();
});

describe('uploads to the real server', () => {
  it('publishes a new plugin from a streamed form, with progress up to the whole body', async () => {
    const progress: UploadProgress[] = [];
    const outcome = await client.uploadNewPlugin(
      'intellij',
      {
        file: new File([archive], 'rainbow-brackets-2.1.0.jar'),
        licenseUrl: 'https://www.apache.org/licenses/LICENSE-2.0',
        tags: ['Formatting'],
      },
      { onProgress: (event) => progress.push(event) },
    );
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    // The plugin as the vendor's REST client reads it, with its first version.
    expect(outcome.data).toMatchObject({ name: 'Rainbow Brackets', xmlId: 'com.example.rainbow' });
    expect(outcome.data?.update).toMatchObject({ version: '2.1.0', since: '241' });
    expect(outcome.result.errors).toEqual([]);
    const total = progress.at(-1)?.total;
    expect(total).toBeGreaterThan(archive.byteLength);
    expect(progress.at(-1)?.loaded).toBe(total);

    // A draft: only its owner, signed in through the same client, sees it.
    const uploaded = await client.getPlugin(outcome.data!.id);
    expect(uploaded.info.name).toBe('Rainbow Brackets');
    expect(uploaded.tags.map((tag) => tag.name)).toEqual(['Formatting']);
  });

  it('uploads a new version by plugin.xml id into a channel', async () => {
    const next = Uint8Array.from(
      await archiveBytes(pluginJarContent(pluginXml({ version: '<version>2.2.0</version>' }))),
    );
    const outcome = await client.uploadVersion<{ version: string; channel: string }>({
      xmlId: 'com.example.rainbow',
      file: new Blob([next]),
      fileName: 'rainbow-brackets-2.2.0.zip',
      channel: 'eap',
      notes: 'Faster highlighting',
    });
    expect(outcome.ok && outcome.data).toMatchObject({ version: '2.2.0', channel: 'eap' });
  });

  it('reads a refused archive as a validation result people can act on', async () => {
    const outcome = await client.upload('/api/plugins/intellij/upload', {
      file: new File([archive], 'notes.txt'),
      onProgress: () => {},
    });
    expect(outcome.ok).toBe(false);
    expect(outcome.result.isErrorUnknown).toBe(false);
    expect(outcome.result.errors[0]).toMatch(/"notes\.txt" is not a plugin archive/);
  });

  it("rejects a refusal other than 400 with 'Status code {code}: {text}'", async () => {
    const missing = (await client
      .uploadVersion({ pluginId: 999_999, file: new File([archive], 'tool.jar') })
      .catch((error: unknown) => error)) as ApiError;
    expect(missing).toBeInstanceOf(ApiError);
    expect(missing.status).toBe(404);
    expect(missing.message).toMatch(/^Status code 404: /);

    const guest = createApiClient({ baseUrl: origin });
    const refused = (await guest
      .upload('/api/updates/upload', { file: new File([archive], 'tool.jar'), fields: { pluginId: 1 } })
      .catch((error: unknown) => error)) as ApiError;
    expect(refused.status).toBe(401);
    expect(refused.message).toBe('Status code 401: Please sign in to do this.');
  });
});
