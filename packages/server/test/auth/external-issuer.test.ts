import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authMetaTags, renderAuthMetaTags } from '../../src/auth/config';
import { addUser, buildAuthTestApp, type AuthTestApp } from './auth-test-app';

/** A stand-in for an external OpenID Connect issuer (Keycloak and friends): discovery and keys. */
let issuerServer: Server;
let issuer: string;
let signingKey: CryptoKey;
let publicJwk: JWK;
let testApp: AuthTestApp;

beforeAll(async () => {
  const pair = await generateKeyPair('RS256');
  signingKey = pair.privateKey;
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'external-1', alg: 'RS256', use: 'sig' };
  issuerServer = createServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    if (request.url === '/realms/dev/.well-known/openid-configuration') {
      response.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/protocol/openid-connect/certs` }));
    } else if (request.url === '/realms/dev/protocol/openid-connect/certs') {
      response.end(JSON.stringify({ keys: [publicJwk] }));
    } else {
      response.statusCode = 404;
      response.end('{}');
    }
  });
  await new Promise<void>((resolve) => issuerServer.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}/realms/dev`;
  testApp = await buildAuthTestApp({ env: { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: 'marketplace' } });
}, 60_000);

afterAll(async () => {
  await testApp?.close();
  await new Promise((resolve) => issuerServer.close(resolve));
});

async function externalToken(claims: Record<string, unknown>, audience = testApp.config.audience) {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: 'external-1', typ: 'JWT' })
    .setIssuer(issuer)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(signingKey);
}

async function me(token: string) {
  const response = await testApp.app.inject({
    url: '/api/users/me',
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
}

describe('an external OpenID Connect issuer', () => {
  it('is what the meta tags name, and the embedded provider is not mounted', async () => {
    expect(authMetaTags(testApp.config)).toEqual([
      { name: 'mp-auth-issuer', content: issuer },
      { name: 'mp-auth-client-id', content: 'marketplace' },
      { name: 'mp-auth-audience', content: 'http://127.0.0.1:8080/api' },
    ]);
    expect(renderAuthMetaTags(testApp.config)).toContain(`<meta name="mp-auth-issuer" content="${issuer}">`);
    expect((await testApp.app.inject({ url: '/oidc/.well-known/openid-configuration' })).statusCode).toBe(
      404,
    );
  });

  it('signs people in with its tokens, creating their user once', async () => {
    const claims = {
      sub: 'f3c1-9a',
      preferred_username: 'ivy',
      name: 'Ivy Chen',
      email: 'ivy@example.com',
      email_verified: true,
    };
    const first = await me(await externalToken(claims));
    expect(first).toEqual({
      status: 200,
      body: {
        guest: false,
        id: expect.any(Number),
        name: 'Ivy Chen',
        login: 'ivy',
        email: 'ivy@example.com',
        emailVerified: true,
        banned: false,
        isAdmin: false,
      },
    });
    const again = await me(await externalToken(claims));
    expect(again.body.id).toBe(first.body.id);
  });

  it('gives a new person a free login when theirs is taken', async () => {
    await addUser(testApp, 'jack');
    const answer = await me(await externalToken({ sub: 'other-jack', preferred_username: 'jack' }));
    expect(answer.body).toMatchObject({ guest: false, login: 'jack-2', name: 'jack-2' });
  });

  it('refuses its tokens for another audience, and tokens of other keys', async () => {
    expect((await me(await externalToken({ sub: 'x' }, 'https://elsewhere.example/api'))).status).toBe(401);
    const stranger = await generateKeyPair('RS256');
    const forged = await new SignJWT({ sub: 'f3c1-9a' })
      .setProtectedHeader({ alg: 'RS256', kid: 'external-1' })
      .setIssuer(issuer)
      .setAudience(testApp.config.audience)
      .setExpirationTime('5m')
      .sign(stranger.privateKey);
    expect((await me(forged)).status).toBe(401);
  });
});

describe('an external issuer that does not answer', () => {
  it('gives 503 (try again), not 401 (sign in again)', async () => {
    const unreachable = await buildAuthTestApp({
      // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
      env: { OIDC_ISSUER: 'http://127.0.0.1:9/realms/dev', OIDC_CLIENT_ID: 'marketplace' },
    });
    try {
      const token = await new SignJWT({ sub: 'a' })
        .setProtectedHeader({ alg: 'RS256', kid: 'external-1' })
        .setIssuer('http://127.0.0.1:9/realms/dev')
        .setAudience(unreachable.config.audience)
        .setExpirationTime('5m')
        .sign(signingKey);
      const response = await unreachable.app.inject({
        url: '/api/users/me',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('30');
    } finally {
      await unreachable.close();
    }
  }, 60_000);
});
