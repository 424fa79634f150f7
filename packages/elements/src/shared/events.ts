import type { RunningIde } from '@marketplace/core';
import type { WidgetMessageOf, WidgetMessageType } from '@marketplace/protocol';

/**
 * The DOM events of the elements. Each protocol message an embed page would post to its host is, in element
 * mode, a `CustomEvent` of the same name on the element (detail = the message), so host code reads the same
 * data whether it listens to an element or to the loader's iframe.
 */
export type WidgetEventMap = { [Type in WidgetMessageType]: CustomEvent<WidgetMessageOf<Type>> };

/** The install button's outcome, which the embed protocol does not carry (the toast tells the visitor). */
export interface InstallResultDetail {
  ide: RunningIde;
}

export interface InstallButtonEventMap {
  'install-button:install-success': CustomEvent<InstallResultDetail>;
  'install-button:install-error': CustomEvent<InstallResultDetail>;
}

declare global {
  // Typed `addEventListener('ai-button:install-success', (event) => event.detail.ide)` for host code.
  interface GlobalEventHandlersEventMap extends WidgetEventMap, InstallButtonEventMap {}
}

/** Dispatches an element event that crosses the shadow boundary and bubbles to the host page. */
export function dispatchWidgetEvent<Detail>(host: EventTarget, type: string, detail: Detail): void {
  host.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
}
