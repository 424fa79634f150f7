import { isWidgetMessage } from './guards';
import type { WidgetMessage } from './messages';
import type { OriginAllowlist } from './origin';

/** The part of `window` the listener needs; tests pass a plain EventTarget. */
export interface MessageEventSourceWindow {
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

export interface ListenOptions {
  /** The window whose `message` events to receive; usually the host page's `window`. */
  receiver: MessageEventSourceWindow;
  /** Only messages from these origins are delivered. */
  allowedOrigins: OriginAllowlist;
  /**
   * The window the messages must come from, such as `iframe.contentWindow`. A function because an
   * iframe's window changes when it navigates. Messages from any other window are dropped, even from
   * an allowed origin (another frame of the same site must not speak for this one).
   */
  expectedSource: () => MessageEventSource | null | undefined;
  onMessage: (message: WidgetMessage, event: MessageEvent) => void;
}

/** Starts delivering well-formed protocol messages that pass the origin and source checks; returns a stop function. */
export function listenForMessages(options: ListenOptions): () => void {
  const { receiver, allowedOrigins, expectedSource, onMessage } = options;
  const listener = (event: MessageEvent): void => {
    if (!allowedOrigins.allows(event.origin)) return;
    const source = expectedSource();
    if (source == null || event.source !== source) return;
    if (!isWidgetMessage(event.data)) return;
    onMessage(event.data, event);
  };
  receiver.addEventListener('message', listener);
  return () => receiver.removeEventListener('message', listener);
}
