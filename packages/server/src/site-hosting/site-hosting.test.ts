import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authConfigFromEnv } from '../auth/config';
import { ConfigError, loadConfig } from '../config';
import { SITE_LINKS_META } from '@marketplace/api-contract';
import siteHosting from './index';

const TEMPLATE = `<!doctype html><html><head><title>Marketplace</title><!--mp-head--></head>
<body><div id="root"></div><script type="module" src="/assets/index-abc.js"></script></body></html>`;

describe('site hosting', () => {
  let siteDir: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    siteDir = await mkdtemp(join(tmpdir(), 'site-hosting-'));
    await mkdir(join(siteDir, 'assets'));
    await writeFile(join(siteDir, 'index.html'), TEMPLATE);
    await writeFile(join(siteDir, 'assets', 'index-abc.js'), 'console.log("site")');
    await writeFile(join(siteDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    app = Fastify();
    // The routes the site must never shadow, as the real server has them.
    app.get('/', async () => 'api overview');
    app.get('/api/plugins/:id', async () => ({ id: 1 }));
    app.get('/plugin/download', async () => 'file');
    app.get('/plugins/list', async () => '<plugins/>');
    const auth = authConfigFromEnv({}, { publicUrl: 'https://market.example', dataDir: siteDir });
    await app.register(siteHosting, { auth, siteDir });
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
    await rm(siteDir, { recursive: true, force: true });
  });

  it('answers site routes with the built page and the identity service in meta tags', async () => {
    const home = await app.inject({ url: '/', headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(home.body).toContain('mp-auth-issuer');
    // Clients that do not ask for HTML keep the server's own overview at /.
    expect((await app.inject({ url: '/' })).body).toBe('api overview');
    for (const url of [
      '/search?search=git',
      '/plugin/12-git-tools',
      '/plugin/12-git-tools/reviews',
      '/author/3',
      '/dashboard/new',
      '/dashboard/plugin/12/selling',
      '/account/licenses',
    ]) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('<meta name="mp-auth-issuer" content="https://market.example/oidc">');
      expect(response.body).toContain('<meta name="mp-auth-client-id"');
      expect(response.body).not.toContain('<!--mp-head-->');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it('leaves the API, the feeds and downloads to their own routes', async () => {
    expect((await app.inject({ url: '/api/plugins/1' })).json()).toEqual({ id: 1 });
    expect((await app.inject({ url: '/plugin/download' })).body).toBe('file');
    expect((await app.inject({ url: '/plugins/list' })).body).toBe('<plugins/>');
    expect((await app.inject({ url: '/api/unknown' })).statusCode).toBe(404);
  });

  it('refuses framing of every page but the embed pages, with a CSP that allows no inline script', async () => {
    const page = await app.inject({ url: '/plugin/12-git-tools' });
    expect(page.headers['x-frame-options']).toBe('DENY');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');

    const embed = await app.inject({ url: '/embeddable/card/12' });
    expect(embed.statusCode).toBe(200);
    expect(embed.headers['x-frame-options']).toBeUndefined();
    expect(String(embed.headers['content-security-policy'])).toContain('frame-ancestors *');
  });

  it('serves hashed assets for a year and root files of the build', async () => {
    const asset = await app.inject({ url: '/assets/index-abc.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const icon = await app.inject({ url: '/favicon.svg' });
    expect(icon.headers['content-type']).toContain('image/svg+xml');
    expect((await app.inject({ url: '/assets/../index.html' })).body).not.toContain('console.log');
    expect((await app.inject({ url: '/assets/missing.js' })).statusCode).toBe(404);
  });

  it('explains how to build the site when it is not built', async () => {
    const bare = Fastify();
    const emptyDir = await mkdtemp(join(tmpdir(), 'site-missing-'));
    try {
      const auth = authConfigFromEnv({}, { publicUrl: 'https://market.example', dataDir: emptyDir });
      await bare.register(siteHosting, { auth, siteDir: emptyDir });
      const response = await bare.inject({ url: '/search' });
      expect(response.statusCode).toBe(503);
      expect(response.body).toContain('pnpm build');
    } finally {
      await bare.close();
      await rm(emptyDir, { recursive: true, force: true });
    }
  });
});

describe("the footer's external links", () => {
  /** The links the served page hands the site, as the site reads them (JSON in one meta tag). */
  function linksOf(body: string): unknown {
    const match = new RegExp(`<meta name="${SITE_LINKS_META}" content="([^"]*)">`).exec(body);
    if (!match) return undefined;
    const text = match[1]!.replace(/&#(\d+);/g, (_all, code: string) => String.fromCharCode(Number(code)));
    return JSON.parse(text);
  }

  async function pageWith(env: Record<string, string>): Promise<string> {
    const siteDir = await mkdtemp(join(tmpdir(), 'site-hosting-links-'));
    await writeFile(join(siteDir, 'index.html'), TEMPLATE);
    const config = loadConfig({ PUBLIC_URL: 'https://market.example', ...env }, [], siteDir);
    const app = Fastify();
    try {
      await app.register(siteHosting, { auth: config.auth, links: config.siteLinks, siteDir });
      const response = await app.inject({ url: '/search' });
      expect(response.statusCode).toBe(200);
      return response.body;
    } finally {
      await app.close();
      await rm(siteDir, { recursive: true, force: true });
    }
  }

  it('hands the operator’s settings to the site page, leaving unset and empty ones out', async () => {
    const body = await pageWith({
      SOCIAL_LINKS: 'X=https://x.com/acme, YouTube channel=https://youtube.com/@acme?a=1&b="2"',
      BLOG_URL: 'https://blog.acme.example/',
      VIDEO_PLAYLIST_URL: '',
      ISSUE_TRACKER_URL: 'https://issues.acme.example/MP',
      FORUM_URL: '  ',
      PRIVACY_URL: 'https://acme.example/privacy',
      SUPPORT_EMAIL: 'support@acme.example',
    });
    expect(body).toContain('mp-auth-issuer');
    expect(linksOf(body)).toEqual({
      social: [
        { label: 'X', url: 'https://x.com/acme' },
        { label: 'YouTube channel', url: 'https://youtube.com/@acme?a=1&b=%222%22' },
      ],
      blog: 'https://blog.acme.example/',
      issueTracker: 'https://issues.acme.example/MP',
      privacy: 'https://acme.example/privacy',
      supportEmail: 'support@acme.example',
    });
  });

  it('gives no links when none is set', async () => {
    const body = await pageWith({});
    expect(body).toContain('mp-auth-issuer');
    expect(body).not.toContain(SITE_LINKS_META);
  });

  it('refuses a setting that is not an address, naming it', () => {
    const load = (env: Record<string, string>) => () => loadConfig(env, [], '/srv');
    expect(load({ BLOG_URL: 'javascript:alert(1)' })).toThrow(ConfigError);
    expect(load({ BLOG_URL: 'javascript:alert(1)' })).toThrow(/BLOG_URL/);
    expect(load({ SUPPORT_EMAIL: 'not an address' })).toThrow(/SUPPORT_EMAIL/);
    expect(load({ SOCIAL_LINKS: 'https://x.com/acme' })).toThrow(/SOCIAL_LINKS/);
    expect(load({ SOCIAL_LINKS: 'X=ftp://x.com/acme' })).toThrow(/SOCIAL_LINKS/);
  });
});

describe('the same server under another loopback name', () => {
  it('sends pages from the public address, where sign-in returns, and leaves every other host alone', async () => {
    const siteDir = await mkdtemp(join(tmpdir(), 'site-hosting-twin-'));
    await writeFile(join(siteDir, 'index.html'), TEMPLATE);
    const app = Fastify();
    try {
      const auth = authConfigFromEnv({}, { publicUrl: 'http://localhost:8080', dataDir: siteDir });
      await app.register(siteHosting, { auth, siteDir });
      const moved = await app.inject({ url: '/search?search=git', headers: { host: '127.0.0.1:8080' } });
      expect(moved.statusCode).toBe(308);
      expect(moved.headers.location).toBe('http://localhost:8080/search?search=git');
      expect((await app.inject({ url: '/search', headers: { host: '[::1]:8080' } })).statusCode).toBe(308);
      for (const host of ['localhost:8080', '127.0.0.1:9090', 'plugins.example.com']) {
        expect((await app.inject({ url: '/search', headers: { host } })).statusCode, host).toBe(200);
      }
    } finally {
      await app.close();
      await rm(siteDir, { recursive: true, force: true });
    }
  });
});

/**
 * A built site whose server render is a stand-in (the site's render is a boundary of its own): `render` is the
 * module's source after the UI_STYLES every render exports.
 */
async function siteWithServerRender(prefix: string, render: string): Promise<string> {
  const siteDir = await mkdtemp(join(tmpdir(), prefix));
  await writeFile(join(siteDir, 'index.html'), TEMPLATE);
  await mkdir(join(siteDir, 'server'));
  await writeFile(join(siteDir, 'server', 'entry-server.js'), `export const UI_STYLES = '.mp{}';\n${render}`);
  return siteDir;
}

describe('server renders at once', () => {
  it('sends a page without content while every render is taken, and renders again once one ends', async () => {
    // Each render waits until the test lets it end, as a slow one would.
    const siteDir = await siteWithServerRender(
      'site-hosting-renders-',
      `const held = (globalThis.heldSiteRenders = globalThis.heldSiteRenders ?? []);
export async function render(request) {
  await new Promise((resolve) => held.push(resolve));
  return { status: 200, html: '<p>Rendered ' + request.url + '</p>', head: undefined, pageData: '{}', modules: [] };
}
`,
    );
    const held = ((globalThis as { heldSiteRenders?: (() => void)[] }).heldSiteRenders ??= []);
    const app = Fastify();
    try {
      const auth = authConfigFromEnv({}, { publicUrl: 'https://market.example', dataDir: siteDir });
      await app.register(siteHosting, { auth, siteDir, maxConcurrentRenders: 2 });
      const ask = (url: string) => app.inject({ url, headers: { accept: 'text/html' } });
      const first = ask('/plugin/1-one');
      const second = ask('/plugin/2-two');
      await expect.poll(() => held.length).toBe(2);

      // Both places are taken: the third page goes out at once, as the shell the browser renders.
      const third = await ask('/plugin/3-three');
      expect(third.statusCode).toBe(200);
      expect(third.body).toContain('<div id="root"></div>');
      expect(third.body).not.toContain('Rendered');
      expect(third.headers['cache-control']).toBe('no-cache');
      expect(held).toHaveLength(2);

      for (const release of held.splice(0)) release();
      expect((await first).body).toContain('<p>Rendered /plugin/1-one</p>');
      expect((await second).body).toContain('<p>Rendered /plugin/2-two</p>');

      // The places are free again.
      const fourth = ask('/plugin/4-four');
      await expect.poll(() => held.length).toBe(1);
      for (const release of held.splice(0)) release();
      expect((await fourth).body).toContain('<p>Rendered /plugin/4-four</p>');
    } finally {
      for (const release of held.splice(0)) release();
      await app.close();
      await rm(siteDir, { recursive: true, force: true });
    }
  });
});

describe('a server render that meets an error', () => {
  it('sends the page without content and logs the error with the page’s address', async () => {
    // A page that fails to draw: the render tells onError and gives no page.
    const siteDir = await siteWithServerRender(
      'site-hosting-failed-',
      `export async function render(request) {
  request.onError?.(new TypeError('The rating of the item is missing.'));
  return undefined;
}
`,
    );
    const lines: string[] = [];
    const app = Fastify({
      logger: { level: 'error', stream: { write: (line: string) => lines.push(line) } },
    });
    try {
      const auth = authConfigFromEnv({}, { publicUrl: 'https://market.example', dataDir: siteDir });
      await app.register(siteHosting, { auth, siteDir });
      const page = await app.inject({ url: '/plugin/1-one', headers: { accept: 'text/html' } });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<div id="root"></div>');
      expect(page.headers['cache-control']).toBe('no-cache');
      const logged = lines.map((line) => JSON.parse(line) as { url?: string; err?: { message: string } });
      expect(logged).toContainEqual(
        expect.objectContaining({
          url: '/plugin/1-one',
          err: expect.objectContaining({ message: 'The rating of the item is missing.' }),
        }),
      );
    } finally {
      await app.close();
      await rm(siteDir, { recursive: true, force: true });
    }
  });
});
