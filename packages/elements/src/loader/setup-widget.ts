import { resolveApiBase, sdkScriptOrigin } from '../shared/api-base';
import { createIframeWidget } from './iframe-widget';
import { WIDGET_ELEMENT_NAMES, WIDGET_TYPES, isWidgetType } from './widget-types';
import type { WidgetType } from './widget-types';

export type WidgetMode = 'element' | 'iframe';

/** Options beyond the vendor's three arguments. Everything is optional. */
export interface WidgetOptions {
  /** `element` (default): a custom element in the host page. `iframe`: the marketplace's embed page. */
  mode?: WidgetMode;
  /** The marketplace to use; default: the origin the SDK script came from. */
  apiBase?: string;
  /** ai widget: button size (xs, s, m, l; default m). */
  buttonSize?: string;
  /** ai widget: button text (default 'Try for free'). */
  buttonText?: string;
  /** ai widget: whether the text may wrap (default true). */
  allowMultiline?: boolean;
}

/** Where the full SDK bundle is, for element mode started from the small loader. Set by the loader entry. */
let bundleUrl: string | undefined;
let bundleLoading: Promise<boolean> | undefined;

export function setBundleUrl(url: string | undefined): void {
  bundleUrl = url;
}

/** Plugin ids are numbers; course and xml ids are short tokens. Anything else is a mistake in the host page. */
const PLUGIN_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

export class WidgetSetupError extends Error {
  constructor(message: string) {
    super(`Plugin Marketplace widget: ${message}`);
    this.name = 'WidgetSetupError';
  }
}

function resolveRoot(root: string | Element): Element {
  if (typeof root !== 'string') return root;
  let found: Element | null;
  try {
    found = document.querySelector(root);
  } catch {
    throw new WidgetSetupError(`"${root}" is not a valid CSS selector for the widget's root element.`);
  }
  if (!found) {
    throw new WidgetSetupError(
      `no element matches "${root}". Call setupMarketplaceWidget after that element exists (for example at the end of <body>).`,
    );
  }
  return found;
}

/**
 * Puts a widget into `root`, the call the vendor documents:
 * `MarketplaceWidget.setupMarketplaceWidget('card', 7495, '#my-element')`.
 * Returns the created element (the custom element, or the iframe in iframe mode); its DOM events are the
 * protocol's messages.
 */
export function setupMarketplaceWidget(
  type: WidgetType,
  pluginId: number | string,
  root: string | Element,
  options: WidgetOptions = {},
): HTMLElement {
  if (!isWidgetType(type)) {
    throw new WidgetSetupError(
      `unknown widget type "${String(type)}"; use one of ${WIDGET_TYPES.join(', ')}.`,
    );
  }
  const id = String(pluginId).trim();
  if (!PLUGIN_ID_PATTERN.test(id)) {
    throw new WidgetSetupError(
      `"${String(pluginId)}" is not a plugin id; pass the number from the plugin's page.`,
    );
  }
  const container = resolveRoot(root);
  const apiBase = resolveApiBase(options.apiBase ?? sdkScriptOrigin());
  const mode = options.mode ?? 'element';
  if (mode !== 'element' && mode !== 'iframe') {
    throw new WidgetSetupError(`unknown mode "${String(mode)}"; use element or iframe.`);
  }

  const widget =
    mode === 'iframe'
      ? createIframeWidget({ type, pluginId: id, apiBase, query: aiQuery(type, options) })
      : createElementWidget(type, id, apiBase, options);
  container.append(widget);
  return widget;
}

function aiQuery(type: WidgetType, options: WidgetOptions): Record<string, string> | undefined {
  if (type !== 'ai') return undefined;
  const query: Record<string, string> = {};
  if (options.buttonSize !== undefined) query.buttonSize = options.buttonSize;
  if (options.buttonText !== undefined) query.buttonText = options.buttonText;
  if (options.allowMultiline !== undefined) query.allowMultiline = String(options.allowMultiline);
  return query;
}

function createElementWidget(
  type: WidgetType,
  id: string,
  apiBase: string,
  options: WidgetOptions,
): HTMLElement {
  const name = WIDGET_ELEMENT_NAMES[type];
  const element = document.createElement(name);
  element.setAttribute('plugin-id', id);
  element.setAttribute('api-base', apiBase);
  if (type === 'ai') {
    if (options.buttonSize !== undefined) element.setAttribute('button-size', options.buttonSize);
    if (options.buttonText !== undefined) element.setAttribute('button-text', options.buttonText);
    if (options.allowMultiline !== undefined)
      element.setAttribute('allow-multiline', String(options.allowMultiline));
  }
  // The element upgrades by itself once its definition arrives.
  if (!customElements.get(name)) void loadBundle();
  return element;
}

/**
 * Loads the full SDK (the element definitions) once, from next to the loader script. Resolves false, after
 * saying why in the console, when it cannot: the elements then stay empty instead of breaking the page.
 */
export function loadBundle(): Promise<boolean> {
  if (bundleLoading) return bundleLoading;
  const url = bundleUrl;
  if (!url) {
    console.error(
      new WidgetSetupError(
        'element mode needs the full SDK: load mp-widget.js, or mp-loader.js from its folder.',
      ),
    );
    return Promise.resolve(false);
  }
  bundleLoading = new Promise<boolean>((resolve) => {
    const script = document.createElement('script');
    script.src = url;
    script.async = true;
    script.onload = () => resolve(true);
    script.onerror = () => {
      console.error(new WidgetSetupError(`could not load ${url}.`));
      resolve(false);
    };
    document.head.append(script);
  });
  const loading = bundleLoading;
  // After a failure the next widget tries again (the network may be back).
  void loading.then((loaded) => {
    if (!loaded && bundleLoading === loading) bundleLoading = undefined;
  });
  return loading;
}
