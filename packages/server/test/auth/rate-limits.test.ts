import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../db/test-database';
import { accessTokenFor, addUser, buildAuthTestApp, type AuthTestApp } from './auth-test-app';

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
  }, 60_000);

  afterAll(async () => {
    await testApp.close();
  });

  it('answers 429 with Retry-After on the login page after too many attempts', async () => {
    const { issuer, clientId, kind } = testApp.config.identity as Extract<
      AuthTestApp['config']['identity'],
      { kind: 'embedded' }
    >;
    expect(kind).toBe('embedded');
    const start = await testApp.app.inject({
      url: `/oidc/auth?${new URLSearchParams({
        client_id: clientId,
        response_type: 'code',
        redirect_uri: `${testApp.config.publicUrl}/auth/callback`,
        scope: 'openid',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      }).toString()}`,
    });
    expect(start.statusCode).toBe(303);
    const loginPath = new URL(String(start.headers.location), testApp.config.publicUrl).pathname;
    expect(loginPath).toMatch(/^\/oidc\/interaction\/[\w-]+$/);
    const cookie = start.cookies.map((entry) => `${entry.name}=${entry.value}`).join('; ');
    expect(issuer).toBe(`${testApp.config.publicUrl}/oidc`);

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
