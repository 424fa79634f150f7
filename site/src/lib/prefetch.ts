import type { Plugin } from '@marketplace/api-client';
import { parseProductPageId } from '@marketplace/core';
import { api } from './api';

/** A prefetched answer is used only this soon after it was asked for; later the page asks afresh. */
const FRESH_MS = 5_000;
const pending = new Map<number, { request: Promise<Plugin>; at: number }>();

/**
 * Starts loading an item as soon as the router knows the address, while the item page's code still downloads;
 * the page takes the answer once.
 */
export function prefetchPlugin(segment: string | undefined, now = Date.now()): void {
  // The server renders the page with the item's answer already in it.
  if (typeof window === 'undefined') return;
  const id = parseProductPageId(segment ?? '');
  if (id === undefined) return;
  const existing = pending.get(id);
  if (existing && now - existing.at < FRESH_MS) return;
  // The item page's own request (PluginPage): with developers and bundles.
  const request = api.getPlugin(id, { fullInfo: true });
  // A failure is the page's to show when it asks; here it must not be reported as unhandled.
  request.catch(() => undefined);
  pending.set(id, { request, at: now });
}

export function takePrefetchedPlugin(id: number, now = Date.now()): Promise<Plugin> | undefined {
  const entry = pending.get(id);
  pending.delete(id);
  return entry && now - entry.at < FRESH_MS ? entry.request : undefined;
}
