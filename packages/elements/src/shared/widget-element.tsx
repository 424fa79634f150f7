import type { WidgetMessage } from '@marketplace/protocol';
import { parentOrigin, sendMessage } from '@marketplace/protocol';
import type { ComponentType } from 'react';
import { createElement, useMemo } from 'react';
import type { Root } from 'react-dom/client';
import { createRoot } from 'react-dom/client';
import { dispatchWidgetEvent } from './events';

/**
 * How an attribute's text becomes a prop: `string` as written; `boolean` true for text starting with t, y or
 * 1-9 ("true", "yes", "1"), false for anything else ("false", "no", "0"). An empty or missing attribute is an
 * unset prop (the view's default), as it was with @r2wc/react-to-web-component, whose mapping this keeps.
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

/** `buttonSize` -> `button-size`. */
const attributeName = (prop: string) => prop.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

function parseAttribute(type: AttributeType, text: string | null): unknown {
  if (!text) return undefined;
  return type === 'boolean' ? /^[ty1-9]/i.test(text) : text;
}

/**
 * Makes a custom element class from a view: an open shadow root with the styles of the ui components the
 * view renders (`uiStyles`, ui's set for them) and the element's own (`styles`), attributes in kebab-case
 * mapped to the view's camelCase props (also settable as properties: `element.pluginId = '7'` writes the
 * attribute). The view renders while the element is in the document and is unmounted when it leaves.
 * React's `createRoot` renders it: the host's React in the React build, a few lines over Preact in the
 * script-tag builds (rollup.config.mjs).
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
  const types = options.attributes as Record<string, AttributeType>;
  /** Attribute name -> prop name. */
  const props = new Map(Object.keys(types).map((prop) => [attributeName(prop), prop]));

  function WidgetShell({ root, ...attributes }: Record<string, unknown> & { root: ShadowRoot }) {
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

  class WidgetElement extends HTMLElement {
    static observedAttributes = [...props.keys()];
    #root = this.attachShadow({ mode: 'open' });
    #react: Root | undefined;

    connectedCallback(): void {
      this.#render();
    }

    disconnectedCallback(): void {
      this.#react?.unmount();
      this.#react = undefined;
    }

    /** Once mounted (an upgrade reports each attribute before connectedCallback, which renders them all). */
    attributeChangedCallback(): void {
      if (this.#react) this.#render();
    }

    /** Renders with every attribute as it is now. */
    #render(): void {
      if (!this.isConnected) return;
      const values: Record<string, unknown> = { root: this.#root };
      for (const [name, prop] of props)
        values[prop] = parseAttribute(types[prop] ?? 'string', this.getAttribute(name));
      this.#react ??= createRoot(this.#root);
      this.#react.render(createElement(WidgetShell, values as never));
    }
  }
  for (const [name, prop] of props)
    Object.defineProperty(WidgetElement.prototype, prop, {
      configurable: true,
      enumerable: true,
      get(this: HTMLElement) {
        return parseAttribute(types[prop] ?? 'string', this.getAttribute(name));
      },
      set(this: HTMLElement, value: unknown) {
        if (value === undefined || value === null) this.removeAttribute(name);
        else this.setAttribute(name, types[prop] === 'boolean' ? String(Boolean(value)) : String(value));
      },
    });
  return WidgetElement;
}
