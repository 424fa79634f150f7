import { generateKeyPair, importJWK, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '../../src/auth/api-tokens';
import { loadSharedIdentityKeys } from '../../src/auth/keys';
import { addUser, buildAuthTestApp, type AuthTestApp } from './auth-test-app';

let testApp: AuthTestApp;
let userId: number;

async function embeddedSigningKey() {
  const keys = await loadSharedIdentityKeys(testApp.testDatabase.database.db, testApp.dataDir);
  const jwk = keys.signingKeys.find((key) => key.alg === 'ES256');
  if (!jwk) throw new Error('no ES256 key');
  return { key: await importJWK(jwk, 'ES256'), kid: jwk.kid ?? '' };
}

/** An access token as the embedded provider makes them, with changes to test one rule at a time. */
async function accessToken(
  changes: { claims?: JWTPayload; expiresAt?: number; key?: CryptoKey; header?: Record<string, string> } = {},
): Promise<string> {
  const signing = await embeddedSigningKey();
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    iss: testApp.config.identity.issuer,
    aud: testApp.config.audience,
    sub: String(userId),
    iat: now,
    exp: changes.expiresAt ?? now + 600,
    scope: 'api',
    ...changes.claims,
  })
    .setProtectedHeader({ alg: 'ES256', kid: signing.kid, typ: 'at+jwt', ...changes.header })
    .sign(changes.key ?? signing.key);
}

async function me(authorization: string | undefined) {
  const response = await testApp.app.inject({
    method: 'GET',
    url: '/api/users/me',
    headers: authorization === undefined ? {} : { authorization },
  });
  return { status: response.statusCode, body: response.json(), headers: response.headers };
}

beforeAll(async () => {
  testApp = await buildAuthTestApp();
  userId = (await addUser(testApp, 'alice')).id;
}, 60_000);

afterAll(async () => {
  await testApp.close();
});

describe('GET /api/users/me', () => {
  it('answers a guest when no token is sent', async () => {
    const answer = await me(undefined);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      guest: true,
      id: null,
      name: null,
      login: null,
      email: null,
      emailVerified: false,
      banned: false,
      isAdmin: false,
    });
  });

  it('answers the user of a valid access token', async () => {
    const answer = await me(`Bearer ${await accessToken()}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      guest: false,
      id: userId,
      name: 'alice',
      login: 'alice',
      email: null,
      emailVerified: false,
      banned: false,
      isAdmin: false,
    });
    expect(answer.headers['cache-control']).toBe('private, no-store');
  });
});

describe('access tokens that are refused with 401', () => {
  it('refuses a token signed by another key', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const answer = await me(`Bearer ${await accessToken({ key: privateKey })}`);
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toContain('invalid_token');
    expect(answer.body).toEqual({ type: 'error', message: expect.stringContaining('sign in again') });
  });

  it('refuses a token with a changed payload', async () => {
    const [header, , signature] = (await accessToken()).split('.');
    const forged = Buffer.from(
      JSON.stringify({
        iss: testApp.config.identity.issuer,
        aud: testApp.config.audience,
        sub: '999',
        exp: 9e9,
      }),
    ).toString('base64url');
    expect((await me(`Bearer ${header}.${forged}.${signature}`)).status).toBe(401);
  });

  it('refuses a token from another issuer', async () => {
    const token = await accessToken({ claims: { iss: 'https://issuer.example.com/oidc' } });
    expect((await me(`Bearer ${token}`)).status).toBe(401);
  });

  it('refuses a token for another audience', async () => {
    const token = await accessToken({ claims: { aud: 'https://other-api.example.com' } });
    expect((await me(`Bearer ${token}`)).status).toBe(401);
  });

  it('refuses an expired token', async () => {
    const token = await accessToken({ expiresAt: Math.floor(Date.now() / 1000) - 60 });
    expect((await me(`Bearer ${token}`)).status).toBe(401);
  });

  it('refuses an unsigned token (alg none)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = `${encode({ alg: 'none', typ: 'at+jwt' })}.${encode({
      iss: testApp.config.identity.issuer,
      aud: testApp.config.audience,
      sub: String(userId),
      iat: now,
      exp: now + 600,
    })}.`;
    expect((await me(`Bearer ${unsigned}`)).status).toBe(401);
  });

  it('refuses an ID token used as an access token', async () => {
    const token = await accessToken({ header: { typ: 'JWT' } });
    expect((await me(`Bearer ${token}`)).status).toBe(401);
  });

  it('refuses a token of a user who no longer exists', async () => {
    const token = await accessToken({ claims: { sub: '424242' } });
    expect((await me(`Bearer ${token}`)).status).toBe(401);
  });

  it('refuses a malformed Authorization header', async () => {
    expect((await me('Basic YWxpY2U6cGFzc3dvcmQ=')).status).toBe(401);
    expect((await me('Bearer')).status).toBe(401);
  });
});

describe('permanent API tokens', () => {
  it('are accepted as Bearer perm:... and identify their user', async () => {
    const created = await createApiToken(testApp.testDatabase.database.db, {
      userId,
      name: 'CI upload',
      scopes: ['upload'],
    });
    const answer = await me(`Bearer ${created.token}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ guest: false, login: 'alice' });
  });

  it('are refused with 401 once revoked', async () => {
    const create = await testApp.app.inject({
      method: 'POST',
      url: '/api/users/me/tokens',
      headers: { authorization: `Bearer ${await accessToken()}` },
      payload: { name: 'laptop', scopes: ['manage'] },
    });
    expect(create.statusCode).toBe(201);
    const { id, token } = create.json<{ id: number; token: string }>();
    expect((await me(`Bearer ${token}`)).status).toBe(200);
    const revoke = await testApp.app.inject({
      method: 'DELETE',
      url: `/api/users/me/tokens/${id}`,
      headers: { authorization: `Bearer ${await accessToken()}` },
    });
    expect(revoke.statusCode).toBe(204);
    expect((await me(`Bearer ${token}`)).status).toBe(401);
  });

  it('are refused with 401 once expired', async () => {
    const longAgo = new Date(Date.now() - 3 * 86_400_000);
    const created = await createApiToken(
      testApp.testDatabase.database.db,
      { userId, name: 'old', scopes: ['upload'], expiresInDays: 1 },
      longAgo,
    );
    expect((await me(`Bearer ${created.token}`)).status).toBe(401);
  });

  it('refuses unknown and malformed permanent tokens with 401', async () => {
    expect((await me(`Bearer perm:${'A'.repeat(43)}`)).status).toBe(401);
    expect((await me('Bearer perm:short')).status).toBe(401);
  });
});

describe('the identity provider endpoints', () => {
  it('read their own Authorization header (client credentials), untouched by bearer checks', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/oidc/token',
      headers: {
        authorization: `Basic ${Buffer.from('someone:secret').toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'grant_type=refresh_token&refresh_token=unknown',
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('publish the public keys only', async () => {
    const response = await testApp.app.inject({ url: '/oidc/jwks' });
    expect(response.statusCode).toBe(200);
    const { keys } = response.json<{ keys: Array<Record<string, unknown>> }>();
    expect(keys.map((key) => key.alg).sort()).toEqual(['ES256', 'RS256']);
    for (const key of keys) expect(key).not.toHaveProperty('d');
  });

  it('keep their signing keys across restarts, so tokens stay valid', async () => {
    const token = await accessToken();
    const restarted = await buildAuthTestApp({
      dataDir: testApp.dataDir,
      testDatabase: testApp.testDatabase,
    });
    try {
      const response = await restarted.app.inject({
        url: '/api/users/me',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.json()).toMatchObject({ guest: false, id: userId });
    } finally {
      await restarted.close();
    }
  });
});
