import type * as FastifyModule from 'fastify';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createReviewsTestApp, type ReviewsTestApp } from '../reviews/reviews-test-app';

/*
 * Every HTML answer of the server carries the site's security headers, whichever route made it: the route
 * table of the real buildApp is walked (collected by an onRoute hook on the Fastify instance the moment it is
 * created), each GET route asked for as a browser asks, and every answer of type text/html checked. Pages made
 * to be framed (embeds, sandboxed webhelp) say so with their own frame-ancestors, never by leaving it out.
 */

const collected = vi.hoisted(() => ({ routes: [] as RouteOptions[] }));

vi.mock('fastify', async (importOriginal) => {
  const original = await importOriginal<typeof FastifyModule>();
  const createWithRouteTable = ((options?: Parameters<typeof original.default>[0]) => {
    const app = original.default(options) as unknown as FastifyInstance;
    app.addHook('onRoute', (route) => {
      collected.routes.push(route);
    });
    return app;
  }) as unknown as typeof original.default;
  return { ...original, default: createWithRouteTable, fastify: createWithRouteTable };
});

const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

function expectPageHeaders(headers: Record<string, unknown>, what: string): void {
  const policy = String(headers['content-security-policy'] ?? '');
  expect(policy, `${what}: Content-Security-Policy`).toMatch(/frame-ancestors [^;]+/);
  expect(headers['x-content-type-options'], `${what}: nosniff`).toBe('nosniff');
  expect(headers['referrer-policy'], `${what}: Referrer-Policy`).toBeDefined();
  // A page that may not be framed says so twice: CSP for today's browsers, X-Frame-Options for older ones.
  if (policy.includes("frame-ancestors 'none'")) expect(headers['x-frame-options'], what).toBe('DENY');
}

/** A path for a route pattern: parameters filled with a plausible value, wildcards with a file name. */
function pathOf(url: string): string {
  return url
    .split('/')
    .map((segment) => (segment === '*' ? 'index.html' : segment.startsWith(':') ? '1' : segment))
    .join('/');
}

describe('security headers of every HTML answer', () => {
  let t: ReviewsTestApp | undefined;

  beforeAll(async () => {
    // The answer cache on: a kept HTML answer must be replayed with its headers too.
    t = await createReviewsTestApp({ env: { RESPONSE_CACHE_MS: '60000' } });
  }, 120_000);
  afterAll(async () => t?.close());

  it('are on every GET route that answers HTML, asked for as a browser asks', async () => {
    const urls = new Set<string>();
    for (const route of collected.routes) {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (methods.includes('GET') && route.url) urls.add(route.url);
    }
    const htmlRoutes: string[] = [];
    for (const url of [...urls].sort()) {
      const path = pathOf(url);
      // Twice: the second answer may come from the answer cache.
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const response = await t!.app.inject({ method: 'GET', url: path, headers: BROWSER });
        if (!String(response.headers['content-type'] ?? '').startsWith('text/html')) continue;
        htmlRoutes.push(url);
        expectPageHeaders(response.headers, `GET ${path} (${url})`);
        if (url.startsWith('/embeddable/')) {
          // Embeds exist to be framed by any page: the filled-in headers must not take that away.
          expect(response.headers['content-security-policy']).toContain('frame-ancestors *');
          expect(response.headers['x-frame-options']).toBeUndefined();
        }
      }
    }
    // The walk reached the kinds of HTML page the server has, so the check above is not vacuous.
    expect(htmlRoutes).toEqual(
      expect.arrayContaining([
        '/',
        '/search',
        '/plugin/:item',
        '/embeddable/:type/:pluginId',
        '/oidc/interaction/:uid',
      ]),
    );
  }, 120_000);

  it('are on the home page a browser gets after another client has asked for the API overview', async () => {
    const app = t!.app;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (address === null || typeof address === 'string') throw new Error('not listening on a port');
    const home = `http://127.0.0.1:${address.port}/`;
    const overview = await fetch(home);
    expect(await overview.text()).toContain('Plugin Marketplace');
    const page = await fetch(home, { headers: BROWSER });
    expect(page.headers.get('content-type')).toContain('text/html');
    expectPageHeaders(Object.fromEntries(page.headers), 'GET / after the overview');
  });
});
