import { PRODUCT_FAMILIES } from '@marketplace/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { UserRow } from '../../src/auth/users';
import {
  accessTokenFor,
  addUser,
  buildPublishingTestApp,
  insertPlugin,
  type PublishingTestApp,
} from './publishing-test-app';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

describe('the order a developer gives their items', () => {
  let testApp: PublishingTestApp;
  let owner: UserRow;
  let ownerToken: string;
  let strangerToken: string;
  const ids: Record<'popular' | 'middle' | 'quiet', number> = { popular: 0, middle: 0, quiet: 0 };

  beforeAll(async () => {
    testApp = await buildPublishingTestApp();
    owner = await addUser(testApp.db, 'orderer');
    const stranger = await addUser(testApp.db, 'stranger');
    ownerToken = await accessTokenFor(testApp, owner.id);
    strangerToken = await accessTokenFor(testApp, stranger.id);
    for (const [name, downloads] of [
      ['popular', 300],
      ['middle', 200],
      ['quiet', 100],
    ] as const) {
      ids[name] = await insertPlugin(testApp.db, {
        xmlId: `com.example.order.${name}`,
        name,
        ownerId: owner.id,
        downloads,
        lifecycleState: 'published',
        approved: true,
      });
    }
  });
  afterAll(async () => {
    await testApp.close();
  });

  async function listed(token?: string, query = ''): Promise<string[]> {
    const answer = await testApp.app.inject({
      url: `/api/users/${owner.id}/plugins${query ? `?${query}` : ''}`,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    expect(answer.statusCode).toBe(200);
    return (answer.json() as { name: string }[]).map((item) => item.name);
  }

  const putOrder = (order: number[], token = ownerToken) =>
    testApp.app.inject({
      method: 'PUT',
      url: '/api/plugins/order',
      headers: { authorization: `Bearer ${token}` },
      payload: order,
    });

  it("lists the user's items in their order on their page, the unordered ones after it by downloads", async () => {
    expect(await listed()).toEqual(['popular', 'middle', 'quiet']);
    expect((await putOrder([ids.quiet, ids.popular])).statusCode).toBe(204);
    expect(await listed()).toEqual(['quiet', 'popular', 'middle']);
    expect(await listed(ownerToken)).toEqual(['quiet', 'popular', 'middle']);
    expect((await putOrder([ids.middle, ids.quiet, ids.popular])).statusCode).toBe(204);
    expect(await listed()).toEqual(['middle', 'quiet', 'popular']);
  });

  it("refuses an order naming someone else's item or one item twice, and keeps the order it had", async () => {
    const before = await listed();
    expect((await putOrder([ids.quiet], strangerToken)).statusCode).toBe(400);
    const twice = await putOrder([ids.quiet, ids.quiet]);
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toMatchObject({ message: 'A plugin is listed twice.' });
    expect(await listed()).toEqual(before);
  });

  it('orders courses with the rest: the default list leaves them out (spec §7), the list of every family has them in place', async () => {
    const course = await insertPlugin(testApp.db, {
      xmlId: 'com.example.order.course',
      name: 'course',
      family: 'edu',
      ownerId: owner.id,
      downloads: 400,
      lifecycleState: 'published',
      approved: true,
    });
    expect((await putOrder([ids.quiet, course, ids.popular, ids.middle])).statusCode).toBe(204);
    expect(await listed()).toEqual(['quiet', 'popular', 'middle']);
    const everyFamily = PRODUCT_FAMILIES.map((family) => `family=${family}`).join('&');
    expect(await listed(ownerToken, everyFamily)).toEqual(['quiet', 'course', 'popular', 'middle']);
    expect(await listed(undefined, 'family=edu')).toEqual(['course']);
    // Only the course's developers may place it.
    expect((await putOrder([course], strangerToken)).statusCode).toBe(400);
  });
});
