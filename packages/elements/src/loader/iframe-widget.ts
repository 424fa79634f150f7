import { followEmbedPage } from './embed-messages';
import type { WidgetType } from './widget-types';

/**
 * What the embedded page may do. Scripts and its own origin (to call the marketplace API and the visitor's
 * IDE); popups that escape the sandbox so "open the item page" gets a normal tab. No top navigation, forms
 * or downloads: an embed never takes over the host page.
 */
export const EMBED_SANDBOX = 'allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox';

/** Chromium's Local Network Access: a cross-origin frame may reach the visitor's IDE only if delegated. */
export const EMBED_ALLOW = 'loopback-network; local-network-access';

/** Height before the embed reports its real size, so the host's layout does not jump from zero. */
const INITIAL_HEIGHTS: Record<WidgetType, number> = {
  card: 180,
  install: 40,
  ai: 40,
  'open-course': 40,
  'course-lti': 40,
};

export interface IframeWidgetOptions {
  type: WidgetType;
  pluginId: string;
  /** Marketplace base URL; the embed page is `${apiBase}/embeddable/{type}/{pluginId}`. */
  apiBase: string;
  /** Extra query parameters for the embed page (the ai type reads buttonSize, buttonText, allowMultiline). */
  query?: Record<string, string>;
}

/** The URL of the embed page for a widget. */
export function embedUrl({ type, pluginId, apiBase, query }: IframeWidgetOptions): string {
  const url = new URL(`${apiBase}/embeddable/${type}/${encodeURIComponent(pluginId)}`);
  for (const [name, value] of Object.entries(query ?? {})) url.searchParams.set(name, value);
  return url.href;
}

/**
 * The iframe of a widget, not loading yet: sized for its type, sandboxed, with the local-network delegation.
 * Setting its `src` (see {@link embedUrl}) starts it.
 */
export function createIframeElement(type: WidgetType): HTMLIFrameElement {
  const iframe = document.createElement('iframe');
  iframe.title = `Plugin Marketplace ${type} widget`;
  iframe.setAttribute('allow', EMBED_ALLOW);
  iframe.setAttribute('sandbox', EMBED_SANDBOX);
  iframe.setAttribute('loading', 'lazy');
  iframe.style.cssText = `border:0;display:block;width:100%;height:${INITIAL_HEIGHTS[type]}px;color-scheme:normal;background:transparent`;
  return iframe;
}

/**
 * Creates the iframe of a widget. It follows the size the embed page reports and re-dispatches every
 * protocol message from it as a DOM event on the iframe (see {@link followEmbedPage}).
 */
export function createIframeWidget(options: IframeWidgetOptions): HTMLIFrameElement {
  const src = embedUrl(options);
  const iframe = createIframeElement(options.type);
  followEmbedPage(iframe, options.type, src);
  iframe.src = src;
  return iframe;
}
