import type { WidgetMessage } from './messages';
import { InvalidOriginError, parseOrigin } from './origin';

/** Anything with `postMessage`, such as `window.parent` or an iframe's `contentWindow`. */
export interface MessageTarget {
  postMessage(message: unknown, targetOrigin: string): void;
}

/**
 * Posts a message to another window, delivered only if that window is at `targetOrigin`.
 * The wildcard is refused: item data and IDE lists must not leak to whatever page happens to frame us.
 */
export function sendMessage(target: MessageTarget, message: WidgetMessage, targetOrigin: string): void {
  const origin = parseOrigin(targetOrigin);
  if (origin === undefined) throw new InvalidOriginError(targetOrigin);
  target.postMessage(message, origin);
}

/** The part of `Document` and `Location` that tell an embedded page who framed it. */
export interface FramingInfo {
  referrer: string;
  location: { ancestorOrigins?: { length: number; [index: number]: string } | undefined };
}

/**
 * The origin of the page that frames this one: `location.ancestorOrigins` where the browser has it
 * (Chromium, Safari), otherwise the referrer's origin. Undefined when neither is known (for example
 * `Referrer-Policy: no-referrer` in Firefox); then the caller should not send anything.
 */
export function parentOrigin(info: FramingInfo): string | undefined {
  const ancestors = info.location.ancestorOrigins;
  if (ancestors !== undefined && ancestors.length > 0) {
    const nearest = ancestors[0];
    return nearest === undefined ? undefined : parseOrigin(nearest);
  }
  return info.referrer === '' ? undefined : parseOrigin(info.referrer);
}
