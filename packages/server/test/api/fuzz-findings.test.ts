import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createReviewsTestApp, type ReviewsTestApp } from '../reviews/reviews-test-app';

/*
 * What fuzzing the route table found (packages/server/faults/fuzz.ts, `pnpm test:faults`), kept as
 * regression tests: each of these requests was answered 500.
 */
vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

describe('requests the fuzzer found answered 500', () => {
  let t: ReviewsTestApp;
  let userId: number;
  let adminId: number;

  beforeAll(async () => {
    t = await createReviewsTestApp({ env: { HTTP_IDLE_TIMEOUT_SECONDS: '1' } });
    userId = await t.addUser('fuzz-finding-user');
    adminId = await t.addUser('fuzz-finding-admin', { isAdmin: true });
  });
  afterAll(async () => t?.close());

  it.each([
    ['GET', '/api/plugins/2147483648'],
    ['GET', '/api/plugins/1e309/documentation/24'],
    ['GET', '/api/plugins/5/screenshots/1e309'],
    ['GET', '/api/updates/1e309'],
    ['GET', '/api/plugins/NaN/upload/details'],
    ['DELETE', '/api/plugins/2147483648'],
    ['GET', '/api/marketplace/plugin/1e309/quote'],
    ['GET', '/statistic/downloads-unique/product?plugin=2147483648&startDate=2026-01-01&endDate=2026-01-31'],
  ])('%s %s: a 4xx saying what is wrong, as an administrator', async (method, url) => {
    const response = await t.call(adminId, { method: method as 'GET', url });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.json().message).not.toMatch(/Internal API error/);
  });

  it('answers an id past the integer range 400 with a readable message', async () => {
    const response = await t.call(userId, { method: 'DELETE', url: '/api/users/me/tokens/2147483648' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ type: 'error', message: 'A number in the request is out of range.' });
  });

  it('refuses a multipart upload without its boundary with 400', async () => {
    for (const url of ['/api/updates/upload', '/api/plugins/intellij/upload']) {
      const response = await t.call(userId, {
        method: 'POST',
        url,
        headers: { 'content-type': 'multipart/form-data' },
        payload: 'not a multipart body',
      });
      expect(response.statusCode, url).toBe(400);
    }
  });

  it('refuses screenshots, an icon or a documentation tab sent as multipart without its boundary with 400', async () => {
    for (const url of ['/api/plugins/1/screenshots', '/api/plugins/1/icon', '/api/plugins/1/documentation']) {
      const response = await t.call(adminId, {
        method: url.endsWith('icon') ? 'PUT' : 'POST',
        url,
        headers: { 'content-type': 'multipart/form-data' },
        payload: 'not a multipart body',
      });
      expect(response.statusCode, url).toBeLessThan(500);
      expect(response.statusCode, url).not.toBe(200);
    }
  });

  it('passes /oidc with a query string to the identity provider as /?query, not as a broken path', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const response = await t.app.inject({ method, url: '/oidc?__proto__=1' });
      expect(response.statusCode, method).toBeLessThan(500);
    }
  });

  it('closes a connection whose request body stopped half-way after the idle time-out', async () => {
    expect(t.app.server.timeout).toBe(1000);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    // Signed in, so that the body is read (a guest is refused 401 before it, and the connection kept alive).
    const authorization = await t.bearer(userId);
    const started = Date.now();
    const closed = await new Promise<number>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(
          `POST /api/comments HTTP/1.1\r\nHost: 127.0.0.1\r\nauthorization: ${authorization}\r\n` +
            'content-type: application/json\r\n' +
            'content-length: 1000\r\n\r\n{"pluginId": 1,',
        );
      });
      socket.on('error', () => undefined);
      socket.resume();
      socket.on('close', () => resolve(Date.now() - started));
      setTimeout(() => reject(new Error('The stalled connection was not closed in 10 s.')), 10_000);
    });
    expect(closed).toBeGreaterThanOrEqual(900);
    expect(closed).toBeLessThan(5000);
  });
});
