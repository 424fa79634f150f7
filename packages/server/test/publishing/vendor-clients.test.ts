import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pluginJar } from './fixtures';
import {
  addUser,
  insertPlugin,
  insertTags,
  permanentToken,
  buildPublishingTestApp,
  type PublishingTestApp,
} from './publishing-test-app';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

/**
 * One part of a multipart body exactly as the vendor's REST client (Retrofit + OkHttp) writes it: strings as
 * `text/plain; charset=utf-8`, numbers and booleans through Jackson as `application/json; charset=UTF-8`, the
 * archive as `application/octet-stream`, each named part with `Content-Transfer-Encoding: binary` and its
 * own Content-Length.
 */
type ClientPart =
  | { name: string; text: string }
  | { name: string; json: number | boolean }
  | { name: 'file'; fileName: string; content: Buffer };

function restClientBody(parts: readonly ClientPart[]): { body: Buffer; contentType: string } {
  const boundary = '8f2d6c3e-1a4b-4c7d-9e0f-123456789abc';
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let disposition = `form-data; name="${part.name}"`;
    let contentType: string;
    let content: Buffer;
    if ('text' in part) {
      contentType = 'text/plain; charset=utf-8';
      content = Buffer.from(part.text);
    } else if ('json' in part) {
      contentType = 'application/json; charset=UTF-8';
      content = Buffer.from(JSON.stringify(part.json));
    } else {
      disposition += `; filename="${part.fileName}"`;
      contentType = 'application/octet-stream';
      content = part.content;
    }
    const headers =
      `--${boundary}\r\nContent-Disposition: ${disposition}\r\n` +
      ('fileName' in part ? '' : 'Content-Transfer-Encoding: binary\r\n') +
      `Content-Type: ${contentType}\r\nContent-Length: ${content.length}\r\n\r\n`;
    chunks.push(Buffer.from(headers), content, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

describe("the vendor's REST client and Gradle publishPlugin, over real HTTP", () => {
  let testApp: PublishingTestApp;
  let baseUrl: string;
  let token: string;
  let ownerId: number;

  beforeAll(async () => {
    testApp = await buildPublishingTestApp();
    await testApp.app.listen({ host: '127.0.0.1', port: 0 });
    const address = testApp.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('The server has no TCP address.');
    baseUrl = `http://127.0.0.1:${address.port}`;
    const owner = await addUser(testApp.db, 'rest-client');
    ownerId = owner.id;
    token = await permanentToken(testApp.db, owner.id, ['upload']);
    await insertTags(testApp.db, ['Editor', 'Code tools']);
  });
  afterAll(async () => testApp?.close());

  async function post(path: string, parts: readonly ClientPart[]) {
    const { body, contentType } = restClientBody(parts);
    const response = await fetch(baseUrl + path, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'user-agent': 'marketplace-rest-client/2.0.50',
        'content-type': contentType,
      },
      body,
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  }

  async function versionRow(id: unknown) {
    const { rows } = await testApp.db.execute<{ hidden: boolean; channel: string; version: string }>(
      sql`SELECT hidden, channel, version FROM plugin_versions WHERE id = ${Number(id)}`,
    );
    return rows[0];
  }

  it('uploads an update by numeric pluginId with isHidden=true, both sent as JSON parts', async () => {
    const pluginId = await insertPlugin(testApp.db, {
      xmlId: 'com.example.numeric',
      ownerId,
      lifecycleState: 'published',
      approved: true,
    });
    // PluginRepositoryService.uploadById: pluginId (json), channel?, notes?, isHidden (json), file.
    const answer = await post('/api/updates/upload', [
      { name: 'pluginId', json: pluginId },
      { name: 'channel', text: 'eap' },
      { name: 'notes', text: 'Faster <b>indexing</b>' },
      { name: 'isHidden', json: true },
      {
        name: 'file',
        fileName: 'numeric-1.2.0.jar',
        content: await pluginJar({ id: 'com.example.numeric', version: '1.2.0' }),
      },
    ]);
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    // PluginUpdateBean: id and pluginId are the client's required integers.
    expect(answer.json).toMatchObject({ pluginId, version: '1.2.0', channel: 'eap', hidden: true });
    expect(Number.isInteger(answer.json.id)).toBe(true);
    expect(await versionRow(answer.json.id)).toEqual({ hidden: true, channel: 'eap', version: '1.2.0' });
  });

  it("takes Gradle publishPlugin's call (xmlId as text, isHidden as JSON) and hides only when asked", async () => {
    await insertPlugin(testApp.db, {
      xmlId: 'com.example.gradle',
      ownerId,
      lifecycleState: 'published',
      approved: true,
    });
    const publish = async (version: string, hidden: boolean) =>
      // uploader.upload(id = xmlId, file, channel = null for "default", notes = null, isHidden = hidden).
      post('/api/updates/upload', [
        { name: 'xmlId', text: 'com.example.gradle' },
        { name: 'isHidden', json: hidden },
        {
          name: 'file',
          fileName: `gradle-${version}.zip`,
          content: await pluginJar({ id: 'com.example.gradle', version }),
        },
      ]);
    const visible = await publish('2.0.0', false);
    expect(visible.status, JSON.stringify(visible.json)).toBe(200);
    expect(await versionRow(visible.json.id)).toMatchObject({ hidden: false, channel: '' });
    const hidden = await publish('2.0.1', true);
    expect(hidden.status, JSON.stringify(hidden.json)).toBe(200);
    expect(await versionRow(hidden.json.id)).toMatchObject({ hidden: true });
  });

  it('creates a new plugin with every repeated tags part and answers the PluginBean the client parses', async () => {
    // PluginRepositoryService.uploadNewPlugin: file, licenseUrl, tags (one part each), vendor?, channel?, isHidden.
    const answer = await post('/api/plugins/intellij/upload', [
      {
        name: 'file',
        fileName: 'brand-new-1.0.0.jar',
        content: await pluginJar({ id: 'com.example.brandnew', version: '1.0.0' }),
      },
      { name: 'licenseUrl', text: 'https://www.apache.org/licenses/LICENSE-2.0' },
      { name: 'tags', text: 'Editor' },
      { name: 'tags', text: 'Code tools' },
      { name: 'isHidden', json: false },
    ]);
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    const bean = answer.json as {
      id: number;
      name: string;
      xmlId: string;
      family: string;
      downloads: number;
      isHidden: boolean;
      urls: Record<string, unknown>;
      vendor: Record<string, unknown> | null;
      tags: { id: number; name: string; link: string }[];
    };
    // The fields PluginBean requires (non-null in Kotlin), with the types Jackson needs.
    expect(Number.isInteger(bean.id)).toBe(true);
    expect(bean).toMatchObject({
      xmlId: 'com.example.brandnew',
      family: 'intellij',
      downloads: 0,
      isHidden: false,
      urls: { licenseUrl: 'https://www.apache.org/licenses/LICENSE-2.0', donationLinks: [] },
    });
    expect(typeof bean.name).toBe('string');
    expect(bean.tags.map((tag) => tag.name).sort()).toEqual(['Code tools', 'Editor']);
    // PluginVendorBean: name, link, publicName, countryCode, isVerified and a known type are all required.
    expect(bean.vendor).toMatchObject({
      name: expect.any(String),
      link: expect.any(String),
      publicName: expect.any(String),
      countryCode: expect.any(String),
      isVerified: false,
      type: 'xml',
    });
    const { rows } = await testApp.db.execute<{ name: string }>(
      sql`SELECT t.name FROM plugin_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.plugin_id = ${bean.id}
        ORDER BY t.name`,
    );
    expect(rows.map((row) => row.name)).toEqual(['Code tools', 'Editor']);
  });

  it('hides a new plugin uploaded with isHidden=true', async () => {
    const answer = await post('/api/plugins/intellij/upload', [
      {
        name: 'file',
        fileName: 'quiet-1.0.0.jar',
        content: await pluginJar({ id: 'com.example.quiet', version: '1.0.0' }),
      },
      { name: 'licenseUrl', text: 'https://example.com/license' },
      { name: 'tags', text: 'Editor' },
      { name: 'isHidden', json: true },
    ]);
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.json.isHidden).toBe(true);
    const { rows } = await testApp.db.execute<{ hidden: boolean }>(
      sql`SELECT hidden FROM plugins WHERE id = ${Number(answer.json.id)}`,
    );
    expect(rows[0]?.hidden).toBe(true);
  });

  it('refuses a JSON part that is not a number, text or boolean, storing nothing', async () => {
    const before = await testApp.db.execute<{ count: number }>(
      sql`SELECT count(*)::int AS count FROM plugin_versions`,
    );
    const { body, contentType } = restClientBody([
      { name: 'xmlId', text: 'com.example.gradle' },
      {
        name: 'file',
        fileName: 'gradle-9.0.0.zip',
        content: await pluginJar({ id: 'com.example.gradle', version: '9.0.0' }),
      },
    ]);
    const withObject = Buffer.from(
      body
        .toString('latin1')
        .replace(
          /^/,
          `--8f2d6c3e-1a4b-4c7d-9e0f-123456789abc\r\nContent-Disposition: form-data; name="isHidden"\r\n` +
            `Content-Type: application/json; charset=UTF-8\r\n\r\n{"hidden": true}\r\n`,
        ),
      'latin1',
    );
    const response = await fetch(`${baseUrl}/api/updates/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      body: withObject,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toBe(
      'The part "isHidden" must be text, a number or true/false.',
    );
    const after = await testApp.db.execute<{ count: number }>(
      sql`SELECT count(*)::int AS count FROM plugin_versions`,
    );
    expect(after.rows[0]?.count).toBe(before.rows[0]?.count);
  });
});
