import { createHash, randomBytes } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendToLocalChannel } from '../../src/auth/local-channel';
import { freePort } from '../support/server-process';
import { addUser, buildAuthTestApp, type AuthTestApp } from './auth-test-app';

let testApp: AuthTestApp;
let browser: Browser;
let publicUrl: string;

beforeAll(async () => {
  // The embedded provider must know its own address before it starts, so the port is chosen first.
  const port = await freePort();
  publicUrl = `http://127.0.0.1:${port}`;
  testApp = await buildAuthTestApp({
    publicUrl,
    // Stands in for the site's callback page, which receives the code.
    routes: (app) => {
      app.get('/auth/callback', async (_request, reply) => reply.type('text/html').send('<p>Signed in.</p>'));
      app.get('/', async (_request, reply) => reply.type('text/html').send('<p>Home.</p>'));
    },
  });
  await testApp.app.listen({ port, host: '127.0.0.1' });
  await addUser(testApp, 'dora', { password: 'dora-secret-password' });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await testApp?.close();
});

function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function authorizationUrl(challenge: string, state: string): string {
  const { issuer, clientId } = testApp.config.identity;
  const url = new URL(`${issuer}/auth`);
  url.search = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: `${publicUrl}/auth/callback`,
    scope: 'openid profile email offline_access',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
  }).toString();
  return url.toString();
}

/** Signs in through the login page in Chromium and returns the URL the provider sent the browser back to. */
async function signInInBrowser(login: string, password: string, challenge: string, state: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(authorizationUrl(challenge, state));
  await page.getByLabel('Login').fill(login);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForLoadState('load');
  const finalUrl = new URL(page.url());
  const callbackUrl = finalUrl.pathname === '/auth/callback' ? finalUrl : undefined;
  const errorText = callbackUrl ? null : await page.locator('[role=alert]').textContent();
  await context.close();
  return { callbackUrl, errorText };
}

async function tokenRequest(parameters: Record<string, string>) {
  const response = await fetch(`${testApp.config.identity.issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: testApp.config.identity.clientId, ...parameters }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function me(accessToken: string) {
  const response = await fetch(`${publicUrl}/api/users/me`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('a listening server', () => {
  it('opens the local admin channel for mp users / mp tokens', async () => {
    const result = await sendToLocalChannel(testApp.dataDir, { operation: 'tokens.list', login: 'dora' });
    expect(result).toEqual({ kind: 'tokens', tokens: [] });
  });
});

describe('signing in at the embedded identity service (Chromium)', () => {
  it('runs authorization code + PKCE end to end and the access token works on the API', async () => {
    const { verifier, challenge } = pkcePair();
    const { callbackUrl, errorText } = await signInInBrowser(
      'dora',
      'dora-secret-password',
      challenge,
      'state-1',
    );
    expect(errorText).toBeNull();
    expect(callbackUrl?.searchParams.get('state')).toBe('state-1');
    const code = callbackUrl?.searchParams.get('code');
    expect(code).toBeTruthy();

    const exchanged = await tokenRequest({
      grant_type: 'authorization_code',
      code: code ?? '',
      redirect_uri: `${publicUrl}/auth/callback`,
      code_verifier: verifier,
    });
    expect(exchanged.status).toBe(200);
    const accessToken = String(exchanged.body.access_token);
    expect(decodeProtectedHeader(accessToken)).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
    expect(decodeJwt(accessToken)).toMatchObject({
      iss: testApp.config.identity.issuer,
      aud: testApp.config.audience,
    });
    expect(exchanged.body.refresh_token).toEqual(expect.any(String));
    expect(exchanged.body.id_token).toEqual(expect.any(String));

    const answer = await me(accessToken);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ guest: false, login: 'dora', name: 'dora', banned: false });

    // The refresh token gives a new access token that works too.
    const refreshed = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: String(exchanged.body.refresh_token),
    });
    expect(refreshed.status).toBe(200);
    expect((await me(String(refreshed.body.access_token))).body).toMatchObject({ login: 'dora' });

    // The code is single use: a second exchange is refused, and (as OAuth asks) everything issued from that
    // code is revoked, the rotated refresh token included.
    const replay = await tokenRequest({
      grant_type: 'authorization_code',
      code: code ?? '',
      redirect_uri: `${publicUrl}/auth/callback`,
      code_verifier: verifier,
    });
    expect(replay.status).toBe(400);
    const afterReplay = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: String(refreshed.body.refresh_token),
    });
    expect(afterReplay.body.error).toBe('invalid_grant');
  }, 60_000);

  it('refuses the code without the PKCE verifier that goes with it', async () => {
    const { challenge } = pkcePair();
    const { callbackUrl } = await signInInBrowser('dora', 'dora-secret-password', challenge, 'state-2');
    const exchanged = await tokenRequest({
      grant_type: 'authorization_code',
      code: callbackUrl?.searchParams.get('code') ?? '',
      redirect_uri: `${publicUrl}/auth/callback`,
      code_verifier: pkcePair().verifier,
    });
    expect(exchanged.status).toBe(400);
    expect(exchanged.body.error).toBe('invalid_grant');
  }, 60_000);

  it('reuses the session without a password (also for prompt=consent) until sign-out, which ends the refresh tokens', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const first = pkcePair();
    await page.goto(authorizationUrl(first.challenge, 'first'));
    await page.getByLabel('Login').fill('dora');
    await page.getByLabel('Password').fill('dora-secret-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/auth\/callback\?/);

    const second = pkcePair();
    await page.goto(`${authorizationUrl(second.challenge, 'second')}&prompt=consent`);
    await page.waitForURL(/\/auth\/callback\?/);
    const callback = new URL(page.url());
    expect(callback.searchParams.get('state')).toBe('second');
    const exchanged = await tokenRequest({
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code') ?? '',
      redirect_uri: `${publicUrl}/auth/callback`,
      code_verifier: second.verifier,
    });
    expect((await me(String(exchanged.body.access_token))).body).toMatchObject({ login: 'dora' });

    // Signing out ends the session: the next sign-in asks for the password again.
    await page.goto(
      `${testApp.config.identity.issuer}/session/end?${new URLSearchParams({
        id_token_hint: String(exchanged.body.id_token),
        post_logout_redirect_uri: `${publicUrl}/`,
      }).toString()}`,
    );
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${publicUrl}/`);
    const afterSignOut = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: String(exchanged.body.refresh_token),
    });
    expect(afterSignOut.body.error).toBe('invalid_grant');
    await page.goto(authorizationUrl(pkcePair().challenge, 'third'));
    await expect(page.getByLabel('Password').isVisible()).resolves.toBe(true);
    await context.close();
  }, 60_000);

  it('shows "Wrong login or password." and sends no code for a wrong password', async () => {
    const { challenge } = pkcePair();
    const { callbackUrl, errorText } = await signInInBrowser(
      'dora',
      'not-her-password',
      challenge,
      'state-3',
    );
    expect(errorText).toBe('Wrong login or password.');
    expect(callbackUrl).toBeUndefined();
  }, 60_000);
});
