import { createOriginAllowlist, listenForMessages } from '@marketplace/protocol';
import type { WidgetMessage } from '@marketplace/protocol';
import type { WidgetType } from './widget-types';

/**
 * Makes a widget's iframe follow its embed page (at `src`): the size the page reports, and every protocol
 * message from it re-dispatched as a DOM event on the iframe (type = message type, detail = message), so host
 * code listens the same way in iframe and element mode. Messages from any other window or origin are dropped
 * by the protocol's listener. Call it before the iframe loads `src`, so no message comes before the listener.
 */
export function followEmbedPage(iframe: HTMLIFrameElement, type: WidgetType, src: string): void {
  const stop = listenForMessages({
    receiver: window,
    allowedOrigins: createOriginAllowlist([src]),
    expectedSource: () => iframe.contentWindow,
    onMessage: (message) => {
      if (!iframe.isConnected) {
        // The host removed the widget: stop listening so the page does not keep dead frames' handlers.
        stop();
        return;
      }
      applySize(iframe, type, message);
      iframe.dispatchEvent(new CustomEvent(message.type, { detail: message, bubbles: true, composed: true }));
    },
  });
}

function applySize(iframe: HTMLIFrameElement, type: WidgetType, message: WidgetMessage): void {
  if (message.type !== 'embed:size' && message.type !== 'ai-button:size') return;
  iframe.style.height = `${Math.ceil(message.height)}px`;
  // A button is as wide as its content; a card fills the width the host gives it.
  if (type !== 'card') iframe.style.width = `${Math.ceil(message.width)}px`;
}
