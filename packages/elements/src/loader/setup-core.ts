import { resolveApiBase, sdkScriptOrigin } from '../shared/api-base';
import type { IframeWidgetOptions } from './iframe-widget';
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

/**
 * How element mode gets an element's definition when the page does not have it yet: mp-loader.js sets one
 * that imports the element's chunks; mp-widget.js defines every element on load and needs none.
 */
let elementLoader: ((name: string) => Promise<boolean>) | undefined;

export function setElementLoader(loader: ((name: string) => Promise<boolean>) | undefined): void {
  elementLoader = loader;
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

/** Makes a widget's iframe; mp-widget.js has it at hand, mp-loader.js fetches its message handling first. */
export type IframeFactory = (options: IframeWidgetOptions) => HTMLIFrameElement;

/**
 * Makes `setupMarketplaceWidget`, the call the vendor documents:
 * `MarketplaceWidget.setupMarketplaceWidget('card', 7495, '#my-element')`. It puts a widget into `root` and
 * returns the created element (the custom element, or the iframe in iframe mode); its DOM events are the
 * protocol's messages.
 */
export function createWidgetSetup(createIframe: IframeFactory) {
  return function setupMarketplaceWidget(
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
        ? createIframe({ type, pluginId: id, apiBase, query: aiQuery(type, options) })
        : createElementWidget(type, id, apiBase, options);
    container.append(widget);
    return widget;
  };
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
  void loadElement(name);
  return element;
}

/**
 * Makes sure the element `name` (`mp-plugin-card`, ...) is defined, loading its code when the page has only
 * the loader. Resolves whether it is defined; when it cannot be, the console says why and the element stays
 * empty instead of breaking the page. Hosts call it for elements they put into their own shadow roots, which
 * the loader's watch on the document does not see.
 */
export function loadElement(name: string): Promise<boolean> {
  if (customElements.get(name)) return Promise.resolve(true);
  if (!elementLoader) {
    console.error(
      new WidgetSetupError(
        `<${name}> is not defined: load mp-loader.js (each element's code when it is used) or mp-widget.js (every element).`,
      ),
    );
    return Promise.resolve(false);
  }
  return elementLoader(name);
}
