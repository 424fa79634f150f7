import r2wc from '@r2wc/react-to-web-component';
import type { WidgetMessage } from '@marketplace/protocol';
import { parentOrigin, sendMessage } from '@marketplace/protocol';
import type { ComponentType } from 'react';
import { useMemo } from 'react';
import { dispatchWidgetEvent } from './events';

/** How an attribute's text becomes a prop (r2wc's parsers; `function` is never used: it reads window globals). */
export type AttributeType = 'string' | 'number' | 'boolean' | 'json';

/** What every element view gets besides its attributes. */
export interface WidgetViewProps {
  /** The custom element itself. */
  host: HTMLElement;
  /** Sends a protocol message: a DOM event on the element, and to the parent window when `post-to-parent` is set. */
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
 * an embed page does. Only to that page's own origin (never '*'), and never when the origin is unknown.
 */
function postToParent(host: HTMLElement, message: WidgetMessage): void {
  if (!host.hasAttribute('post-to-parent') || window.parent === window) return;
  const origin = parentOrigin({ referrer: document.referrer, location: window.location });
  if (origin !== undefined) sendMessage(window.parent, message, origin);
}

/**
 * Makes a custom element class from a view: an open shadow root with the styles of the ui components the
 * view renders (`uiStyles`, ui's set for them) and the element's own (`styles`), attributes in kebab-case
 * mapped to the view's camelCase props.
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
  function WidgetShell(props: Attributes & { container?: ShadowRoot }) {
    const { container, ...attributes } = props;
    const root = container as ShadowRoot;
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
  return r2wc(WidgetShell, { shadow: 'open', props: options.attributes as never });
}
