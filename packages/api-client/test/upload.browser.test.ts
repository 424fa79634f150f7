/**
 * Upload progress in a real browser: fetch cannot report it there, so the client must go through
 * XMLHttpRequest. Debian's Chromium loads the client (bundled from src) from a loopback page and uploads to
 * the same origin.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as ClientLibrary from '../src';
import { json, readForm, startHttpDouble, type HttpDouble } from './support/http-double';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const UPLOAD_BYTES = 16 * 1024 * 1024;

let double: HttpDouble;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('../src/index.ts', import.meta.url))],
    bundle: true,
    format: 'iife',
    globalName: 'MarketplaceApiClient',
    platform: 'browser',
    target: 'es2022',
    write: false,
  });
  const script = bundle.outputFiles[0]!.text;
  double = await startHttpDouble();
  double.on('/', (_request, response) =>
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><title>upload</title><script src="/client.js"></script>'),
  );
  double.on('/client.js', (_request, response) =>
    response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script),
  );
  double.on('/api/updates/upload', async (request, response) => {
    const form = await readForm(request);
    const file = form.get('file') as File;
    json(response, 200, {
      version: '2.0.0',
      fileName: file.name,
      size: file.size,
      channel: form.get('channel'),
      receivedBytes: request.body.byteLength,
      authorization: request.headers.authorization ?? null,
    });
  });
  double.on('/invalid', (_request, response) => json(response, 400, { errors: ['plugin.xml is missing'] }));
  double.on('/too-large', (_request, response) =>
    json(response, 413, { type: 'error', message: 'The archive is larger than 400 MB.' }),
  );
  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  page = await browser.newPage();
  await page.goto(double.origin);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await double?.close();
});

interface BrowserUpload {
  outcome: { ok: boolean; data?: Record<string, unknown>; result: unknown } | undefined;
  failure: { name: string; message: string; status?: number } | undefined;
  events: { loaded: number; total: number | undefined }[];
}

/** Uploads from the page; `abortAfterBytes` aborts once that much has been sent. */
function uploadInPage(path: string, abortAfterBytes?: number): Promise<BrowserUpload> {
  return page.evaluate(
    async ({ path, size, abortAfterBytes }) => {
      const library = (window as unknown as { MarketplaceApiClient: typeof ClientLibrary })
        .MarketplaceApiClient;
      const client = library.createApiClient({
        baseUrl: location.origin,
        getToken: () => 'perm:browser-token',
        // Proof that progress uploads do not go through fetch in a browser.
        fetch: () => Promise.reject(new Error('fetch must not be used for an upload with progress')),
      });
      const controller = new AbortController();
      const events: { loaded: number; total: number | undefined }[] = [];
      try {
        const outcome = await client.upload<Record<string, unknown>>(path, {
          file: new File([new Uint8Array(size)], 'big-plugin.zip', { type: 'application/zip' }),
          fields: { channel: 'beta' },
          signal: controller.signal,
          onProgress: (event) => {
            events.push(event);
            if (abortAfterBytes !== undefined && event.loaded >= abortAfterBytes) controller.abort();
          },
        });
        return { outcome, failure: undefined, events };
      } catch (error) {
        const { name, message, status } = error as { name: string; message: string; status?: number };
        return { outcome: undefined, failure: { name, message, status }, events };
      }
    },
    { path, size: UPLOAD_BYTES, abortAfterBytes },
  );
}

describe('uploads in Chromium', () => {
  it('report progress through XMLHttpRequest up to the whole body, and send the token', async () => {
    const { outcome, failure, events } = await uploadInPage('/api/updates/upload');
    expect(failure).toBeUndefined();
    expect(outcome?.ok).toBe(true);
    expect(outcome?.data).toMatchObject({
      fileName: 'big-plugin.zip',
      size: UPLOAD_BYTES,
      channel: 'beta',
      authorization: 'Bearer perm:browser-token',
    });
    const sent = outcome?.data?.['receivedBytes'] as number;
    expect(events.length).toBeGreaterThan(0);
    expect(events.at(-1)).toEqual({ loaded: sent, total: sent });
    const loaded = events.map((event) => event.loaded);
    expect(loaded).toEqual([...loaded].sort((a, b) => a - b));
  });

  it('read a 400 as the validation result and other statuses as an error with the status code', async () => {
    const invalid = await uploadInPage('/invalid');
    expect(invalid.outcome).toEqual({
      ok: false,
      result: { errors: ['plugin.xml is missing'], warnings: [], isErrorUnknown: false },
    });
    const tooLarge = await uploadInPage('/too-large');
    expect(tooLarge.failure).toEqual({
      name: 'ApiError',
      message: 'Status code 413: The archive is larger than 400 MB.',
      status: 413,
    });
  });

  it('read a relative base URL against the page address', async () => {
    const url = await page.evaluate(() => {
      const library = (window as unknown as { MarketplaceApiClient: typeof ClientLibrary })
        .MarketplaceApiClient;
      return library.createApiClient({ baseUrl: '/marketplace' }).url('/api/plugins/1');
    });
    expect(url).toBe(`${double.origin}/marketplace/api/plugins/1`);
  });

  it('stop when aborted', async () => {
    const { failure } = await uploadInPage('/api/updates/upload', 1);
    expect(failure?.name).toBe('AbortError');
  });
});
