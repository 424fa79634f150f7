import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sdkHosting, {
  DEFAULT_SDK_DIR,
  SDK_CACHE_CONTROL,
  SDK_CHUNK_CACHE_CONTROL,
  SDK_NOT_BUILT_MESSAGE,
} from '../../src/sdk-hosting/index';
import { createApiTestContext, type ApiTestContext } from '../api/catalogue-fixture';

const WIDGET = 'var MarketplaceWidget=(function(){return {version:"1"}})();';
const MANIFEST = '{"schemaVersion":"1.0.0","modules":[]}';
/** A chunk as the split build names it (name, content hash); long enough to be worth compressing. */
const CHUNK = 'shared-AbC_12-z.js';
const CHUNK_BODY = `export const tags = ${JSON.stringify(Array.from({ length: 200 }, (_, index) => `mp-tag-${index}`))};`;

function expectCrossOriginHeaders(headers: Record<string, unknown>): void {
  expect(headers['access-control-allow-origin']).toBe('*');
  expect(headers['cross-origin-resource-policy']).toBe('cross-origin');
}

describe('SDK hosting on a build', () => {
  let sdkDir: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    sdkDir = await mkdtemp(join(tmpdir(), 'sdk-hosting-'));
    await writeFile(join(sdkDir, 'mp-widget.js'), WIDGET);
    await writeFile(join(sdkDir, 'mp-loader.js'), 'var MarketplaceWidget={};');
    await writeFile(join(sdkDir, 'custom-elements.json'), MANIFEST);
    await writeFile(join(sdkDir, 'secret.txt'), 'not for the web');
    await mkdir(join(sdkDir, 'chunks'));
    await writeFile(join(sdkDir, 'chunks', CHUNK), CHUNK_BODY);
    await writeFile(join(sdkDir, 'chunks', 'notes.txt'), 'not for the web');
    app = Fastify();
    await app.register(sdkHosting, { sdkDir });
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
    await rm(sdkDir, { recursive: true, force: true });
  });

  it('serves the script-tag bundle as JavaScript any site may load, cached briefly with an ETag', async () => {
    const response = await app.inject('/sdk/mp-widget.js');
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(WIDGET);
    expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(response.headers['cache-control']).toBe(SDK_CACHE_CONTROL);
    expect(response.headers.etag).toMatch(/^"[\w-]{27}"$/);
    expectCrossOriginHeaders(response.headers);
    const manifest = await app.inject('/sdk/custom-elements.json');
    expect(manifest.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(manifest.json()).toEqual(JSON.parse(MANIFEST));
  });

  it('answers 304 to a browser that has the current file, and the new file after a rebuild', async () => {
    const first = await app.inject('/sdk/mp-loader.js');
    const etag = String(first.headers.etag);
    const again = await app.inject({ url: '/sdk/mp-loader.js', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expectCrossOriginHeaders(again.headers);
    await writeFile(join(sdkDir, 'mp-loader.js'), 'var MarketplaceWidget={rebuilt:true};');
    const rebuilt = await app.inject({ url: '/sdk/mp-loader.js', headers: { 'if-none-match': etag } });
    expect(rebuilt.statusCode).toBe(200);
    expect(rebuilt.body).toBe('var MarketplaceWidget={rebuilt:true};');
    expect(rebuilt.headers.etag).not.toBe(etag);
  });

  it('answers 503 with how to build it for an SDK file the build lacks', async () => {
    const response = await app.inject('/sdk/mp-widget.mjs');
    expect(response.statusCode).toBe(503);
    expect(response.body).toBe(SDK_NOT_BUILT_MESSAGE);
    expect(response.headers['cache-control']).toBe('no-store');
    expectCrossOriginHeaders(response.headers);
  });

  it('serves the chunks mp-loader.js imports cross-origin, kept a year since their names change with their content', async () => {
    const response = await app.inject({
      url: `/sdk/chunks/${CHUNK}`,
      headers: { origin: 'https://host.example' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(CHUNK_BODY);
    expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(response.headers['cache-control']).toBe(SDK_CHUNK_CACHE_CONTROL);
    expectCrossOriginHeaders(response.headers);
    // The loader itself is not hashed: it keeps the short cache, so a new build reaches pages within minutes.
    const loader = await app.inject('/sdk/mp-loader.js');
    expect(loader.headers['cache-control']).toBe(SDK_CACHE_CONTROL);
  });

  it('answers a chunk of another build, or any other name under chunks/, with 404', async () => {
    for (const url of [
      '/sdk/chunks/shared-Zz9_yy-1.js',
      '/sdk/chunks/notes.txt',
      '/sdk/chunks/..%2Fmp-widget.js',
      '/sdk/chunks/%2E%2E%2Fsecret.txt',
      '/sdk/chunks/shared.js',
    ]) {
      const response = await app.inject(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['cache-control'], url).toBe('no-store');
      expect(response.body, url).not.toContain('not for the web');
      expectCrossOriginHeaders(response.headers);
    }
  });

  it('sends brotli or gzip to a browser that accepts it, each with its own ETag', async () => {
    const plain = await app.inject(`/sdk/chunks/${CHUNK}`);
    const brotli = await app.inject({
      url: `/sdk/chunks/${CHUNK}`,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toBe('accept-encoding');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(CHUNK_BODY);
    expect(brotli.rawPayload.length).toBeLessThan(CHUNK_BODY.length / 3);
    const gzip = await app.inject({ url: '/sdk/mp-widget.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(WIDGET);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(new Set([plain.headers.etag, brotli.headers.etag]).size).toBe(2);
    const again = await app.inject({
      url: `/sdk/chunks/${CHUNK}`,
      headers: { 'accept-encoding': 'br', 'if-none-match': String(brotli.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    // The brotli ETag does not match the plain representation.
    const plainAgain = await app.inject({
      url: `/sdk/chunks/${CHUNK}`,
      headers: { 'if-none-match': String(brotli.headers.etag) },
    });
    expect(plainAgain.statusCode).toBe(200);
  });

  it('serves no other file of the folder, and nothing outside it', async () => {
    for (const url of ['/sdk/secret.txt', '/sdk/..%2Fpackage.json', '/sdk/%2E%2E%2Fsecret.txt']) {
      const response = await app.inject(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body).toContain('mp-widget.js');
      expect(response.body).not.toContain('not for the web');
    }
  });
});

describe('SDK hosting without a build', () => {
  it('says the SDK is not built', async () => {
    const app = Fastify();
    await app.register(sdkHosting, { sdkDir: join(tmpdir(), 'no-such-sdk-build-folder') });
    try {
      const response = await app.inject('/sdk/mp-widget.js');
      expect(response.statusCode).toBe(503);
      expect(response.body).toContain('run pnpm build');
    } finally {
      await app.close();
    }
  });
});

describe('SDK hosting in the marketplace application', () => {
  let context: ApiTestContext;
  beforeAll(async () => {
    context = await createApiTestContext({ env: { RESPONSE_CACHE_MS: '60000' } });
  }, 120_000);
  afterAll(async () => context?.close());

  it('serves /sdk/mp-widget.js from the elements build, or says how to make it', async () => {
    const built = existsSync(join(DEFAULT_SDK_DIR, 'mp-widget.js'));
    const response = await context.app.inject({
      url: '/sdk/mp-widget.js',
      headers: { origin: 'https://host.example' },
    });
    expectCrossOriginHeaders(response.headers);
    if (built) {
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(response.headers['cache-control']).toBe(SDK_CACHE_CONTROL);
      expect(response.rawPayload.equals(readFileSync(join(DEFAULT_SDK_DIR, 'mp-widget.js')))).toBe(true);
    } else {
      expect(response.statusCode).toBe(503);
      expect(response.body).toBe(SDK_NOT_BUILT_MESSAGE);
    }
  });
});
