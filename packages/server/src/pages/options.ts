import { CUSTOM_PAGE_LIMITS } from '@marketplace/core';
import { DEFAULT_WEBHELP_LIMITS, type WebhelpLimits } from './webhelp-archive';

/** How the pages domain behaves; read from the environment, narrowed by tests. */
export interface PagesOptions {
  /**
   * The origin webhelp sites are served from (WEBHELP_ORIGIN, e.g. https://webhelp.plugins.example.com: another
   * host name for this same server, never sharing cookies or storage with the marketplace). Unset: webhelp is
   * served on the marketplace's own origin, sandboxed into an opaque origin by its Content-Security-Policy.
   */
  webhelpOrigin: string | undefined;
  webhelpLimits: WebhelpLimits;
  /** Largest image uploaded into a page, in bytes. */
  maxImageBytes: number;
}

export class PagesConfigError extends Error {
  override name = 'PagesConfigError';
}

/** `https://webhelp.example.com/` -> `https://webhelp.example.com`; anything but an http(s) origin is refused. */
export function parseWebhelpOrigin(raw: string | undefined): string | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new PagesConfigError(`WEBHELP_ORIGIN must be an absolute http(s) origin, got "${raw}".`);
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    (url.pathname !== '/' && url.pathname !== '')
  ) {
    throw new PagesConfigError(
      `WEBHELP_ORIGIN must be an origin such as https://webhelp.example.com (no path), got "${raw}".`,
    );
  }
  return url.origin;
}

export function pagesOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): PagesOptions {
  return {
    webhelpOrigin: parseWebhelpOrigin(env.WEBHELP_ORIGIN),
    webhelpLimits: { ...DEFAULT_WEBHELP_LIMITS },
    maxImageBytes: CUSTOM_PAGE_LIMITS.maxImageBytes,
  };
}
