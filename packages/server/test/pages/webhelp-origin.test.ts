import type { CustomPageBody } from '@marketplace/api-contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseWebhelpOrigin } from '../../src/pages';
import { createReviewsTestApp, type ReviewsTestApp } from '../reviews/reviews-test-app';
import { addPeople, addPlugin, json, uploadRequest, webhelpZip } from './pages-fixture';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

describe('webhelp on a separate origin (WEBHELP_ORIGIN)', () => {
  let t: ReviewsTestApp;
  let pluginId: number;
  let ownerId: number;
  let pageId: number;

  beforeAll(async () => {
    process.env.WEBHELP_ORIGIN = 'https://webhelp.example.net/';
    try {
      t = await createReviewsTestApp({ catalogue: false });
    } finally {
      delete process.env.WEBHELP_ORIGIN;
    }
    const people = await addPeople(t);
    ownerId = people.owner;
    pluginId = await addPlugin(t, people.owner);
    const base = `/api/plugins/${pluginId}/custom-pages`;
    const page = json<CustomPageBody>(
      await t.call(people.owner, { method: 'POST', url: base, payload: { name: 'Manual', type: 'webhelp' } }),
    );
    const uploaded = await t.call(
      people.owner,
      uploadRequest(`${base}/${page.id}/webhelp`, { name: 'manual.zip', content: webhelpZip() }, 'PUT'),
    );
    expect(json<CustomPageBody>(uploaded).webhelpUrl).toBe(
      `https://webhelp.example.net/webhelp/${pluginId}/manual/`,
    );
    await t.call(people.owner, { method: 'POST', url: `${base}/${page.id}/publish` });
    pageId = page.id;
  });
  afterAll(async () => t?.close());

  it('sends visitors of the marketplace’s host to the webhelp origin', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/webhelp/${pluginId}/manual/topics/install.html`,
      headers: { host: 'plugins.example.com' },
    });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(
      `https://webhelp.example.net/webhelp/${pluginId}/manual/topics/install.html`,
    );
  });

  it('serves it there, confined to its prefix of that origin', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/webhelp/${pluginId}/manual/`,
      headers: { host: 'webhelp.example.net' },
    });
    expect(response.statusCode).toBe(200);
    const policy = String(response.headers['content-security-policy']);
    expect(policy).toContain(`default-src https://webhelp.example.net/webhelp/${pluginId}/manual/;`);
    expect(policy).toMatch(/sandbox allow-scripts allow-popups allow-same-origin allow-forms$/);
  });

  it('gives previews on that origin too, with the same rules', async () => {
    const minted = await t.call(ownerId, {
      method: 'POST',
      url: `/api/plugins/${pluginId}/custom-pages/${pageId}/webhelp/preview`,
    });
    const { url } = minted.json() as { url: string };
    expect(url).toMatch(/^https:\/\/webhelp\.example\.net\/webhelp\/preview\/[\w-]{43}\/$/);
    const path = new URL(url).pathname;
    const elsewhere = await t.app.inject({
      method: 'GET',
      url: path,
      headers: { host: 'plugins.example.com' },
    });
    expect(elsewhere.statusCode).toBe(302);
    expect(elsewhere.headers.location).toBe(url);
    const there = await t.app.inject({ method: 'GET', url: path, headers: { host: 'webhelp.example.net' } });
    expect(there.statusCode).toBe(200);
    const policy = String(there.headers['content-security-policy']);
    expect(policy).toContain(`default-src ${url};`);
    expect(policy).toMatch(/sandbox allow-scripts allow-popups allow-same-origin allow-forms$/);
  });

  it('documents the routes in the OpenAPI document', async () => {
    const document = (await t.app.inject('/api/openapi.json')).json() as { paths: Record<string, unknown> };
    const paths = Object.keys(document.paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/plugins/{id}/custom-pages',
        '/api/plugins/{id}/custom-pages/{pageId}/webhelp',
        '/api/plugins/{id}/custom-pages/published/{url}',
      ]),
    );
    expect(paths.some((path) => path.startsWith('/webhelp/'))).toBe(true);
  });

  it('takes an origin only', () => {
    expect(parseWebhelpOrigin(' https://docs.example.com ')).toBe('https://docs.example.com');
    expect(parseWebhelpOrigin('')).toBeUndefined();
    expect(() => parseWebhelpOrigin('ftp://docs.example.com')).toThrow(/WEBHELP_ORIGIN/);
    expect(() => parseWebhelpOrigin('https://docs.example.com/path')).toThrow(/no path/);
  });
});
