import { sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseKind } from '../../src/db/client';
import { selectRows } from '../../src/search/sql';
import { PLUGINS, USERS } from '../api/catalogue-fixture';
import { DATABASE_KINDS } from '../db/test-database';
import { createReviewsTestApp, type ReviewsTestApp } from './reviews-test-app';

/*
 * About 50 writes, edits and deletes of reviews of one plugin at once, through the real HTTP routes (on
 * PostgreSQL through two server instances sharing the database, as behind a load balancer), then the
 * plugin's stored aggregate and the rating the API answers are compared with a fresh count of the reviews.
 */

const PLUGIN = PLUGINS.gitToolbox;
/**
 * Reviews the catalogue already has on that plugin, by author: they take no part in the race. Mallory's
 * review is there too, but she is banned: it counts nowhere.
 */
const FIXTURE_RATINGS = new Map([
  [USERS.carol.id, 5],
  [USERS.bob.id, 4],
]);

const stars = (index: number, shift = 0) => ((index + shift) % 5) + 1;

interface Recount {
  count: number;
  total: number;
  votes: Record<string, number>;
}

async function recount(t: ReviewsTestApp): Promise<Recount> {
  const rows = await selectRows<{ rating: number; count: number }>(
    t.db,
    sql`SELECT r.rating::int AS rating, count(*)::int AS count FROM reviews r JOIN users u ON u.id = r.author_id
      WHERE r.plugin_id = ${PLUGIN} AND NOT u.banned GROUP BY r.rating`,
  );
  const votes: Record<string, number> = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 };
  let count = 0;
  let total = 0;
  for (const row of rows) {
    votes[String(row.rating)] = row.count;
    count += row.count;
    total += row.rating * row.count;
  }
  return { count, total, votes };
}

function expectedFrom(ratings: Iterable<number>): Recount {
  const votes: Record<string, number> = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 };
  let count = 0;
  let total = 0;
  for (const rating of ratings) {
    votes[String(rating)] = (votes[String(rating)] ?? 0) + 1;
    count += 1;
    total += rating;
  }
  return { count, total, votes };
}

/** The stored aggregate, the API's answers and the fresh count must all say the same. */
async function expectAggregateMatches(t: ReviewsTestApp, expected: Recount): Promise<void> {
  expect(await recount(t)).toEqual(expected);
  const mean = expected.count === 0 ? 0 : expected.total / expected.count;
  const [stored] = await selectRows<{ count: number; total: number; mean: number }>(
    t.db,
    sql`SELECT rating_count AS count, rating_total AS total, rating_mean AS mean FROM plugins WHERE id = ${PLUGIN}`,
  );
  expect({ count: stored!.count, total: stored!.total }).toEqual({
    count: expected.count,
    total: expected.total,
  });
  expect(stored!.mean).toBeCloseTo(mean, 12);
  const rating = await t.app.inject({ method: 'GET', url: `/api/plugins/${PLUGIN}/rating` });
  expect(rating.json()).toEqual({
    meanRating: expect.closeTo(mean, 12),
    votes: expected.votes,
    total: expected.count,
  });
  const plugin = await t.app.inject({ method: 'GET', url: `/api/plugins/${PLUGIN}` });
  expect(plugin.json().rating.votes).toEqual(expected.votes);
}

describe.each(DATABASE_KINDS)(
  'the rating of a plugin under concurrent review writes (%s)',
  (kind: DatabaseKind) => {
    let t: ReviewsTestApp;
    let servers: FastifyInstance[];
    const users: number[] = [];
    const reviewOf = new Map<number, number>();

    beforeAll(async () => {
      t = await createReviewsTestApp({ kind });
      servers = kind === 'postgres' ? [t.app, await t.secondApp()] : [t.app];
      for (let index = 0; index < 50; index += 1) users.push(await t.addUser(`racer${index}`));
      // Users 0-24 start with a review each.
      for (const [index, user] of users.slice(0, 25).entries()) {
        const response = await t.call(user, {
          method: 'POST',
          url: '/api/comments',
          payload: { pluginId: PLUGIN, rating: stars(index), comment: `Review ${index}` },
        });
        expect(response.statusCode).toBe(201);
        reviewOf.set(user, response.json().id);
      }
    }, 120_000);
    afterAll(async () => t?.close());

    async function send(serverIndex: number, user: number, request: InjectOptions) {
      const server = servers[serverIndex % servers.length]!;
      return server.inject({
        ...request,
        headers: { ...request.headers, authorization: await t.bearer(user) },
      });
    }

    it('stays exact when 50 different users write, edit and delete at once', async () => {
      const final = new Map<number, number>(FIXTURE_RATINGS);
      for (const [index, user] of users.slice(0, 25).entries()) final.set(user, stars(index));
      await expectAggregateMatches(t, expectedFrom(final.values()));

      const plans: Array<{ user: number; request: InjectOptions; status: number }> = [];
      users.forEach((user, index) => {
        const reviewId = reviewOf.get(user);
        if (index < 10) {
          plans.push({
            user,
            request: {
              method: 'PUT',
              url: `/api/comments/${reviewId}`,
              payload: { rating: stars(index, 2), comment: 'Edited' },
            },
            status: 200,
          });
          final.set(user, stars(index, 2));
        } else if (index < 18) {
          plans.push({ user, request: { method: 'DELETE', url: `/api/comments/${reviewId}` }, status: 204 });
          final.delete(user);
        } else if (index < 22) {
          plans.push({
            user,
            request: {
              method: 'PUT',
              url: `/api/plugins/${PLUGIN}/rating`,
              payload: { rating: stars(index, 3) },
            },
            status: 200,
          });
          final.set(user, stars(index, 3));
        } else if (index < 25) {
          plans.push({
            user,
            request: { method: 'POST', url: '/api/comments', payload: { pluginId: PLUGIN, rating: 1 } },
            status: 409,
          });
        } else if (index < 40) {
          plans.push({
            user,
            request: {
              method: 'POST',
              url: '/api/comments',
              payload: {
                pluginId: PLUGIN,
                rating: stars(index),
                categories: { PERFORMANCE: stars(index, 1) },
              },
            },
            status: 201,
          });
          final.set(user, stars(index));
        } else {
          plans.push({
            user,
            request: {
              method: 'PUT',
              url: `/api/plugins/${PLUGIN}/rating`,
              payload: { rating: stars(index, 4) },
            },
            status: 201,
          });
          final.set(user, stars(index, 4));
        }
      });
      expect(plans).toHaveLength(50);

      const responses = await Promise.all(plans.map((plan, index) => send(index, plan.user, plan.request)));
      expect(responses.map((response) => response.statusCode)).toEqual(plans.map((plan) => plan.status));
      await expectAggregateMatches(t, expectedFrom(final.values()));
    }, 120_000);

    it('stays exact when the same reviews are edited, deleted and created twice at once', async () => {
      const ids = await selectRows<{ id: number; author_id: number }>(
        t.db,
        sql`SELECT id, author_id FROM reviews WHERE plugin_id = ${PLUGIN} AND author_id IN (${sql.join(
          users.map((user) => sql`${user}`),
          sql`, `,
        )}) ORDER BY id`,
      );
      const requests: Array<{ user: number; request: InjectOptions }> = [];
      for (const { id, author_id: user } of ids.slice(0, 12)) {
        requests.push({
          user,
          request: { method: 'PUT', url: `/api/comments/${id}`, payload: { rating: 2 } },
        });
        requests.push({ user, request: { method: 'DELETE', url: `/api/comments/${id}` } });
      }
      // Users whose reviews were deleted above write again, twice at once: one wins, the other gets 409.
      for (const user of users.slice(10, 18)) {
        for (let copy = 0; copy < 2; copy += 1) {
          requests.push({
            user,
            request: {
              method: 'POST',
              url: '/api/comments',
              payload: { pluginId: PLUGIN, rating: 5 - copy },
            },
          });
        }
      }
      // And some rate through the upsert while their review is being deleted.
      for (const { id, author_id: user } of ids.slice(12, 15)) {
        requests.push({ user, request: { method: 'DELETE', url: `/api/comments/${id}` } });
        requests.push({
          user,
          request: { method: 'PUT', url: `/api/plugins/${PLUGIN}/rating`, payload: { rating: 3 } },
        });
      }
      expect(requests.length).toBeGreaterThanOrEqual(45);

      const responses = await Promise.all(
        requests.map((entry, index) => send(index, entry.user, entry.request)),
      );
      const statuses = responses.map((response) => response.statusCode);
      // Every answer is a decision the user can understand: done, already there, or already gone.
      expect(statuses.filter((status) => ![200, 201, 204, 404, 409].includes(status))).toEqual([]);
      const created = statuses.filter(
        (status, index) => status === 201 && requests[index]!.request.method === 'POST',
      );
      expect(created).toHaveLength(8);

      const fresh = await recount(t);
      await expectAggregateMatches(t, fresh);
      const perAuthor = await selectRows<{ count: number }>(
        t.db,
        sql`SELECT count(*)::int AS count FROM reviews WHERE plugin_id = ${PLUGIN} GROUP BY author_id HAVING count(*) > 1`,
      );
      expect(perAuthor).toEqual([]);
    }, 120_000);
  },
);
