import { createIdeBridge } from '@marketplace/ide-bridge';
import type { IdeBridge } from '@marketplace/ui';

let pageBridge: IdeBridge | undefined;

/**
 * One IDE bridge for every element on the page: they share its cache and its polling, so ten buttons do not
 * scan the visitor's ports ten times (the IDE allows about 30 requests a minute).
 */
export function pageIdeBridge(): IdeBridge {
  pageBridge ??= createIdeBridge();
  return pageBridge;
}

/**
 * For Storybook: the bridge the elements use from now on, an in-memory one with the IDE states a story shows.
 * A page has no reason to call it.
 */
export function setPageIdeBridge(bridge: IdeBridge): void {
  pageBridge = bridge;
}
