/**
 * The marketplace an element talks to. Elements take it from their `api-base` attribute; without one they
 * use the origin the SDK script was loaded from (so `<script src="https://market.example/sdk/mp-widget.js">`
 * needs no configuration), and without a known script (ESM import in a bundled app) the page's own origin.
 */
let scriptOrigin: string | undefined;

/**
 * Records where the SDK script came from (the bundles pass `import.meta.url`, which Rollup turns into the
 * current script's src for the script-tag build). Only http(s) counts: a file: or blob: URL says nothing
 * about where the marketplace is.
 */
export function rememberScriptUrl(scriptUrl: string | undefined): void {
  if (!scriptUrl) return;
  try {
    const url = new URL(scriptUrl);
    if (url.protocol === 'http:' || url.protocol === 'https:') scriptOrigin = url.origin;
  } catch {
    // An unparsable URL cannot be where the script came from; keep the page-origin fallback.
  }
}

/** The origin of the SDK script, when it was loaded by a script tag. */
export function sdkScriptOrigin(): string | undefined {
  return scriptOrigin;
}

/**
 * The base URL (no trailing slash) for API calls. Only http(s) URLs are accepted: anything else in the
 * attribute (a typo, `javascript:`) falls back to the default instead of producing requests to nowhere.
 */
export function resolveApiBase(attribute: string | null | undefined): string {
  const fallback = scriptOrigin ?? window.location.origin;
  const value = attribute?.trim();
  if (!value) return fallback;
  try {
    const url = new URL(value, window.location.href);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.href.replace(/\/+$/, '');
  } catch {
    // reported below
  }
  console.warn(`Plugin Marketplace widget: api-base "${value}" is not an http(s) URL; using ${fallback}.`);
  return fallback;
}
