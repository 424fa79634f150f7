import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalQueueBody } from '@marketplace/api-contract';
import { pluginVersions } from '../../src/db/schema';
import {
  accessTokenFor,
  addUser,
  buildPublishingTestApp,
  insertPlugin,
  type PublishingTestApp,
} from './publishing-test-app';

const HOUR = 3_600_000;
const START = Date.parse('2026-11-01T08:00:00Z');
const at = (hours: number) => new Date(START + hours * HOUR);

describe('the approval queue', () => {
  let testApp: PublishingTestApp;
  let adminToken: string;
  let developerToken: string;
  const ids: Record<string, number> = {};

  async function addVersion(
    pluginId: number,
    version: string,
    approvalState: 'pending' | 'approved' | 'rejected',
    uploadedAtHour: number,
    channel = '',
  ): Promise<number> {
    const [row] = await testApp.db
      .insert(pluginVersions)
      .values({
        pluginId,
        version,
        channel,
        sinceBuild: '241',
        sinceComponents: [241],
        fileHash: `hash-${pluginId}-${version}`,
        fileSize: 100,
        fileName: `plugin-${version}.jar`,
        approvalState,
        createdAt: at(uploadedAtHour),
      })
      .returning({ id: pluginVersions.id });
    return row!.id;
  }

  beforeAll(async () => {
    testApp = await buildPublishingTestApp();
    const developer = await addUser(testApp.db, 'developer');
    const admin = await addUser(testApp.db, 'admin', true);
    adminToken = await accessTokenFor(testApp, admin.id);
    developerToken = await accessTokenFor(testApp, developer.id);
    const ownerId = developer.id;

    // Published at hour 10, never approved: a new item waiting since its publication.
    ids.newItem = await insertPlugin(testApp.db, {
      xmlId: 'com.example.fresh',
      name: 'Fresh',
      ownerId,
      lifecycleState: 'published',
      publishedAt: at(10),
      createdAt: at(1),
    });
    ids.newItemVersion = await addVersion(ids.newItem, '1.0.0', 'pending', 2);

    // Approved long ago, with two updates pending from hour 5 (oldest) and hour 20.
    ids.update = await insertPlugin(testApp.db, {
      xmlId: 'com.example.updated',
      name: 'Updated',
      ownerId,
      lifecycleState: 'published',
      approved: true,
      publishedAt: at(0),
      createdAt: at(0),
    });
    await addVersion(ids.update, '1.0.0', 'approved', 0);
    ids.updateEap = await addVersion(ids.update, '2.0.0-eap', 'pending', 20, 'eap');
    ids.updateStable = await addVersion(ids.update, '1.1.0', 'pending', 5);

    // Published at hour 30: the newest in the queue.
    ids.latest = await insertPlugin(testApp.db, {
      xmlId: 'com.example.latest',
      name: 'Latest',
      ownerId,
      lifecycleState: 'published',
      publishedAt: at(30),
    });

    // Not waiting: a draft with a pending version, an approved item with nothing pending, a rejected
    // update, and an item its developer asked to remove.
    const draft = await insertPlugin(testApp.db, { xmlId: 'com.example.draft', ownerId });
    await addVersion(draft, '0.1.0', 'pending', 3);
    const approved = await insertPlugin(testApp.db, {
      xmlId: 'com.example.approved',
      ownerId,
      lifecycleState: 'published',
      approved: true,
      publishedAt: at(0),
    });
    await addVersion(approved, '1.0.0', 'approved', 0);
    await addVersion(approved, '1.0.1', 'rejected', 4);
    await insertPlugin(testApp.db, {
      xmlId: 'com.example.leaving',
      ownerId,
      lifecycleState: 'removal_requested',
      publishedAt: at(0),
    });
  });

  afterAll(async () => {
    await testApp.close();
  });

  const get = (query: string, token?: string) =>
    testApp.app.inject({
      method: 'GET',
      url: `/api/admin/plugins/pending${query}`,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });

  it('lists published unapproved items and items with pending updates, oldest waiting first', async () => {
    const response = await get('', adminToken);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-cache');
    expect(response.headers['x-total-count']).toBe('3');
    const queue = response.json<ApprovalQueueBody>();
    expect(queue).toEqual([
      {
        id: ids.update,
        name: 'Updated',
        xmlId: 'com.example.updated',
        family: 'intellij',
        vendor: 'Vendor of com.example.updated',
        kind: 'update',
        pendingVersions: [
          { id: ids.updateStable, version: '1.1.0', channel: '', uploaded: at(5).getTime() },
          { id: ids.updateEap, version: '2.0.0-eap', channel: 'eap', uploaded: at(20).getTime() },
        ],
        waitingSince: at(5).getTime(),
        flags: [],
      },
      {
        id: ids.newItem,
        name: 'Fresh',
        xmlId: 'com.example.fresh',
        family: 'intellij',
        vendor: 'Vendor of com.example.fresh',
        kind: 'new',
        pendingVersions: [
          { id: ids.newItemVersion, version: '1.0.0', channel: '', uploaded: at(2).getTime() },
        ],
        waitingSince: at(10).getTime(),
        flags: [],
      },
      expect.objectContaining({
        id: ids.latest,
        kind: 'new',
        pendingVersions: [],
        waitingSince: at(30).getTime(),
      }),
    ]);
  });

  it('pages with max and offset, linking the other pages', async () => {
    const first = await get('?max=2', adminToken);
    expect(first.json<ApprovalQueueBody>().map((entry) => entry.id)).toEqual([ids.update, ids.newItem]);
    expect(first.headers.link).toBe(
      '</api/admin/plugins/pending?max=2&offset=0>; rel="first", ' +
        '</api/admin/plugins/pending?max=2&offset=2>; rel="next", ' +
        '</api/admin/plugins/pending?max=2&offset=2>; rel="last"',
    );
    const second = await get('?max=2&offset=2', adminToken);
    expect(second.json<ApprovalQueueBody>().map((entry) => entry.id)).toEqual([ids.latest]);
    expect(second.headers['x-total-count']).toBe('3');
    expect(second.headers.link).toContain('offset=0>; rel="prev"');
    expect(second.headers.link).not.toContain('rel="next"');

    const beyond = await get('?max=2&offset=10', adminToken);
    expect(beyond.json()).toEqual([]);
    expect(beyond.headers['x-total-count']).toBe('3');
  });

  it('drops an item from the queue once an administrator approves it', async () => {
    const approve = await testApp.app.inject({
      method: 'POST',
      url: `/api/plugins/${ids.latest}/approve`,
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(approve.statusCode).toBe(200);
    const queue = (await get('', adminToken)).json<ApprovalQueueBody>();
    expect(queue.map((entry) => entry.id)).toEqual([ids.update, ids.newItem]);
  });

  it('refuses bad paging with a message', async () => {
    for (const query of ['?max=0', '?max=101', '?offset=-1', '?max=ten']) {
      const response = await get(query, adminToken);
      expect(response.statusCode, query).toBe(400);
      expect(response.json<{ message: string }>().message, query).toMatch(/max|offset/);
    }
  });

  it('is for administrators only', async () => {
    const developer = await get('', developerToken);
    expect(developer.statusCode).toBe(403);
    expect(developer.body).not.toContain('com.example');
    const guest = await get('');
    expect(guest.statusCode).toBe(401);
    expect(guest.body).not.toContain('com.example');
  });
});
