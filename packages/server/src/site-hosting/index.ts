import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import { SITE_LINKS_META, type SiteLinks } from '@marketplace/api-contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { renderAuthMetaTags } from '../auth/config';
import type { AuthConfig } from '../auth/config';
import { identityOriginOf } from './identity-origin';
import { pageSecurityHeaders } from './security-headers';

export { default as htmlSecurityHeaders } from './html-security';
export { contentSecurityPolicy, pageSecurityHeaders } from './security-headers';

/** Where `pnpm --filter @marketplace/site build` puts the site. */
export const DEFAULT_SITE_DIR = fileURLToPath(new URL('../../../../site/dist', import.meta.url));

/** Where the site's HTML expects the server's head tags. */
const HEAD_MARKER = '<!--mp-head-->';

/**
 * The site's routes. Everything else (the API, /oidc, the IDE feeds, /plugin/download, the SDK files) keeps its
 * own routes: Fastify prefers a static segment such as /plugin/download over the parametric /plugin/:item.
 */
export const SITE_ROUTES = [
  '/search',
  '/plugin/:item',
  '/plugin/:item/:tab',
  '/plugin/:item/custom-pages/:page',
  '/author/:userId',
  '/dashboard',
  '/dashboard/*',
  '/admin',
  '/admin/*',
  '/account/*',
  '/auth/callback',
  '/embeddable/:type/:pluginId',
] as const;

export interface SiteHostingOptions {
  auth: AuthConfig;
  /** The footer's external links (config.siteLinks), given to the site in a meta tag; default: none. */
  links?: SiteLinks;
  /** The built site (default: site/dist of this repository). */
  siteDir?: string;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether `host` names this machine's loopback with the public URL's port, under another name than it. */
export function isLoopbackTwin(host: string | undefined, publicUrl: URL): boolean {
  if (host === undefined || !LOOPBACK_NAMES.has(publicUrl.hostname)) return false;
  let asked: URL;
  try {
    asked = new URL(`${publicUrl.protocol}//${host}`);
  } catch {
    return false;
  }
  return (
    LOOPBACK_NAMES.has(asked.hostname) &&
    asked.hostname !== publicUrl.hostname &&
    asked.port === publicUrl.port
  );
}

/** The meta tag the site reads its footer's links from (site/src/lib/site-links.ts): JSON, set links only. */

function renderLinksMetaTag(links: SiteLinks | undefined): string {
  if (!links) return '';
  const set = Object.fromEntries(
    Object.entries(links).filter(([, value]) => (Array.isArray(value) ? value.length > 0 : Boolean(value))),
  );
  if (Object.keys(set).length === 0) return '';
  return `\n<meta name="${SITE_LINKS_META}" content="${escapeHtml(JSON.stringify(set))}">`;
}

/**
 * The page every site route answers: the built index.html with the identity service's meta tags and the
 * footer's links.
 */
export function renderSitePage(template: string, auth: AuthConfig, links?: SiteLinks): string {
  const head = renderAuthMetaTags(auth) + renderLinksMetaTag(links);
  return template.includes(HEAD_MARKER)
    ? template.replace(HEAD_MARKER, head)
    : template.replace('</head>', `${head}\n</head>`);
}

const MISSING_BUILD_PAGE = (siteDir: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Marketplace</title></head>
<body><h1>The marketplace site is not built</h1>
<p>Run <code>pnpm build</code> (or <code>pnpm --filter @marketplace/site build</code>) and restart the server.
It looks for the site in <code>${escapeHtml(siteDir)}</code>.</p></body></html>
`;

/**
 * Serves the built marketplace site: its hashed assets (cached for a year), and its HTML for every site route
 * with the sign-in meta tags and the security headers (no framing except /embeddable/*, no inline script).
 */
export default fp(
  async function siteHosting(app: FastifyInstance, options: SiteHostingOptions) {
    const siteDir = resolve(options.siteDir ?? DEFAULT_SITE_DIR);
    const indexPath = join(siteDir, 'index.html');
    const built = existsSync(indexPath);
    if (!built) app.log.warn({ siteDir }, 'The site is not built; its pages explain how to build it.');
    const render = () => renderSitePage(readFileSync(indexPath, 'utf8'), options.auth, options.links);
    // A rebuild of the site replaces index.html (new asset names): it is read again when it changes.
    let cached = built ? { mtimeMs: statSync(indexPath).mtimeMs, page: render() } : undefined;
    const currentPage = (): string => {
      if (!cached) return MISSING_BUILD_PAGE(siteDir);
      try {
        const { mtimeMs } = statSync(indexPath);
        if (mtimeMs !== cached.mtimeMs) cached = { mtimeMs, page: render() };
      } catch {
        // In the middle of a rebuild: the last page is still the best answer.
      }
      return cached.page;
    };
    const identityOrigin = identityOriginOf(options.auth);
    const headers = pageSecurityHeaders({ identityOrigin, framable: false });
    const framableHeaders = pageSecurityHeaders({ identityOrigin, framable: true });

    const canonical = new URL(options.auth.publicUrl);
    function sendPage(request: FastifyRequest, reply: FastifyReply) {
      // The same server on another loopback name (127.0.0.1 for localhost): sign-in returns to the public
      // address only, so the page is sent from there first rather than failing at "redirect_uri did not match".
      if (isLoopbackTwin(request.headers.host, canonical)) {
        return reply.redirect(`${canonical.origin}${request.url}`, 308);
      }
      const path = request.url.split('?')[0] ?? '';
      const framable = path.startsWith('/embeddable/');
      return (
        reply
          .code(built ? 200 : 503)
          .headers(framable ? framableHeaders : headers)
          // The HTML names the current asset files, so it is checked every time; the assets are immutable.
          .header('cache-control', 'no-cache')
          .type('text/html; charset=utf-8')
          .send(currentPage())
      );
    }

    // The home page: an earlier plugin answers GET / with an overview of the API. Browsers (which ask for
    // HTML by name) get the site there; other clients keep the overview.
    if (built) {
      app.addHook('onRequest', async (request, reply) => {
        if (request.method !== 'GET' && request.method !== 'HEAD') return;
        if (request.url.split('?')[0] !== '/' || !String(request.headers.accept ?? '').includes('text/html'))
          return;
        return sendPage(request, reply);
      });
    }

    for (const route of SITE_ROUTES) app.get(route, { schema: { hide: true } }, sendPage);

    if (!built) return;
    const assetsDir = join(siteDir, 'assets');
    if (existsSync(assetsDir)) {
      await app.register(fastifyStatic, {
        root: assetsDir,
        prefix: '/assets/',
        decorateReply: false,
        index: false,
        immutable: true,
        maxAge: '365d',
        cacheControl: true,
      });
    }
    // Files the site keeps at its root (the icon): a fixed list read at start, never a path from the request.
    for (const name of readdirSync(siteDir)) {
      const file = join(siteDir, name);
      if (name === 'index.html' || !statSync(file).isFile()) continue;
      const body = readFileSync(file);
      const type = name.endsWith('.svg')
        ? 'image/svg+xml'
        : name.endsWith('.txt')
          ? 'text/plain'
          : 'application/octet-stream';
      app.get(`/${name}`, { schema: { hide: true } }, (_request, reply) =>
        reply.header('cache-control', 'public, max-age=3600').type(type).send(body),
      );
    }
  },
  { name: 'site-hosting', fastify: '5.x' },
);
