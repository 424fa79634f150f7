import type { SiteLinks } from '@marketplace/api-contract';
import { createContext, useContext } from 'react';
import type { LoadOutcome } from './page-data';

/** What a page says about itself for the HTML head (the server writes the tags, site-hosting/page-head.ts). */
export interface PageHead {
  /** The page's own title; the head says '<title> | Marketplace' (spec §1). */
  title: string;
  /** Plain text (an item's §9 excerpt); the site's description when absent. */
  description?: string;
  /** The canonical path (an item's own link); the address asked for when absent. */
  path?: string;
  /** The picture a link preview shows: an item's icon, a theme's 382x213 card image. */
  image?: { url: string; width?: number; height?: number; alt: string };
  /** schema.org data (JSON-LD), for an item a SoftwareApplication. */
  structuredData?: Record<string, unknown>;
  /** The HTTP status of the page: 404 for the not-found page. */
  status?: number;
}

/** The loads of one server render: outcomes of earlier passes, and the loads this pass found new. */
export interface ServerLoads {
  outcome(key: string): LoadOutcome | undefined;
  start(key: string, load: (signal: AbortSignal) => Promise<unknown>): void;
}

/**
 * What the server's render of a page (entry-server.tsx) shares with the components while they render there:
 * the site's public address, the footer's links, the page's loads, and what the page says about itself.
 * Undefined in the browser.
 */
export interface ServerRender {
  origin: string;
  links: SiteLinks;
  /** The request carries no consent choice (no mp_consent cookie): the page shows the consent banner. */
  askConsent: boolean;
  loads: ServerLoads;
  head: PageHead | undefined;
  /** DOMPurify over jsdom's DOM (lib/sanitize.ts): the browser hydrates its markup without sanitising again. */
  sanitizeHtml: (html: string) => string;
  /**
   * The modules the page loads lazily that this render drew (lazyPart adds them), as the build's manifest
   * names them: the server preloads their files and the browser loads them before it hydrates.
   */
  lazyModules: Set<string>;
}

export const ServerRenderContext = createContext<ServerRender | undefined>(undefined);

export function useServerRender(): ServerRender | undefined {
  return useContext(ServerRenderContext);
}

/** The site's address: the page's in the browser, the public URL while the server renders. */
export function useSiteOrigin(): string {
  const server = useServerRender();
  return server ? server.origin : location.origin;
}
