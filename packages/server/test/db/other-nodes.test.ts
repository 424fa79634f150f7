import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { announceCacheEvent, CacheEventFollower } from '../../src/admin/caches/events';
import { createReviewsTestApp, type ReviewsTestApp } from '../reviews/reviews-test-app';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

// Two nodes on one PostgreSQL database, both listening as a server does, each keeping answers for 5 s as
// the default configuration does: without being told, node B would answer from what it holds.
let nodeA: ReviewsTestApp;
let nodeB: FastifyInstance;

beforeAll(async () => {
  nodeA = await createReviewsTestApp({ kind: 'postgres', env: { RESPONSE_CACHE_MS: '5000' } });
  nodeB = await nodeA.secondApp();
  await nodeA.app.listen({ port: 0, host: '127.0.0.1' });
  await nodeB.listen({ port: 0, host: '127.0.0.1' });
  // The server starts hearing once it listens (an onListen hook, which listen() does not wait for).
  await vi.waitFor(() => expect(nodeB.otherNodes).toBeDefined());
  await nodeB.otherNodes!.ready;
});
afterAll(async () => nodeA?.close());

async function namesFoundOnB(search: string): Promise<string[]> {
  const answer = await nodeB.inject(`/api/searchPlugins?search=${encodeURIComponent(search)}&max=5`);
  expect(answer.statusCode).toBe(200);
  return (answer.json() as { plugins: { name: string }[] }).plugins.map((plugin) => plugin.name);
}

/** Polls node B until `found` holds, failing past `withinMs` from the change on the other node. */
async function expectOnB(search: string, found: (names: string[]) => boolean, withinMs: number) {
  const changedAt = Date.now();
  let names = await namesFoundOnB(search);
  while (!found(names)) {
    expect(Date.now() - changedAt, `node B still found ${JSON.stringify(names)}`).toBeLessThan(withinMs);
    await new Promise((resolve) => setTimeout(resolve, 50));
    names = await namesFoundOnB(search);
  }
  return Date.now() - changedAt;
}

describe('nodes on one PostgreSQL database', () => {
  it("hear another node's edit, block and approval at once, with no answer kept from before", async () => {
    // Node B searches first, so it holds the answer and looked at the catalogue a moment ago.
    expect(await namesFoundOnB('Carnival')).toEqual([]);
    // An edit on node A's database (as a write route, `mp` or the scheduler makes it).
    await nodeA.db.execute(sql`UPDATE plugins SET name = 'Git Carnival' WHERE name = 'Git Toolbox'`);
    const editSeenAfter = await expectOnB('Carnival', (names) => names.includes('Git Carnival'), 1000);
    // Blocked: gone from node B's search; approved again: back.
    await nodeA.db.execute(sql`UPDATE plugins SET approved = false WHERE name = 'Git Carnival'`);
    await expectOnB('Carnival', (names) => names.length === 0, 1000);
    await nodeA.db.execute(sql`UPDATE plugins SET approved = true WHERE name = 'Git Carnival'`);
    await expectOnB('Carnival', (names) => names.includes('Git Carnival'), 1000);
    expect(editSeenAfter).toBeLessThan(1000);
  });

  it('catch up after losing the connection that hears, missing nothing changed meanwhile', async () => {
    expect(await namesFoundOnB('Jamboree')).toEqual([]);
    // Cut every LISTEN connection of this database: node B's hearing is gone until it reconnects.
    const cut = await nodeA.db.execute(
      sql`SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity
          WHERE datname = current_database() AND query LIKE 'LISTEN%'`,
    );
    expect(cut.rows.length).toBeGreaterThan(0);
    // Changed while nobody listens: no notification reaches node B for this.
    await nodeA.db.execute(sql`UPDATE plugins SET name = 'Kotlin Jamboree' WHERE name = 'Kotlin Fest'`);
    await expectOnB('Jamboree', (names) => names.includes('Kotlin Jamboree'), 3000);
    expect(nodeB.otherNodes!.listening).toBe(true);
  });

  it('do not wake the other nodes for a download count', async () => {
    const woken = vi.spyOn(nodeB.catalogueSearch, 'catchUp');
    const [version] = (
      await nodeA.db.execute(sql`SELECT v.id FROM plugin_versions v JOIN plugins p ON p.id = v.plugin_id
          WHERE v.approval_state = 'approved' AND NOT v.hidden AND p.approved ORDER BY v.id LIMIT 1`)
    ).rows as { id: number }[];
    const download = await nodeA.app.inject(`/plugin/download?updateId=${version!.id}`);
    expect(download.statusCode).toBe(200);
    // An edit committed after the count still wakes node B; notifications arrive in commit order, so once
    // node B shows the edit, a notification of the count would have come before it.
    await nodeA.db.execute(sql`UPDATE plugins SET name = 'Download Marker' WHERE name = 'Git Carnival'`);
    await expectOnB('Marker', (names) => names.includes('Download Marker'), 1000);
    expect(woken).toHaveBeenCalledTimes(1);
    woken.mockRestore();
  });

  it('act on a cache flush that commits while a look is under way, without waiting for the next look', async () => {
    // The first look's transaction is held open (its snapshot taken) until `release`, as on a busy node.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let holdNext = false;
    const db = new Proxy(nodeA.db, {
      get(target, key, receiver) {
        if (key !== 'transaction') return Reflect.get(target, key, receiver);
        return (work: (transaction: unknown) => Promise<unknown>, options: unknown) =>
          target.transaction(async (transaction) => {
            const result = await work(transaction);
            if (holdNext) {
              holdNext = false;
              await held;
            }
            return result;
          }, options as never);
      },
    });
    const acted: string[] = [];
    const follower = new CacheEventFollower(db, 'node-under-test', async (event) => {
      acted.push(`${event.action} ${event.cacheName}`);
    });
    await follower.hear();
    holdNext = true;
    const lookUnderWay = follower.hear();
    await vi.waitFor(() => expect(holdNext).toBe(false));
    await announceCacheEvent(nodeA.db, {
      action: 'flush',
      cacheName: 'answer-cache',
      origin: 'another-node',
      requestedBy: null,
    });
    // The other node's notification arrives now: this hear must see the event, not share the running look.
    const heard = follower.hear();
    release();
    await Promise.all([lookUnderWay, heard]);
    expect(acted).toEqual(['flush answer-cache']);
    await follower.close();
  });
});
