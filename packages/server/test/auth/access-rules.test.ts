import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '../../src/auth/api-tokens';
import { authConfigFromEnv } from '../../src/auth/config';
import { authPlugin } from '../../src/auth/plugin';
import { users } from '../../src/db/schema/catalogue';
import { accessTokenFor, addUser, buildAuthTestApp, type AuthTestApp } from './auth-test-app';

let testApp: AuthTestApp;
const bearer: Record<'owner' | 'other' | 'admin' | 'banned' | 'upload' | 'manage', string> = {
  owner: '',
  other: '',
  admin: '',
  banned: '',
  upload: '',
  manage: '',
};
let ownerId = 0;

beforeAll(async () => {
  testApp = await buildAuthTestApp({
    routes: (app) => {
      const ok = async () => ({ ok: true });
      app.post('/t/public', { config: { auth: { rule: 'public' } } }, ok);
      app.post('/t/signed-in', { config: { auth: { rule: 'signed-in' } } }, ok);
      app.post('/t/upload', { config: { auth: { rule: 'signed-in', scope: 'upload' } } }, ok);
      app.get('/t/admin', { config: { auth: { rule: 'admin' } } }, ok);
      app.get('/t/read', ok);
      app.delete<{ Params: { id: string } }>(
        '/t/items/:id',
        {
          config: {
            auth: {
              rule: 'owner',
              ownerOf: async (request) => {
                const { id } = request.params as { id: string };
                return id === '1' ? [ownerId] : undefined;
              },
            },
          },
        },
        ok,
      );
    },
  });
  const db = testApp.testDatabase.database.db;
  const owner = await addUser(testApp, 'owner');
  ownerId = owner.id;
  const other = await addUser(testApp, 'other');
  const admin = await addUser(testApp, 'admin', { isAdmin: true });
  const banned = await addUser(testApp, 'banned');
  await db.update(users).set({ banned: true }).where(eq(users.id, banned.id));
  bearer.owner = `Bearer ${await accessTokenFor(testApp, owner.id)}`;
  bearer.other = `Bearer ${await accessTokenFor(testApp, other.id)}`;
  bearer.admin = `Bearer ${await accessTokenFor(testApp, admin.id)}`;
  bearer.banned = `Bearer ${await accessTokenFor(testApp, banned.id)}`;
  bearer.upload = `Bearer ${(await createApiToken(db, { userId: owner.id, name: 'ci', scopes: ['upload'] })).token}`;
  bearer.manage = `Bearer ${(await createApiToken(db, { userId: owner.id, name: 'all', scopes: ['manage'] })).token}`;
}, 60_000);

afterAll(async () => {
  await testApp.close();
});

async function call(method: 'GET' | 'POST' | 'DELETE', url: string, authorization?: string) {
  const response = await testApp.app.inject({
    method,
    url,
    headers: authorization ? { authorization } : {},
    ...(method === 'POST' ? { payload: {} } : {}),
  });
  return { status: response.statusCode, message: (response.json() as { message?: string }).message };
}

describe('route rules', () => {
  it('public routes take guests; signed-in routes ask guests to sign in', async () => {
    expect((await call('POST', '/t/public')).status).toBe(200);
    expect(await call('POST', '/t/signed-in')).toEqual({
      status: 401,
      message: 'Please sign in to do this.',
    });
    expect((await call('POST', '/t/signed-in', bearer.other)).status).toBe(200);
  });

  it('admin routes are for administrators only', async () => {
    expect((await call('GET', '/t/admin')).status).toBe(401);
    expect(await call('GET', '/t/admin', bearer.owner)).toEqual({
      status: 403,
      message: 'Only administrators can do this.',
    });
    expect((await call('GET', '/t/admin', bearer.admin)).status).toBe(200);
  });

  it('owner routes are for the owners and administrators; unknown items are 404', async () => {
    expect((await call('DELETE', '/t/items/1', bearer.owner)).status).toBe(200);
    expect((await call('DELETE', '/t/items/1', bearer.admin)).status).toBe(200);
    expect(await call('DELETE', '/t/items/1', bearer.other)).toEqual({
      status: 403,
      message: 'Only the developers of this item and administrators can do this.',
    });
    expect((await call('DELETE', '/t/items/2', bearer.owner)).status).toBe(404);
    expect((await call('DELETE', '/t/items/1')).status).toBe(401);
  });

  it('a banned user can read but every write is refused', async () => {
    const me = await testApp.app.inject({ url: '/api/users/me', headers: { authorization: bearer.banned } });
    expect(me.json()).toMatchObject({ guest: false, login: 'banned', banned: true });
    expect((await call('GET', '/t/read', bearer.banned)).status).toBe(200);
    for (const url of ['/t/public', '/t/signed-in']) {
      expect(await call('POST', url, bearer.banned)).toEqual({
        status: 403,
        message: 'Your account is banned, so you cannot change anything here.',
      });
    }
    const createToken = await testApp.app.inject({
      method: 'POST',
      url: '/api/users/me/tokens',
      headers: { authorization: bearer.banned },
      payload: { name: 'sneaky', scopes: ['manage'] },
    });
    expect(createToken.statusCode).toBe(403);
  });
});

describe('permanent token scopes', () => {
  it('an upload token may upload and read, but not manage', async () => {
    expect((await call('POST', '/t/upload', bearer.upload)).status).toBe(200);
    expect((await call('GET', '/t/read', bearer.upload)).status).toBe(200);
    expect(await call('POST', '/t/signed-in', bearer.upload)).toEqual({
      status: 403,
      message: 'This API token cannot do this: it needs the "manage" scope.',
    });
    expect((await call('DELETE', '/t/items/1', bearer.upload)).status).toBe(403);
    const createToken = await testApp.app.inject({
      method: 'POST',
      url: '/api/users/me/tokens',
      headers: { authorization: bearer.upload },
      payload: { name: 'escalate', scopes: ['manage'] },
    });
    expect(createToken.statusCode).toBe(403);
  });

  it('a manage token may manage but not upload', async () => {
    expect((await call('POST', '/t/signed-in', bearer.manage)).status).toBe(200);
    expect((await call('DELETE', '/t/items/1', bearer.manage)).status).toBe(200);
    expect((await call('POST', '/t/upload', bearer.manage)).status).toBe(403);
  });
});

describe('token routes', () => {
  it('create, list (without the secret) and revoke tokens of the signed-in user', async () => {
    const created = await testApp.app.inject({
      method: 'POST',
      url: '/api/users/me/tokens',
      headers: { authorization: bearer.other },
      payload: { name: 'Gradle publishing', scopes: ['upload'], expiresInDays: 30 },
    });
    expect(created.statusCode).toBe(201);
    const token = created.json<{ id: number; token: string; expiresAt: string }>();
    expect(token.token).toMatch(/^perm:/);
    expect(new Date(token.expiresAt).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);

    const listed = await testApp.app.inject({
      url: '/api/users/me/tokens',
      headers: { authorization: bearer.other },
    });
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual([
      expect.objectContaining({
        id: token.id,
        name: 'Gradle publishing',
        scopes: ['upload'],
        hint: token.token.slice(-4),
      }),
    ]);
    expect(listed.body).not.toContain(token.token);

    // Someone else cannot revoke it.
    const foreign = await testApp.app.inject({
      method: 'DELETE',
      url: `/api/users/me/tokens/${token.id}`,
      headers: { authorization: bearer.owner },
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('refuse bad input with a clear 400 and create nothing', async () => {
    for (const payload of [
      { name: 'x', scopes: [] },
      { name: 'x', scopes: ['root'] },
      { name: '', scopes: ['upload'] },
      { name: 'x', scopes: ['upload'], expiresInDays: 0 },
    ]) {
      const response = await testApp.app.inject({
        method: 'POST',
        url: '/api/users/me/tokens',
        headers: { authorization: bearer.admin },
        payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json<{ message: string }>().message.length).toBeGreaterThan(10);
    }
    const listed = await testApp.app.inject({
      url: '/api/users/me/tokens',
      headers: { authorization: bearer.admin },
    });
    expect(listed.json()).toEqual([]);
  });
});

describe('startup check', () => {
  it('refuses to start when a write route declares no rule', async () => {
    const app = Fastify({ logger: false });
    await app.register(authPlugin, {
      database: testApp.testDatabase.database,
      config: authConfigFromEnv({}, { publicUrl: 'http://127.0.0.1:8080', dataDir: testApp.dataDir }),
    });
    const start = async () => {
      await app.register(async (scope) => {
        scope.put('/api/plugins/:id', async () => ({}));
      });
      await app.ready();
    };
    await expect(start()).rejects.toThrow(
      'The route PUT /api/plugins/:id changes data but declares no access rule',
    );
    await app.close();
  });
});
