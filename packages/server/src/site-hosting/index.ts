import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import { SITE_LINKS_META, type SiteLinks } from '@marketplace/api-contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { renderAuthMetaTags } from '../auth/config';
import type { AuthConfig } from '../auth/config';
import { hasConsentChoice, etagMatches as ifNoneMatch } from '../plugins/app/answer-cache';
import { identityOriginOf } from './identity-origin';
import { InlineStyleSheets, PAGE_STYLES_PREFIX } from './inline-styles';
import { escapeHtml, renderPageHead } from './page-head';
import { pageSecurityHeaders } from './security-headers';
import {
  applicationFetch,
  pageFiles,
  siteRenderer,
  type RenderedPage,
  type SiteRenderer,
} from './server-render';

export { default as htmlSecurityHeaders } from './html-security';
export { contentSecurityPolicy, pageSecurityHeaders } from './security-headers';

/** Where `pnpm --filter @marketplace/site build` puts the site. */
export const DEFAULT_SITE_DIR = fileURLToPath(new URL('../../../../site/dist', import.meta.url));

/** Where the site's HTML expects the server's head tags. */
const HEAD_MARKER = '<!--mp-head-->';
/** The element the site renders into (site/index.html). */
const ROOT_ELEMENT = '<div id="root"></div>';
/** Where the server serves the components' CSS of a server-rendered page (site/src/lib/ui-styles.ts). */
const UI_STYLES_PATH = '/assets/ui-styles.css';

/**
 * The public pages, rendered on the server (the site's entry-server) as a signed-out visitor sees them; the
 * other site routes (dashboard, admin, account, sign-in callback, embeds) stay rendered in the browser.
 */
export const SERVER_RENDERED_ROUTES = [
  '/search',
  '/plugin/:item',
  '/plugin/:item/:tab',
  '/plugin/:item/custom-pages/:page',
  '/author/:userId',
] as const;

/** A render that takes longer gives way to the page without content (the browser then loads it). */
const RENDER_TIMEOUT_MS = 15_000;
/**
 * Renders one node runs at once, by default. A render holds its place until it really ends, past its time-out
 * too (its loads cannot be called back); a page asked for while every place is taken goes out without
 * content at once. A flood of distinct addresses (each a render the answer cache cannot spare) then costs
 * this many renders at a time, not one per request.
 */
const DEFAULT_MAX_CONCURRENT_RENDERS = 4;

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
  // The marketplace's signing certificate and how to trust it in the IDE (src/trust).
  '/trust/certificate',
  '/auth/callback',
  '/embeddable/:type/:pluginId',
] as const;

export interface SiteHostingOptions {
  auth: AuthConfig;
  /** The footer's external links (config.siteLinks), given to the site in a meta tag; default: none. */
  links?: SiteLinks;
  /** The built site (default: site/dist of this repository). */
  siteDir?: string;
  /** Server renders running at once (DEFAULT_MAX_CONCURRENT_RENDERS); past it a page goes out without content. */
  maxConcurrentRenders?: number;
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
export function renderSitePage(
  template: string,
  auth: AuthConfig,
  links?: SiteLinks,
  extraHead = '',
): string {
  const head = renderAuthMetaTags(auth) + renderLinksMetaTag(links) + extraHead;
  // Replaced through functions: a `$` in the text must stay a `$` (String.replace reads patterns in strings).
  return template.includes(HEAD_MARKER)
    ? template.replace(HEAD_MARKER, () => head)
    : template.replace('</head>', () => `${head}\n</head>`);
}

/** The link to the components' stylesheet, so a page is styled before its script runs. */
function uiStylesLink(renderer: SiteRenderer | undefined): string {
  if (!renderer) return '';
  return `\n<link rel="stylesheet" id="mp-ui-styles" href="${UI_STYLES_PATH}?v=${renderer.styles.version}">`;
}

/**
 * A server-rendered page: the template with the page's own head (its title and description replace the
 * site's), its chunks preloaded and CSS linked, its markup in the root element and its data beside it.
 */
export function renderServerPage(
  template: string,
  page: RenderedPage,
  parts: {
    auth: AuthConfig;
    links: SiteLinks | undefined;
    requestUrl: string;
    styles: string;
    files: { scripts: string[]; styles: string[] };
    /** The stylesheet of the page's style attributes (inline-styles.ts). */
    inlineStyles?: string | undefined;
  },
): string {
  let html = template;
  let pageHead = '';
  if (page.head) {
    html = html.replace(/<title>[^<]*<\/title>\s*/, '').replace(/<meta name="description"[^>]*>\s*/, '');
    pageHead = `\n${renderPageHead(page.head, { publicUrl: parts.auth.publicUrl, requestUrl: parts.requestUrl })}`;
  }
  const files = [
    ...parts.files.styles.map((file) => `\n<link rel="stylesheet" crossorigin href="/${escapeHtml(file)}">`),
    ...(parts.inlineStyles ? [`\n<link rel="stylesheet" href="${escapeHtml(parts.inlineStyles)}">`] : []),
    ...parts.files.scripts.map(
      (file) => `\n<link rel="modulepreload" crossorigin href="/${escapeHtml(file)}">`,
    ),
  ].join('');
  html = renderSitePage(html, parts.auth, parts.links, `${pageHead}${parts.styles}${files}`);
  const body = `<div id="root">${page.html}</div>\n<script type="application/json" id="mp-page-data">${page.pageData}</script>`;
  return html.replace(ROOT_ELEMENT, () => body);
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
 * The public pages (home, search, item pages, author pages) arrive rendered, with their data, when the
 * site's server render is built (see SERVER_RENDERED_ROUTES); a public answer like the API's.
 */
export default fp(
  async function siteHosting(app: FastifyInstance, options: SiteHostingOptions) {
    const siteDir = resolve(options.siteDir ?? DEFAULT_SITE_DIR);
    const indexPath = join(siteDir, 'index.html');
    const built = existsSync(indexPath);
    if (!built) app.log.warn({ siteDir }, 'The site is not built; its pages explain how to build it.');
    // A rebuild of the site replaces index.html (new asset names): it is read again when it changes.
    let cached = built
      ? { mtimeMs: statSync(indexPath).mtimeMs, template: readFileSync(indexPath, 'utf8') }
      : undefined;
    const currentTemplate = (): string | undefined => {
      if (!cached) return undefined;
      try {
        const { mtimeMs } = statSync(indexPath);
        if (mtimeMs !== cached.mtimeMs) cached = { mtimeMs, template: readFileSync(indexPath, 'utf8') };
      } catch {
        // In the middle of a rebuild: the last page is still the best answer.
      }
      return cached.template;
    };
    const renderer = siteRenderer(app, siteDir);
    const maxConcurrentRenders = options.maxConcurrentRenders ?? DEFAULT_MAX_CONCURRENT_RENDERS;
    let rendersRunning = 0;
    const filesOf = pageFiles(siteDir);
    const fetchFromApp = applicationFetch(app, options.auth.publicUrl);
    const inlineStyles = new InlineStyleSheets();
    const identityOrigin = identityOriginOf(options.auth);
    const headers = pageSecurityHeaders({ identityOrigin, framable: false });
    const framableHeaders = pageSecurityHeaders({ identityOrigin, framable: true });

    const canonical = new URL(options.auth.publicUrl);
    /** The same server on another loopback name: sign-in returns to the public address only (see below). */
    function redirectedTwin(request: FastifyRequest, reply: FastifyReply): boolean {
      if (!isLoopbackTwin(request.headers.host, canonical)) return false;
      // Sign-in would fail with "redirect_uri did not match": the page is sent from the public address first.
      void reply.redirect(`${canonical.origin}${request.url}`, 308);
      return true;
    }

    /** The page without content: the browser renders it (every route that is not rendered here). */
    async function sendShell(request: FastifyRequest, reply: FastifyReply) {
      if (redirectedTwin(request, reply)) return reply;
      const path = request.url.split('?')[0] ?? '';
      const framable = path.startsWith('/embeddable/');
      const template = currentTemplate();
      const page = template
        ? renderSitePage(template, options.auth, options.links, uiStylesLink(await renderer()))
        : MISSING_BUILD_PAGE(siteDir);
      return (
        reply
          .code(template ? 200 : 503)
          .headers(framable ? framableHeaders : headers)
          // The HTML names the current asset files, so it is checked every time; the assets are immutable.
          .header('cache-control', 'no-cache')
          .type('text/html; charset=utf-8')
          .send(page)
      );
    }

    /** Renders the page as a signed-out visitor sees it; undefined when that cannot be done (then the shell). */
    async function renderPage(
      request: FastifyRequest,
    ): Promise<{ html: string; status: number } | undefined> {
      const template = currentTemplate();
      const site = template ? await renderer() : undefined;
      if (!template || !site) return undefined;
      if (rendersRunning >= maxConcurrentRenders) {
        request.log.warn(
          { url: request.url, rendersRunning },
          'Every server render is taken; the page is sent without content.',
        );
        return undefined;
      }
      let timer: NodeJS.Timeout | undefined;
      try {
        const rendering = site.render({
          url: request.url,
          publicUrl: options.auth.publicUrl,
          links: options.links ?? { social: [] },
          // A visitor without a choice gets the page with the consent banner already in it (the answer
          // cache keeps the two kinds of page apart by the same test).
          askConsent: !hasConsentChoice(request.headers),
          fetch: fetchFromApp,
          timeoutMs: RENDER_TIMEOUT_MS,
          onError: (error) =>
            request.log.error(
              { err: error, url: request.url },
              'The page met an error while rendering; sent without content.',
            ),
        });
        rendersRunning += 1;
        const release = () => {
          rendersRunning -= 1;
        };
        rendering.then(release, release);
        const page = await Promise.race([
          rendering,
          new Promise<undefined>((done) => {
            timer = setTimeout(() => {
              request.log.warn(
                { url: request.url },
                'The page took too long to render; sent without content.',
              );
              done(undefined);
            }, RENDER_TIMEOUT_MS);
          }),
        ]);
        if (!page) return undefined;
        const styled = inlineStyles.extract(page.html);
        const html = renderServerPage(
          template,
          { ...page, html: styled.html },
          {
            auth: options.auth,
            links: options.links,
            requestUrl: request.url,
            styles: uiStylesLink(site),
            files: filesOf(page.modules),
            inlineStyles: styled.sheet,
          },
        );
        return { html, status: page.status };
      } catch (error) {
        request.log.error(
          { err: error, url: request.url },
          'The page could not be rendered; sent without content.',
        );
        return undefined;
      } finally {
        clearTimeout(timer);
      }
    }

    /**
     * A public page, rendered. The same for every visitor (rendered signed out; a signed-in visitor's own
     * parts are filled in by the browser), so the route is a public answer: ETag, the API's Cache-Control, kept
     * and replayed by the answer cache and forgotten with it on every catalogue change (plugins/app/caching.ts).
     */
    async function sendRendered(request: FastifyRequest, reply: FastifyReply) {
      if (redirectedTwin(request, reply)) return reply;
      const page = await renderPage(request);
      if (!page) return sendShell(request, reply);
      return reply.code(page.status).headers(headers).type('text/html; charset=utf-8').send(page.html);
    }

    /**
     * The home page as rendered last, for visitors with and without a consent choice (the only difference
     * between its renders: it is always drawn signed out). Kept while the answer cache's generation lasts and
     * no longer than its answers, so a catalogue change or a cache flush shows at once; a render that began
     * before a change is not kept. Without it every visit to / would render the page again.
     */
    const homePages = new Map<
      boolean,
      { html: string; status: number; etag: string; clears: number; madeAt: number }
    >();
    let homeHits = 0;
    let homeMisses = 0;
    const cacheGeneration = () =>
      app.hasDecorator('cachedAnswersGeneration') ? app.cachedAnswersGeneration() : { clears: 0, ttlMs: 0 };
    async function homePage(
      request: FastifyRequest,
    ): Promise<{ html: string; status: number; etag: string } | undefined> {
      const askConsent = !hasConsentChoice(request.headers);
      const before = cacheGeneration();
      const kept = homePages.get(askConsent);
      if (kept && kept.clears === before.clears && Date.now() - kept.madeAt < before.ttlMs) {
        homeHits++;
        return kept;
      }
      const page = await renderPage(request);
      if (!page) return undefined;
      const made = { ...page, etag: `"${createHash('sha1').update(page.html).digest('base64url')}"` };
      if (page.status === 200 && before.ttlMs > 0 && cacheGeneration().clears === before.clears) {
        homeMisses++;
        homePages.set(askConsent, { ...made, clears: before.clears, madeAt: Date.now() });
      }
      return made;
    }
    if (app.hasDecorator('caches'))
      app.caches.register({
        name: 'home-page',
        description:
          'The rendered home page, with and without the consent banner, kept as long as the answer cache keeps answers and forgotten with them.',
        statistics: () => ({
          entries: homePages.size,
          bytes: [...homePages.values()].reduce((sum, page) => sum + Buffer.byteLength(page.html), 0),
          builtAt: null,
          hits: homeHits,
          misses: homeMisses,
        }),
        flush: () => homePages.clear(),
        reload: async () => homePages.clear(),
      });

    // The home page: an earlier plugin answers GET / with an overview of the API. Browsers (which ask for
    // HTML by name) get the site there; other clients keep the overview.
    if (built) {
      app.addHook('onRequest', async (request, reply) => {
        if (request.method !== 'GET' && request.method !== 'HEAD') return;
        if (request.url.split('?')[0] !== '/' || !String(request.headers.accept ?? '').includes('text/html'))
          return;
        if (redirectedTwin(request, reply)) return reply;
        const page = await homePage(request);
        if (!page) return sendShell(request, reply);
        // Not in the answer cache, which knows answers by address alone and / is also the API's overview:
        // kept beside it (homePage) and revalidated by ETag.
        const etag = page.etag;
        reply.headers(headers).header('vary', 'accept, accept-encoding').header('etag', etag);
        reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8');
        if (page.status === 200 && ifNoneMatch(request.headers['if-none-match'], etag))
          return reply.code(304).send();
        return reply.code(page.status).send(page.html);
      });
    }

    const rendered = new Set<string>(SERVER_RENDERED_ROUTES);
    for (const route of SITE_ROUTES) {
      if (rendered.has(route))
        app.get(route, { schema: { hide: true }, config: { cache: 'public' } }, sendRendered);
      else app.get(route, { schema: { hide: true } }, sendShell);
    }

    if (!built) return;
    // The components' CSS of the site's render, as a file (the CSP allows no inline style); the link names
    // its version, so it is kept for a year.
    app.get(UI_STYLES_PATH, { schema: { hide: true } }, async (_request, reply) => {
      const site = await renderer();
      if (!site)
        return reply.code(404).type('text/plain; charset=utf-8').send('The site server render is not built.');
      return reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .type('text/css; charset=utf-8')
        .send(site.styles.css);
    });
    // A wildcard, not a parameter: a sheet's name is its content, longer than the router's parameter limit.
    app.get<{ Params: { '*': string } }>(
      `${PAGE_STYLES_PREFIX}*`,
      { schema: { hide: true } },
      async (request, reply) => {
        const name = /^([\w-]+)\.css$/.exec(request.params['*'])?.[1];
        const css = name === undefined ? undefined : inlineStyles.get(name);
        if (css === undefined)
          return reply.code(404).type('text/plain; charset=utf-8').send('No such stylesheet.');
        return reply
          .header('cache-control', 'public, max-age=31536000, immutable')
          .type('text/css; charset=utf-8')
          .send(css);
      },
    );
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
