import type { WidgetMessage } from '@marketplace/protocol';
import { parentOrigin, sendMessage } from '@marketplace/protocol';
import r2wc from '@r2wc/react-to-web-component';
import type { ComponentType } from 'react';
import { useMemo } from 'react';
import { dispatchWidgetEvent } from './events';

/**
 * How an attribute's text becomes a prop (r2wc's parsers): `string` as written; `boolean` true for text
 * starting with t, y or 1-9 ("true", "yes", "1"), false for anything else ("false", "no", "0"). An empty or
 * missing attribute is an unset prop (the view's default). r2wc's `function` and `method` are never used:
 * they read globals of the page.
 */
export type AttributeType = 'string' | 'boolean';

/** What every element view gets besides its attributes. */
export interface WidgetViewProps {
  /** The custom element itself. */
  host: HTMLElement;
  /** Sends a protocol message: a DOM event on the element, and to the parent window when `post-to-parent` is set (`embed:error` always). */
  emit: (message: WidgetMessage) => void;
}

/** Styles every element needs besides the components' own: how the element itself lays out. */
const HOST_STYLES = `
:host { display: inline-block; vertical-align: middle; }
:host([hidden]) { display: none; }
`;

/** One parsed sheet per style text, shared by every element that uses the text (tokens are in all of them). */
const parsedSheets = new Map<string, CSSStyleSheet>();

function sheetFor(css: string): CSSStyleSheet {
  let sheet = parsedSheets.get(css);
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    parsedSheets.set(css, sheet);
  }
  return sheet;
}

/**
 * Stylesheet objects adopted by the element's shadow root where the browser can (each text parsed once
 * however many elements a page has); a <style> element in each root elsewhere.
 */
function adoptStyles(root: ShadowRoot, styles: readonly string[]): boolean {
  if (!('adoptedStyleSheets' in root) || typeof CSSStyleSheet.prototype.replaceSync !== 'function')
    return false;
  if (root.adoptedStyleSheets.length === 0) root.adoptedStyleSheets = styles.map(sheetFor);
  return true;
}

/**
 * With `post-to-parent`, an element inside a frame also posts its messages to the framing page, which is what
 * an embed page does; `embed:error` always (it tells the framing page why the frame stays empty, and carries
 * nothing of the item). Only to that page's own origin (never '*'), and never when the origin is unknown.
 */
function postToParent(host: HTMLElement, message: WidgetMessage): void {
  if (window.parent === window) return;
  if (message.type !== 'embed:error' && !host.hasAttribute('post-to-parent')) return;
  const origin = parentOrigin({ referrer: document.referrer, location: window.location });
  if (origin !== undefined) sendMessage(window.parent, message, origin);
}

/**
 * Makes a custom element class from a view with `@r2wc/react-to-web-component`: an open shadow root with the
 * styles of the ui components the view renders (`uiStyles`, ui's set for them) and the element's own
 * (`styles`), attributes in kebab-case mapped to the view's camelCase props by r2wc's `props` (also settable
 * as properties: `element.pluginId = '7'` writes the attribute). r2wc renders the view with React's
 * `createRoot` while the element is in the document (the host's React in the React build, preact/compat in
 * the script-tag builds: rollup.config.mjs) and unmounts it when it leaves.
 */
export function createWidgetElement<Attributes extends object>(
  View: ComponentType<Attributes & WidgetViewProps>,
  options: {
    attributes: Record<keyof Attributes & string, AttributeType>;
    uiStyles: readonly string[];
    styles?: string;
  },
): CustomElementConstructor {
  const styles = [...options.uiStyles, HOST_STYLES + (options.styles ?? '')];

  /** r2wc passes the shadow root as `container`. */
  function WidgetShell({ container, ...attributes }: Attributes & { container?: HTMLElement }) {
    const root = container as unknown as ShadowRoot;
    const host = root.host as HTMLElement;
    const emit = useMemo(
      () => (message: WidgetMessage) => {
        dispatchWidgetEvent(host, message.type, message);
        postToParent(host, message);
      },
      [host],
    );
    const adopted = adoptStyles(root, styles);
    return (
      <>
        {adopted ? null : <style>{styles.join('\n')}</style>}
        <View {...(attributes as Attributes)} host={host} emit={emit} />
      </>
    );
  }

  const R2wcElement = r2wc(WidgetShell, { shadow: 'open', props: options.attributes as never });
  return withWidgetLifecycle(R2wcElement, Object.keys(options.attributes));
}

/** r2wc's own keys on its elements (`Symbol.for`, so stable): the props it renders with, its render, and
 * whether it counts itself as in the document. */
const R2WC_PROPS = Symbol.for('r2wc.props');
const R2WC_RENDER = Symbol.for('r2wc.render');
const R2WC_CONNECTED = Symbol.for('r2wc.connected');

interface R2wcInternals {
  [R2WC_PROPS]: Record<string, unknown>;
  [R2WC_RENDER](): void;
  [R2WC_CONNECTED]: boolean;
}

/** The view's default for the prop again (r2wc's render draws only once the element is connected). */
function unsetProp(element: HTMLElement, prop: string): void {
  const internals = element as unknown as R2wcInternals;
  internals[R2WC_PROPS][prop] = undefined;
  internals[R2WC_RENDER]();
}

/** `buttonSize` -> `button-size`, as r2wc names the attribute of a prop. */
const attributeName = (prop: string) => prop.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

/**
 * What r2wc (1.3) does not do, added to its element class:
 * - it renders only once in the document: r2wc counts a new element as connected, so an element made by
 *   script (or by React during a render it then discards) would load its item and scan for IDEs without ever
 *   being shown, and never be unmounted;
 * - an attribute that is removed or emptied unsets its prop, so the view's default applies again (r2wc keeps
 *   the last value it parsed), and so does setting the property to undefined or null (r2wc writes "false"
 *   for a boolean).
 */
function withWidgetLifecycle(
  Base: CustomElementConstructor,
  props: readonly string[],
): CustomElementConstructor {
  const propOfAttribute = new Map(props.map((prop) => [attributeName(prop), prop]));
  const R2wcBase = Base as unknown as new () => HTMLElement & {
    attributeChangedCallback(name: string, oldValue: string | null, value: string | null): void;
  };
  class WidgetElement extends R2wcBase {
    constructor() {
      super();
      (this as unknown as R2wcInternals)[R2WC_CONNECTED] = this.isConnected;
    }

    override attributeChangedCallback(name: string, oldValue: string | null, value: string | null): void {
      const prop = propOfAttribute.get(name);
      if (value || prop === undefined) return super.attributeChangedCallback(name, oldValue, value);
      unsetProp(this, prop);
    }
  }
  for (const prop of props) {
    const r2wcProperty = Object.getOwnPropertyDescriptor(Base.prototype, prop);
    if (!r2wcProperty?.get || !r2wcProperty.set) continue;
    const { get, set } = r2wcProperty;
    Object.defineProperty(WidgetElement.prototype, prop, {
      configurable: true,
      enumerable: true,
      get,
      set(this: WidgetElement, value: unknown) {
        if (value !== undefined && value !== null) return set.call(this, value);
        this.removeAttribute(attributeName(prop));
        unsetProp(this, prop);
      },
    });
  }
  return WidgetElement;
}
