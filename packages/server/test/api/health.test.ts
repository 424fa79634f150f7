import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createReviewsTestApp, type ReviewsTestApp } from '../reviews/reviews-test-app';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let t: ReviewsTestApp;
beforeAll(async () => {
  t = await createReviewsTestApp();
});
afterAll(async () => t?.close());

describe('GET /api/health', () => {
  it('says "starting" with 503 until the search index is built, then 200, never cached', async () => {
    const starting = await t.app.inject('/api/health');
    expect(starting.statusCode).toBe(503);
    expect(starting.json()).toEqual({ status: 'starting', message: 'The search index is being built.' });
    await t.app.catalogueSearch.prepare();
    const ready = await t.app.inject('/api/health');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', message: 'This node answers.' });
    expect(ready.headers['cache-control']).toBe('no-store');
  });

  it('answers 503 with a clear message when the database cannot be reached', async () => {
    // What node-postgres throws when the server ends the connection (the fault suite cuts real ones).
    const failing = vi
      .spyOn(t.app.db, 'execute')
      .mockRejectedValueOnce(
        Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      );
    const down = await t.app.inject('/api/health');
    failing.mockRestore();
    expect(down.statusCode, down.body).toBe(503);
    expect(down.json().message).toMatch(/database/i);
  });
});
