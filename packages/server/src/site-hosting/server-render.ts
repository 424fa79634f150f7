import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SiteLinks } from '@marketplace/api-contract';
import type { FastifyInstance } from 'fastify';
import type { PageHead } from './page-head';

/** The site's server render (site/src/entry-server.tsx, built to `<siteDir>/server/entry-server.js`). */
export interface RenderRequest {
  url: string;
  publicUrl: string;
  links: SiteLinks;
  /** The request carries no consent choice: the page is drawn with the consent banner. */
  askConsent?: boolean;
  fetch: typeof fetch;
  /** Told of each error the render met; it then gives no page (the page goes out without content). */
  onError?: (error: unknown) => void;
  /** How long the render may take in all: it stops its work then too. */
  timeoutMs: number;
}

export interface RenderedPage {
  status: number;
  html: string;
  head: PageHead | undefined;
  pageData: string;
  modules: string[];
}

interface ServerRenderModule {
  render(request: RenderRequest): Promise<RenderedPage | undefined>;
  UI_STYLES: string;
}

/** The site's render, with the components' CSS it serves as a stylesheet. */
export interface SiteRenderer {
  render(request: RenderRequest): Promise<RenderedPage | undefined>;
  styles: { css: string; version: string };
}

function isRenderModule(value: unknown): value is ServerRenderModule {
  const candidate = value as Partial<ServerRenderModule> | null;
  return typeof candidate?.render === 'function' && typeof candidate.UI_STYLES === 'string';
}

/** A file read again when it changes (a rebuild of the site), or undefined while it is absent. */
function followFile<T>(file: string, read: (file: string, mtimeMs: number) => T): () => T | undefined {
  let held: { mtimeMs: number; value: T } | undefined;
  return () => {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(file).mtimeMs;
    } catch {
      return undefined;
    }
    if (held?.mtimeMs !== mtimeMs) held = { mtimeMs, value: read(file, mtimeMs) };
    return held.value;
  };
}

/**
 * The site's server render, loaded from the build when it is there (and again when a rebuild replaces it):
 * undefined without it (a development checkout that built only the browser's files), and the pages are
 * then sent without content, as before.
 */
export function siteRenderer(app: FastifyInstance, siteDir: string): () => Promise<SiteRenderer | undefined> {
  const entry = join(siteDir, 'server', 'entry-server.js');
  const current = followFile(entry, (file, mtimeMs) =>
    // A new build is a new module: the address names its time, so Node's module cache does not keep the old one.
    import(`${pathToFileURL(file).href}?built=${mtimeMs}`).then(
      (module: unknown): SiteRenderer | undefined => {
        if (!isRenderModule(module)) {
          app.log.error({ entry }, 'The site server render does not export render and UI_STYLES.');
          return undefined;
        }
        const version = createHash('sha1').update(module.UI_STYLES).digest('base64url').slice(0, 12);
        return { render: module.render, styles: { css: module.UI_STYLES, version } };
      },
      (error: unknown) => {
        app.log.error(
          { err: error, entry },
          'The site server render could not be loaded; pages go out without content.',
        );
        return undefined;
      },
    ),
  );
  return () => current() ?? Promise.resolve(undefined);
}

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
}

/**
 * The files a page module needs, from the build's manifest (dist/.vite/manifest.json): its chunk and the
 * chunks it imports, to preload, and their CSS, to link, so the page is styled at first paint (a lazily
 * loaded page's CSS otherwise arrives with its script) and hydrates without waiting for one file after another.
 */
export function pageFiles(
  siteDir: string,
): (modules: readonly string[]) => { scripts: string[]; styles: string[] } {
  const manifest = followFile(join(siteDir, '.vite', 'manifest.json'), (file) => {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as Record<string, ManifestChunk>;
    } catch {
      return {};
    }
  });
  return (modules) => {
    const chunks = manifest() ?? {};
    const scripts = new Set<string>();
    const styles = new Set<string>();
    const visit = (key: string) => {
      const chunk = chunks[key];
      // The entry (index.html) is in the page already.
      if (!chunk || key === 'index.html' || scripts.has(chunk.file)) return;
      scripts.add(chunk.file);
      for (const css of chunk.css ?? []) styles.add(css);
      for (const imported of chunk.imports ?? []) visit(imported);
    };
    for (const module of modules) visit(module);
    return { scripts: [...scripts], styles: [...styles] };
  };
}

/**
 * The fetch a page renders with: each of its API calls answered by this application itself, as to a visitor
 * who is signed out (no token, no cookie), through the same routes, hooks and kept answers as any request.
 */
export function applicationFetch(app: FastifyInstance, publicUrl: string): typeof fetch {
  const base = publicUrl.replace(/\/+$/, '');
  const host = new URL(publicUrl).host;
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    if (method !== 'GET') throw new TypeError(`A page renders with reads only, not ${method}.`);
    const path = `${url.pathname}${url.search}`;
    const answer = await app.inject({
      method: 'GET',
      url: path,
      headers: { accept: 'application/json', host },
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, String(one));
    }
    const empty = answer.statusCode === 204 || answer.statusCode === 304;
    const response = new Response(empty ? null : new Uint8Array(answer.rawPayload), {
      status: answer.statusCode,
      statusText: answer.statusMessage,
      headers,
    });
    // Pagination links are read against the answer's address: the public one, as in the browser.
    Object.defineProperty(response, 'url', { value: `${base}${path}` });
    return response;
  };
}
