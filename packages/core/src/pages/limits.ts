/**
 * Bounds on custom pages and webhelp. A page is Markdown a person writes; a webhelp is the static output of
 * a documentation tool (HTML, CSS, scripts, images, a search index), so both are small next to plugins.
 */
export const CUSTOM_PAGE_LIMITS = Object.freeze({
  /** Pages (custom pages and webhelps together) of one item. */
  maxPagesPerItem: 100,
  /** How deep pages may nest: a top-level page is depth 1. */
  maxDepth: 5,
  maxNameChars: 100,
  /** The page's own URL segment (`/custom-pages/{url}`). */
  maxUrlChars: 64,
  /** Markdown of one page. */
  maxMarkdownChars: 200_000,
  /** One image of a page, as uploaded. */
  maxImageBytes: 5 * 1024 * 1024,
  /** Images of one page. */
  maxImagesPerPage: 50,
  /** A webhelp zip, as uploaded. */
  maxWebhelpBytes: 50 * 1024 * 1024,
  /** Files and folders in a webhelp zip. */
  maxWebhelpEntries: 5_000,
  /** All files of a webhelp zip together, unpacked. */
  maxWebhelpUnpackedBytes: 200 * 1024 * 1024,
  /** One file of a webhelp, unpacked. */
  maxWebhelpFileBytes: 20 * 1024 * 1024,
  /** How long an address for previewing an unpublished webhelp works. */
  webhelpPreviewMinutes: 60,
});

/** The item page tab of custom pages (spec §2). */
export const CUSTOM_PAGES_TAB = 'custom-pages';

/** The entry page a webhelp zip must hold (at its root, or in its one top-level folder). */
export const WEBHELP_INDEX = 'index.html';

/** Where a webhelp is served: its own path prefix, never the site's or the API's. */
export function webhelpPath(pluginId: number, pageUrl: string): string {
  return `/webhelp/${pluginId}/${encodeURIComponent(pageUrl)}/`;
}

/**
 * Where the item's people preview a webhelp not yet published: under /webhelp/ too (so an operator who routes
 * /webhelp/ to a separate origin routes previews with it), the prefix named by a secret token.
 */
export function webhelpPreviewPath(token: string): string {
  return `/webhelp/preview/${encodeURIComponent(token)}/`;
}
