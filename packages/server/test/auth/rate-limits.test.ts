import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../db/test-database';
import { accessTokenFor, addUser, buildAuthTestApp, startSignIn, type AuthTestApp } from './auth-test-app';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const writeRoutes = (app: AuthTestApp['app']) => {
  app.post('/t/write', { config: { auth: { rule: 'signed-in' } } }, async () => ({ ok: true }));
};

describe('the limit on writes', () => {
  let testApp: AuthTestApp;
  let authorization: string;

  beforeAll(async () => {
    testApp = await buildAuthTestApp({ env: { WRITE_RATE_LIMIT: '3' }, routes: writeRoutes });
    authorization = `Bearer ${await accessTokenFor(testApp, (await addUser(testApp, 'writer')).id)}`;
  }, 60_000);

  afterAll(async () => {
    await testApp.close();
  });

  it('answers 429 with Retry-After once a user has written too much in a minute', async () => {
    const write = () =>
      testApp.app.inject({ method: 'POST', url: '/t/write', headers: { authorization }, payload: {} });
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await write()).statusCode).toBe(200);
    const refused = await write();
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.json()).toEqual({
      type: 'warning',
      message: `Too many changes in a short time. Please wait ${retryAfter} seconds and try again.`,
    });
    // Reads are not limited by it.
    expect((await testApp.app.inject({ url: '/api/users/me', headers: { authorization } })).statusCode).toBe(
      200,
    );
  });
});

describe('the limit on password attempts', () => {
  let testApp: AuthTestApp;

  beforeAll(async () => {
    testApp = await buildAuthTestApp({ env: { LOGIN_RATE_LIMIT: '2' } });
    await addUser(testApp, 'hana', { password: 'hana-password' });
    await addUser(testApp, 'ines', { password: 'ines-password' });
  }, 60_000);

  afterAll(async () => {
    await testApp.close();
  });

  it('answers 429 with Retry-After on the login page after too many attempts', async () => {
    const { loginPath, cookie } = await startSignIn(testApp);
    const page = await testApp.app.inject({ url: loginPath, headers: { cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.body).toContain('Sign in to Marketplace');

    const attempt = () =>
      testApp.app.inject({
        method: 'POST',
        url: `${loginPath}/login`,
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'login=hana&password=wrong-password',
      });
    expect((await attempt()).statusCode).toBe(401);
    expect((await attempt()).statusCode).toBe(401);
    const limited = await attempt();
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.body).toContain('Too many sign-in attempts.');
  });

  it('also limits attempts on one account coming from many addresses', async () => {
    const { loginPath, cookie } = await startSignIn(testApp);
    const attempt = (address: string) =>
      testApp.app.inject({
        method: 'POST',
        url: `${loginPath}/login`,
        remoteAddress: address,
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'login=Ines&password=wrong-password',
      });
    // The per-address limit is 2, the per-account one 4: four addresses, one attempt each, then refused.
    for (const address of ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4']) {
      expect((await attempt(address)).statusCode).toBe(401);
    }
    expect((await attempt('10.0.0.5')).statusCode).toBe(429);
  });
});

describe('with REDIS_URL, several server processes share the limits', () => {
  let shared: TestDatabase;
  let first: AuthTestApp;
  let second: AuthTestApp;
  const namespace = `mp-test-${randomBytes(6).toString('hex')}:`;

  beforeAll(async () => {
    shared = await createTestDatabase();
    const options = {
      env: { WRITE_RATE_LIMIT: '3', REDIS_URL },
      routes: writeRoutes,
      testDatabase: shared,
      rateLimitNamespace: namespace,
    };
    first = await buildAuthTestApp(options);
    second = await buildAuthTestApp({ ...options, dataDir: first.dataDir });
  }, 60_000);

  afterAll(async () => {
    await second?.close();
    await first?.close();
    await shared?.dispose();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${namespace}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('counts writes to either process against one limit', async () => {
    const user = await addUser(first, 'shared-writer');
    const authorization = `Bearer ${await accessTokenFor(first, user.id)}`;
    const write = (app: AuthTestApp) =>
      app.app.inject({ method: 'POST', url: '/t/write', headers: { authorization }, payload: {} });
    expect((await write(first)).statusCode).toBe(200);
    expect((await write(second)).statusCode).toBe(200);
    expect((await write(first)).statusCode).toBe(200);
    const refused = await write(second);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
  });
});

describe('REDIS_KEY_PREFIX', () => {
  it('keeps the counters of marketplaces sharing one Redis apart', async () => {
    const prefix = `mp-test-prefix-${randomBytes(6).toString('hex')}:`;
    const testApp = await buildAuthTestApp({
      env: { WRITE_RATE_LIMIT: '3', REDIS_URL, REDIS_KEY_PREFIX: prefix },
      routes: writeRoutes,
    });
    const redis = new Redis(REDIS_URL);
    try {
      const user = await addUser(testApp, 'prefixed-writer');
      const authorization = `Bearer ${await accessTokenFor(testApp, user.id)}`;
      const write = await testApp.app.inject({
        method: 'POST',
        url: '/t/write',
        headers: { authorization },
        payload: {},
      });
      expect(write.statusCode).toBe(200);
      const keys = await redis.keys(`${prefix}*`);
      expect(keys.length).toBeGreaterThan(0);
      await redis.del(...keys);
    } finally {
      await redis.quit();
      await testApp.close();
    }
  }, 60_000);
});

describe('a REDIS_URL that cannot be used', () => {
  it('stops the start with one line naming the setting, not at the first request', async () => {
    const start = buildAuthTestApp({ env: { REDIS_URL: 'redis://127.0.0.1:1' }, routes: writeRoutes });
    await expect(start).rejects.toThrow(
      /^REDIS_URL \(127\.0\.0\.1:1\) cannot be used \(connect ECONNREFUSED 127\.0\.0\.1:1\): check REDIS_URL/,
    );
  }, 60_000);
});

describe('the limit on refused tokens', () => {
  let testApp: AuthTestApp;
  let authorization: string;

  beforeAll(async () => {
    testApp = await buildAuthTestApp({ env: { TOKEN_FAILURE_RATE_LIMIT: '3' }, routes: writeRoutes });
    authorization = `Bearer ${await accessTokenFor(testApp, (await addUser(testApp, 'token-owner')).id)}`;
  }, 60_000);

  afterAll(async () => {
    await testApp.close();
  });

  it('answers 429 to an address that keeps sending unknown or forged tokens, reads and writes alike', async () => {
    const guesses = [
      { method: 'GET' as const, url: '/api/users/me', token: 'perm:not-a-token-anyone-was-given' },
      { method: 'POST' as const, url: '/t/write', token: 'forged.jwt.value' },
      { method: 'GET' as const, url: '/api/users/me', token: 'perm:another-guess' },
    ];
    for (const guess of guesses) {
      const refused = await testApp.app.inject({
        method: guess.method,
        url: guess.url,
        headers: { authorization: `Bearer ${guess.token}` },
        ...(guess.method === 'POST' ? { payload: {} } : {}),
      });
      expect(refused.statusCode).toBe(401);
    }
    const limited = await testApp.app.inject({
      url: '/api/users/me',
      headers: { authorization: 'Bearer perm:yet-another-guess' },
    });
    expect(limited.statusCode).toBe(429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(limited.json()).toEqual({
      type: 'warning',
      message: `Too many requests with a token that is not valid. Please wait ${retryAfter} seconds and try again.`,
    });
    // Only failures count: a valid token from the same address is still served.
    expect((await testApp.app.inject({ url: '/api/users/me', headers: { authorization } })).statusCode).toBe(
      200,
    );
    // Another address is not affected.
    const elsewhere = await testApp.app.inject({
      url: '/api/users/me',
      remoteAddress: '192.0.2.44',
      headers: { authorization: 'Bearer perm:a-first-guess' },
    });
    expect(elsewhere.statusCode).toBe(401);
  });
});
