import { REVIEW_TEXT_MAX_LENGTH } from '@marketplace/api-contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BANNED_MESSAGE, OWNER_ONLY, SIGN_IN_REQUIRED } from '../../src/auth/authorization';
import { selectRows } from '../../src/search/sql';
import { PLUGINS, USERS } from '../api/catalogue-fixture';
import { createReviewsTestApp, type ReviewsTestApp } from './reviews-test-app';

let t: ReviewsTestApp;
let dave: number;
let erin: number;
let admin: number;

beforeAll(async () => {
  t = await createReviewsTestApp();
  dave = await t.addUser('dave');
  erin = await t.addUser('erin');
  admin = await t.addUser('root', { isAdmin: true });
}, 60_000);
afterAll(async () => t?.close());

const json = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});

async function storedAggregate(pluginId: number) {
  const [row] = await selectRows<{ count: number; total: number; mean: number }>(
    t.db,
    sql`SELECT rating_count AS count, rating_total AS total, rating_mean AS mean FROM plugins WHERE id = ${pluginId}`,
  );
  return row!;
}

async function rating(pluginId: number) {
  const response = await t.call(undefined, { method: 'GET', url: `/api/plugins/${pluginId}/rating` });
  expect(response.statusCode).toBe(200);
  return response.json() as { meanRating: number; votes: Record<string, number>; total: number };
}

async function comments(pluginId: number) {
  const response = await t.call(undefined, { method: 'GET', url: `/api/comments?pluginId=${pluginId}` });
  expect(response.statusCode).toBe(200);
  return response.json() as Array<{
    id: number;
    author: { id: number };
    rating: number;
    comment: string;
    updateDate: number | null;
    replies: Array<{ id: number; comment: string; author: { id: number } }>;
  }>;
}

describe('writing a review', () => {
  it('creates the review, shows it in the plugin reviews and moves the rating', async () => {
    const before = await rating(PLUGINS.darculaTheme);
    expect(before).toEqual({ meanRating: 0, votes: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 }, total: 0 });

    const response = await t.call(dave, {
      method: 'POST',
      url: '/api/comments',
      ...json({
        pluginId: PLUGINS.darculaTheme,
        rating: 4,
        comment: 'Easy on the eyes.\r\n\r\n\r\n\r\nGood contrast.  ',
        categories: { USER_INTERFACE: 5, PERFORMANCE: 3 },
      }),
    });
    expect(response.statusCode).toBe(201);
    const review = response.json();
    expect(review).toMatchObject({
      plugin: { id: PLUGINS.darculaTheme, name: 'Darcula Pro Theme' },
      author: { id: dave, login: 'dave' },
      rating: 4,
      comment: 'Easy on the eyes.\n\nGood contrast.',
      updateDate: null,
      replies: [],
      categories: { USER_INTERFACE: 5, PERFORMANCE: 3 },
    });

    expect(await rating(PLUGINS.darculaTheme)).toEqual({
      meanRating: 4,
      votes: { 1: 0, 2: 0, 3: 0, 4: 1, 5: 0 },
      total: 1,
    });
    expect(await storedAggregate(PLUGINS.darculaTheme)).toEqual({ count: 1, total: 4, mean: 4 });
    const listed = await comments(PLUGINS.darculaTheme);
    expect(listed.map((entry) => [entry.id, entry.comment])).toEqual([
      [review.id, 'Easy on the eyes.\n\nGood contrast.'],
    ]);
    const granular = await t.call(undefined, {
      method: 'GET',
      url: `/api/plugins/${PLUGINS.darculaTheme}/rating-granular`,
    });
    expect(granular.json()).toEqual({ PERFORMANCE: 3, USER_INTERFACE: 5 });
    const plugin = await t.call(undefined, { method: 'GET', url: `/api/plugins/${PLUGINS.darculaTheme}` });
    expect(plugin.json().rating).toMatchObject({ meanRating: 4, votes: { 4: 1 } });
    const mine = await t.call(undefined, { method: 'GET', url: `/api/users/${dave}/comments` });
    expect(mine.json().map((entry: { id: number }) => entry.id)).toEqual([review.id]);
  });

  it('answers a second review of the same plugin with 409 naming the first, and changes nothing', async () => {
    const [first] = await comments(PLUGINS.darculaTheme);
    const response = await t.call(dave, {
      method: 'POST',
      url: '/api/comments',
      ...json({ pluginId: PLUGINS.darculaTheme, rating: 1, comment: 'Changed my mind' }),
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(
      `You have already reviewed this plugin (review ${first!.id}). Change it with PUT /api/comments/${first!.id} ` +
        'or PUT /api/plugins/{id}/rating.',
    );
    expect(await storedAggregate(PLUGINS.darculaTheme)).toEqual({ count: 1, total: 4, mean: 4 });
    expect((await comments(PLUGINS.darculaTheme)).map((entry) => entry.comment)).toEqual([
      'Easy on the eyes.\n\nGood contrast.',
    ]);
  });

  it('refuses bad input with a sentence, and changes nothing', async () => {
    const cases: Array<[unknown, number, string | RegExp]> = [
      [{ pluginId: PLUGINS.kotlinFest, rating: 6 }, 400, 'The body field "rating" must be <= 5.'],
      [{ pluginId: PLUGINS.kotlinFest, rating: 0 }, 400, 'The body field "rating" must be >= 1.'],
      [{ pluginId: PLUGINS.kotlinFest }, 400, 'The body field "rating" is required.'],
      [{ rating: 3 }, 400, 'The body field "pluginId" is required.'],
      [
        { pluginId: PLUGINS.kotlinFest, rating: 3, categories: { SPEED: 4 } },
        400,
        'Unknown rating category "SPEED". Categories are: INTEGRATION, PERFORMANCE, AVAILABLE_FEATURES, ' +
          'USER_INTERFACE, DOCUMENTATION_QUALITY, PRICING_POLICY.',
      ],
      [{ pluginId: PLUGINS.kotlinFest, rating: 3, categories: { PERFORMANCE: 9 } }, 400, /must be <= 5/],
      [
        { pluginId: PLUGINS.kotlinFest, rating: 3, comment: 'x'.repeat(REVIEW_TEXT_MAX_LENGTH + 1) },
        400,
        `The review is too long: ${REVIEW_TEXT_MAX_LENGTH + 1} characters, at most ${REVIEW_TEXT_MAX_LENGTH} are allowed.`,
      ],
      [
        { pluginId: PLUGINS.kotlinFest, rating: 3, comment: '<script>alert(1)</script>' },
        400,
        'The review has no text left once markup is removed. Reviews and replies are plain text.',
      ],
      [{ pluginId: 99_999, rating: 3 }, 404, 'Plugin 99999 does not exist or is not available.'],
      [
        { pluginId: PLUGINS.hidden, rating: 3 },
        404,
        `Plugin ${PLUGINS.hidden} does not exist or is not available.`,
      ],
      [{ pluginId: PLUGINS.deleted, rating: 3 }, 404, /does not exist/],
    ];
    const before = await storedAggregate(PLUGINS.kotlinFest);
    for (const [body, status, message] of cases) {
      const response = await t.call(erin, { method: 'POST', url: '/api/comments', ...json(body) });
      expect({ body, status: response.statusCode }).toEqual({ body, status });
      expect(response.json().message).toMatch(message);
    }
    expect(await storedAggregate(PLUGINS.kotlinFest)).toEqual(before);
    const [{ count }] = (await selectRows<{ count: number }>(
      t.db,
      sql`SELECT count(*)::int AS count FROM reviews WHERE author_id = ${erin}`,
    )) as [{ count: number }];
    expect(count).toBe(0);
  });

  it('lets owners see but not review their unpublished plugin (409), and visitors not even see it (404)', async () => {
    const own = await t.call(USERS.alice.id, {
      method: 'POST',
      url: '/api/comments',
      ...json({ pluginId: PLUGINS.draft, rating: 5 }),
    });
    expect(own.statusCode).toBe(409);
    expect(own.json().message).toBe(
      '"Draft Git Tool" is not published, so it cannot be reviewed or rated yet.',
    );
    const other = await t.call(dave, {
      method: 'POST',
      url: '/api/comments',
      ...json({ pluginId: PLUGINS.draft, rating: 5 }),
    });
    expect(other.statusCode).toBe(404);
  });

  it('turns guests away with 401 and banned users with 403', async () => {
    const body = json({ pluginId: PLUGINS.kotlinFest, rating: 5, comment: 'great' });
    const guest = await t.call(undefined, { method: 'POST', url: '/api/comments', ...body });
    expect(guest.statusCode).toBe(401);
    expect(guest.json().message).toBe(SIGN_IN_REQUIRED);
    const banned = await t.call(USERS.mallory.id, { method: 'POST', url: '/api/comments', ...body });
    expect(banned.statusCode).toBe(403);
    expect(banned.json().message).toBe(BANNED_MESSAGE);
    // Review 3 is the banned user's own: they cannot change or remove it either.
    for (const request of [
      { method: 'PUT' as const, url: '/api/comments/3', ...json({ rating: 5 }) },
      { method: 'DELETE' as const, url: '/api/comments/3' },
      { method: 'PUT' as const, url: `/api/plugins/${PLUGINS.kotlinFest}/rating`, ...json({ rating: 5 }) },
    ]) {
      const response = await t.call(USERS.mallory.id, request);
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe(BANNED_MESSAGE);
    }
    const [stored] = await selectRows<{ rating: number }>(
      t.db,
      sql`SELECT rating::int FROM reviews WHERE id = 3`,
    );
    expect(stored?.rating).toBe(1);
  });
});

describe('review text', () => {
  it('keeps no script, markup or event handler, and keeps the words and honest angle brackets', async () => {
    const written = [
      ['<script>alert(1)</script>Works well <b>with</b> Git', 'Works well with Git'],
      ['x <img src=x onerror=alert(1)> y', 'x  y'],
      ['&lt;script&gt;alert(1)&lt;/script&gt;Fine', 'Fine'],
      ['<<script>script>alert(1)<</script>/script>ok', 'ok'],
      ['if a < b && c > d then <3', 'if a < b && c > d then <3'],
      ['<a href="javascript:alert(1)">click</a> me', 'click me'],
      ['Tom & Jerry "quoted" \u202Eevil\u0007', 'Tom & Jerry "quoted" evil'],
    ];
    for (const [index, [input, stored]] of written.entries()) {
      const author = await t.addUser(`writer${index}`);
      const response = await t.call(author, {
        method: 'POST',
        url: '/api/comments',
        ...json({ pluginId: PLUGINS.pythonLinter, rating: 3, comment: input }),
      });
      expect(response.statusCode).toBe(201);
      expect(response.json().comment).toBe(stored);
    }
    const listed = await comments(PLUGINS.pythonLinter);
    for (const entry of listed) expect(entry.comment).not.toMatch(/<[a-z!/?]/i);
  });
});

describe('changing and deleting a review', () => {
  it('lets the author change stars, text and categories, and moves the aggregate', async () => {
    const created = await t.call(erin, {
      method: 'POST',
      url: '/api/comments',
      ...json({ pluginId: PLUGINS.kotlinFest, rating: 5, comment: 'Great', categories: { INTEGRATION: 5 } }),
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as number;
    // kotlinFest had carol's 2 stars; now 2 + 5.
    expect(await storedAggregate(PLUGINS.kotlinFest)).toEqual({ count: 2, total: 7, mean: 3.5 });

    const edited = await t.call(erin, {
      method: 'PUT',
      url: `/api/comments/${id}`,
      ...json({ rating: 3, comment: 'Good, <i>but</i> slow' }),
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      id,
      rating: 3,
      comment: 'Good, but slow',
      categories: { INTEGRATION: 5 },
    });
    expect(edited.json().updateDate).toBeGreaterThanOrEqual(edited.json().cdate);
    expect(await storedAggregate(PLUGINS.kotlinFest)).toEqual({ count: 2, total: 5, mean: 2.5 });

    const cleared = await t.call(erin, {
      method: 'PUT',
      url: `/api/comments/${id}`,
      ...json({ categories: {} }),
    });
    expect(cleared.json()).toMatchObject({ rating: 3, comment: 'Good, but slow', categories: {} });

    const nothing = await t.call(erin, { method: 'PUT', url: `/api/comments/${id}`, ...json({}) });
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().message).toBe('Nothing to change: send rating, comment or categories.');
  });

  it('refuses other users (403), lets administrators moderate, and deletes with replies', async () => {
    const [review] = (await comments(PLUGINS.kotlinFest)).filter((entry) => entry.author.id === erin);
    const id = review!.id;
    const stranger = await t.call(dave, {
      method: 'PUT',
      url: `/api/comments/${id}`,
      ...json({ rating: 1 }),
    });
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json().message).toBe(OWNER_ONLY);
    const strangerDelete = await t.call(dave, { method: 'DELETE', url: `/api/comments/${id}` });
    expect(strangerDelete.statusCode).toBe(403);
    const guest = await t.call(undefined, { method: 'DELETE', url: `/api/comments/${id}` });
    expect(guest.statusCode).toBe(401);

    const moderated = await t.call(admin, {
      method: 'PUT',
      url: `/api/comments/${id}`,
      ...json({ comment: 'Good' }),
    });
    expect(moderated.statusCode).toBe(200);
    expect(moderated.json()).toMatchObject({ comment: 'Good', rating: 3, author: { id: erin } });

    const reply = await t.call(USERS.alice.id, {
      method: 'POST',
      url: `/api/comments/${id}/replies`,
      ...json({ comment: 'Thanks!' }),
    });
    expect(reply.statusCode).toBe(201);

    const deleted = await t.call(erin, { method: 'DELETE', url: `/api/comments/${id}` });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect(await storedAggregate(PLUGINS.kotlinFest)).toEqual({ count: 1, total: 2, mean: 2 });
    expect((await comments(PLUGINS.kotlinFest)).map((entry) => entry.id)).not.toContain(id);
    const replies = await selectRows<{ id: number }>(
      t.db,
      sql`SELECT id FROM review_replies WHERE review_id = ${id}`,
    );
    expect(replies).toEqual([]);

    const again = await t.call(erin, { method: 'DELETE', url: `/api/comments/${id}` });
    expect(again.statusCode).toBe(404);
    const missing = await t.call(erin, { method: 'PUT', url: '/api/comments/abc', ...json({ rating: 1 }) });
    expect(missing.statusCode).toBe(404);
  });
});

describe('PUT /api/plugins/{id}/rating', () => {
  it('creates a review without text, then changes only the stars, and answers the plugin rating', async () => {
    const user = await t.addUser('rater');
    const created = await t.call(user, {
      method: 'PUT',
      url: `/api/plugins/${PLUGINS.teamcityNotifier}/rating`,
      ...json({ rating: 2, categories: { DOCUMENTATION_QUALITY: 1 } }),
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ meanRating: 2, votes: { 1: 0, 2: 1, 3: 0, 4: 0, 5: 0 }, total: 1 });

    const [review] = await comments(PLUGINS.teamcityNotifier);
    expect(review).toMatchObject({ author: { id: user }, rating: 2, comment: '' });
    await t.call(user, { method: 'PUT', url: `/api/comments/${review!.id}`, ...json({ comment: 'Handy' }) });

    const changed = await t.call(user, {
      method: 'PUT',
      url: `/api/plugins/${PLUGINS.teamcityNotifier}/rating`,
      ...json({ rating: 5 }),
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ meanRating: 5, votes: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 1 }, total: 1 });
    const [after] = await comments(PLUGINS.teamcityNotifier);
    expect(after).toMatchObject({ id: review!.id, rating: 5, comment: 'Handy' });
    const granular = await t.call(undefined, {
      method: 'GET',
      url: `/api/plugins/${PLUGINS.teamcityNotifier}/rating-granular`,
    });
    expect(granular.json()).toEqual({ DOCUMENTATION_QUALITY: 1 });

    const post = await t.call(user, {
      method: 'POST',
      url: '/api/comments',
      ...json({ pluginId: PLUGINS.teamcityNotifier, rating: 1 }),
    });
    expect(post.statusCode).toBe(409);
  });

  it('answers 404 for plugins the rater cannot see and 401 for guests', async () => {
    const hidden = await t.call(dave, {
      method: 'PUT',
      url: `/api/plugins/${PLUGINS.blocked}/rating`,
      ...json({ rating: 5 }),
    });
    expect(hidden.statusCode).toBe(404);
    const guest = await t.call(undefined, {
      method: 'PUT',
      url: `/api/plugins/${PLUGINS.gitToolbox}/rating`,
      ...json({ rating: 5 }),
    });
    expect(guest.statusCode).toBe(401);
  });
});

describe('reviews of banned authors', () => {
  it('leave the rating when their author is banned, and come back when the ban is lifted', async () => {
    const plugin = PLUGINS.kotlinFest;
    const before = await rating(plugin);
    const beforeStored = await storedAggregate(plugin);
    const spammer = await t.addUser('spammer');
    const posted = await t.call(spammer, {
      method: 'PUT',
      url: `/api/plugins/${plugin}/rating`,
      ...json({ rating: 1, categories: { PERFORMANCE: 1 } }),
    });
    expect(posted.statusCode).toBe(201);
    const withSpam = await rating(plugin);
    expect(withSpam.total).toBe(before.total + 1);

    await t.db.execute(sql`UPDATE users SET banned = true WHERE id = ${spammer}`);
    expect(await rating(plugin)).toEqual(before);
    expect(await storedAggregate(plugin)).toEqual(beforeStored);
    const granular = await t.call(undefined, {
      method: 'GET',
      url: `/api/plugins/${plugin}/rating-granular`,
    });
    expect(granular.json().PERFORMANCE).toBeUndefined();
    const page = await t.call(undefined, { method: 'GET', url: `/api/plugins/${plugin}` });
    expect(page.json().rating.votes).toEqual(before.votes);

    await t.db.execute(sql`UPDATE users SET banned = false WHERE id = ${spammer}`);
    expect(await rating(plugin)).toEqual(withSpam);
  });
});

describe('replies', () => {
  // Review 1 is carol's review of Git Toolbox, whose owner is alice and developer bob.
  it('lets the plugin owner and developers answer a review, and shows the answer under it', async () => {
    const byOwner = await t.call(USERS.alice.id, {
      method: 'POST',
      url: '/api/comments/1/replies',
      ...json({ comment: 'Thank you, <script>x</script>Carol!' }),
    });
    expect(byOwner.statusCode).toBe(201);
    expect(byOwner.json()).toMatchObject({ author: { id: USERS.alice.id }, comment: 'Thank you, Carol!' });
    const byDeveloper = await t.call(USERS.bob.id, {
      method: 'POST',
      url: '/api/comments/1/replies',
      ...json({ comment: 'Glad it helps.' }),
    });
    expect(byDeveloper.statusCode).toBe(201);

    const [, first] = await comments(PLUGINS.gitToolbox);
    expect(first!.id).toBe(1);
    expect(first!.replies.map((reply) => [reply.author.id, reply.comment])).toEqual([
      [USERS.alice.id, 'Thank you, Carol!'],
      [USERS.bob.id, 'Glad it helps.'],
    ]);
  });

  it('refuses reviewers and other users (403), guests (401) and empty replies (400)', async () => {
    const reviewer = await t.call(USERS.carol.id, {
      method: 'POST',
      url: '/api/comments/1/replies',
      ...json({ comment: 'Me again' }),
    });
    expect(reviewer.statusCode).toBe(403);
    const guest = await t.call(undefined, {
      method: 'POST',
      url: '/api/comments/1/replies',
      ...json({ comment: 'Hi' }),
    });
    expect(guest.statusCode).toBe(401);
    const empty = await t.call(USERS.alice.id, {
      method: 'POST',
      url: '/api/comments/1/replies',
      ...json({ comment: '   ' }),
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('The reply is empty.');
    const missing = await t.call(USERS.alice.id, {
      method: 'POST',
      url: '/api/comments/99999/replies',
      ...json({ comment: 'Hi' }),
    });
    expect(missing.statusCode).toBe(404);
  });

  it('lets the reply author change and delete it, and nobody else but administrators', async () => {
    const [, first] = await comments(PLUGINS.gitToolbox);
    const bobsReply = first!.replies.find((reply) => reply.author.id === USERS.bob.id)!;
    const url = `/api/comments/1/replies/${bobsReply.id}`;
    const byOwner = await t.call(USERS.alice.id, { method: 'PUT', url, ...json({ comment: 'Edited' }) });
    expect(byOwner.statusCode).toBe(403);
    const wrongReview = await t.call(USERS.bob.id, {
      method: 'PUT',
      url: `/api/comments/2/replies/${bobsReply.id}`,
      ...json({ comment: 'Edited' }),
    });
    expect(wrongReview.statusCode).toBe(404);
    const edited = await t.call(USERS.bob.id, { method: 'PUT', url, ...json({ comment: 'Glad it helps!' }) });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ id: bobsReply.id, comment: 'Glad it helps!' });
    const removed = await t.call(admin, { method: 'DELETE', url });
    expect(removed.statusCode).toBe(204);
    const [, after] = await comments(PLUGINS.gitToolbox);
    expect(after!.replies.map((reply) => reply.author.id)).toEqual([USERS.alice.id]);
  });
});
