import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '../../src/auth/api-tokens';
import { ApiError } from '../../src/plugins/app/errors';
import { createApiTestContext, PLUGINS, USERS, VERSIONS, type ApiTestContext } from './catalogue-fixture';

let context: ApiTestContext;
beforeAll(async () => {
  context = await createApiTestContext({
    env: { RESPONSE_CACHE_MS: '60000' },
    extend(app) {
      app.get('/test/failure', async () => {
        throw new Error('connection to db-primary.internal:5432 refused (password for admin)');
      });
      app.get('/test/api-error', async () => {
        throw new ApiError('conflict', 'That name is taken.');
      });
    },
  });
}, 120_000);
afterAll(async () => context?.close());

describe('caching', () => {
  it('gives public answers a strong ETag and Cache-Control, and 304 when the client has them', async () => {
    const first = await context.app.inject('/api/plugins/1');
    expect(first.headers['cache-control']).toBe('public, max-age=60');
    // A signed-in owner may get another answer from the same URL: caches must not hand them this one; and
    // another client may get it compressed.
    const vary = String(first.headers.vary).toLowerCase().split(/,\s*/);
    expect(vary).toEqual(expect.arrayContaining(['accept-encoding', 'authorization', 'cookie']));
    expect(new Set(vary).size).toBe(vary.length);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    const again = await context.app.inject({ url: '/api/plugins/1', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    const other = await context.app.inject({
      url: '/api/plugins/1',
      headers: { 'if-none-match': '"stale"' },
    });
    expect(other.statusCode).toBe(200);
  });

  it('never stores errors or personal answers in shared caches', async () => {
    const missing = await context.app.inject('/api/plugins/999');
    expect(missing.headers['cache-control']).toBe('no-store');
    expect(missing.headers.etag).toBeUndefined();
    const personal = await context.app.inject({
      url: '/api/plugins/1',
      headers: { authorization: 'Bearer x' },
    });
    expect(personal.headers['cache-control']).not.toContain('public');
  });

  it('replays a kept answer (same body, ETag and Link) until the catalogue changes', async () => {
    const url = '/api/searchPlugins?search=kotlin&max=1';
    const first = await context.app.inject(url);
    await context.db.execute(sql`UPDATE plugins SET name = 'Kotlin Carnival' WHERE id = 2`);
    const replayed = await context.app.inject(url);
    expect(replayed.body).toBe(first.body);
    expect(replayed.headers.etag).toBe(first.headers.etag);
    expect(replayed.headers.link).toBe(first.headers.link);
    expect(replayed.headers['x-total-count']).toBe(first.headers['x-total-count']);
    expect(replayed.headers['access-control-allow-origin']).toBe('*');
    expect(String(replayed.headers.vary).toLowerCase()).toContain('authorization');
    const notModified = await context.app.inject({
      url,
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(notModified.statusCode).toBe(304);
    context.app.catalogueChanged();
    const fresh = await context.app.inject(url);
    expect(fresh.json().plugins[0].name).toBe('Kotlin Carnival');
    expect(fresh.headers.etag).not.toBe(first.headers.etag);
  });
  it('finds a change made through a write request in the very next search', async () => {
    const { token } = await createApiToken(context.db, {
      userId: USERS.alice.id,
      name: 'rename test',
      scopes: ['manage'],
    });
    const url = '/api/searchPlugins?search=lighthouse&max=5';
    expect((await context.app.inject(url)).json().total).toBe(0);
    const renamed = await context.app.inject({
      method: 'PUT',
      url: `/api/plugins/${PLUGINS.gitToolbox}`,
      headers: { authorization: `Bearer ${token}` },
      payload: { name: 'Git Lighthouse' },
    });
    expect(renamed.statusCode).toBe(200);
    const found = (await context.app.inject(url)).json();
    expect(found.plugins.map((plugin: { id: number }) => plugin.id)).toEqual([PLUGINS.gitToolbox]);
    await context.app.inject({
      method: 'PUT',
      url: `/api/plugins/${PLUGINS.gitToolbox}`,
      headers: { authorization: `Bearer ${token}` },
      payload: { name: 'Git Toolbox' },
    });
  });
});

describe('who is looking', () => {
  async function tokenOf(userId: number): Promise<string> {
    const created = await createApiToken(context.db, { userId, name: 'api test', scopes: ['manage'] });
    return created.token;
  }

  it('shows owners their own hidden item and its versions, and nobody else', async () => {
    const url = `/api/plugins/${PLUGINS.hidden}`;
    const owner = { authorization: `Bearer ${await tokenOf(USERS.alice.id)}` };
    const stranger = { authorization: `Bearer ${await tokenOf(USERS.carol.id)}` };
    const asOwner = await context.app.inject({ url, headers: owner });
    expect(asOwner.statusCode).toBe(200);
    expect(asOwner.json().info.isHidden).toBe(true);
    expect(asOwner.headers['cache-control']).toBe('private, no-cache');
    expect((await context.app.inject({ url, headers: stranger })).statusCode).toBe(404);
    expect((await context.app.inject(url)).statusCode).toBe(404);
    const download = `/plugin/download?updateId=${VERSIONS.hiddenPlugin}`;
    expect((await context.app.inject({ url: download, headers: owner })).statusCode).toBe(200);
    expect((await context.app.inject(download)).statusCode).toBe(404);
    const search = await context.app.inject({ url: '/api/searchPlugins?search=secret', headers: owner });
    expect(search.json().plugins.map((plugin: { id: number }) => plugin.id)).toEqual([PLUGINS.hidden]);
  });

  it('refuses an invalid token instead of treating the caller as a visitor', async () => {
    const response = await context.app.inject({
      url: '/api/plugins/1',
      headers: { authorization: 'Bearer nope' },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().type).toBe('error');
  });
});

describe('answers kept by the HTTP server itself', () => {
  it('replays a public answer over real HTTP with the same headers, 304 and compression', async () => {
    const origin = await context.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `${origin}/api/searchPlugins?payment=free&max=3`;
    const first = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
    const firstBody = await first.text();
    const again = await fetch(url, {
      headers: { 'accept-encoding': 'identity', origin: 'https://blog.example.org' },
    });
    expect(again.status).toBe(200);
    expect(await again.text()).toBe(firstBody);
    for (const header of ['etag', 'link', 'x-total-count', 'content-type', 'cache-control']) {
      expect(again.headers.get(header), header).toBe(first.headers.get(header));
    }
    for (const answer of [first, again]) {
      expect(String(answer.headers.get('vary')).toLowerCase()).toMatch(
        /authorization.*cookie|cookie.*authorization/,
      );
    }
    expect(again.headers.get('access-control-allow-origin')).toBe('*');
    expect(again.headers.get('access-control-expose-headers')).toContain('Link');
    const notModified = await fetch(url, { headers: { 'if-none-match': String(first.headers.get('etag')) } });
    expect(notModified.status).toBe(304);
    // fetch asks for gzip/br and decodes: the body is the same text, sent compressed.
    const document = `${origin}/api/openapi.json`;
    const plain = await (await fetch(document, { headers: { 'accept-encoding': 'identity' } })).text();
    const compressed = await fetch(document);
    expect(compressed.headers.get('content-encoding')).toMatch(/^(br|gzip)$/);
    expect(await compressed.text()).toBe(plain);
    const personal = await fetch(url, { headers: { authorization: 'Bearer nope' } });
    expect(personal.status).toBe(401);
  });
});

describe('cross-origin reads and compression', () => {
  it('lets any site read the API (widgets run on other sites)', async () => {
    const read = await context.app.inject({
      url: '/api/plugins/1',
      headers: { origin: 'https://blog.example.org' },
    });
    expect(read.headers['access-control-allow-origin']).toBe('*');
    expect(String(read.headers['access-control-expose-headers'])).toContain('Link');
    const preflight = await context.app.inject({
      method: 'OPTIONS',
      url: '/api/search/updates/compatible',
      headers: {
        origin: 'https://blog.example.org',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toContain('POST');
  });

  it('compresses large answers for clients that accept it', async () => {
    const plain = await context.app.inject('/api/openapi.json');
    const zipped = await context.app.inject({
      url: '/api/openapi.json',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(gunzipSync(zipped.rawPayload).toString()).toBe(plain.body);
    expect(String(zipped.headers.vary)).toContain('accept-encoding');
  });
});

describe('errors', () => {
  it('answers unknown addresses with a JSON 404', async () => {
    const response = await context.app.inject('/api/nothing-here?x=1');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ type: 'error', message: 'There is nothing at GET /api/nothing-here.' });
  });

  it('never shows the internals of a failure', async () => {
    const response = await context.app.inject('/test/failure');
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      type: 'error',
      message: 'Internal API error has happened. Please update the page or return later',
    });
    expect(response.body).not.toContain('db-primary');
  });

  it('answers an ApiError with its status and message', async () => {
    const response = await context.app.inject('/test/api-error');
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ type: 'error', message: 'That name is taken.' });
  });

  it('answers a malformed JSON body with a 400', async () => {
    const response = await context.app.inject({
      method: 'POST',
      url: '/api/search/updates/compatible',
      headers: { 'content-type': 'application/json' },
      payload: '{"build": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().type).toBe('error');
  });
});

describe('connections', () => {
  it('keeps idle connections open longer than clients reuse them, so a reused one is not closed under a request', () => {
    expect(context.app.server.keepAliveTimeout).toBe(72_000);
  });
});

describe('documents', () => {
  it('serves an OpenAPI document describing the read API and the IDE calls', async () => {
    const document = (await context.app.inject('/api/openapi.json')).json();
    expect(document.openapi).toBe('3.1.0');
    for (const path of [
      '/api/plugins/{id}',
      '/api/searchPlugins',
      '/api/search/aggregation/products',
      '/api/tags',
      '/api/comments',
      '/api/users/{id}/plugins',
      '/statistic/downloads-count/day',
      '/statistic/{measure}/{dimension}',
      '/plugins/list',
      '/api/search/updates/compatible',
      '/plugin/download',
    ]) {
      expect(document.paths, path).toHaveProperty([path]);
    }
    expect(document.paths['/api/plugins/{id}'].get.responses['404']).toBeDefined();
    const statistic = document.paths['/statistic/{measure}/{dimension}'].get;
    const measure = statistic.parameters.find((parameter: { name: string }) => parameter.name === 'measure');
    expect(measure.schema.enum).toContain('update-checks');
  });

  it('serves a page at / that links the entry points', async () => {
    const response = await context.app.inject('/');
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('<a href="/api/openapi.json">');
    expect(response.body).toContain('https://plugins.example.com/plugins/list');
  });
});
