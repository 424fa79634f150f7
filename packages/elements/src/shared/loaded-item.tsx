import type { Plugin } from '@marketplace/core';
import { errorNotification } from '@marketplace/core';
import type { EmbedErrorMessage } from '@marketplace/protocol';
import { createMessage } from '@marketplace/protocol';
import { MarketplaceApiError, useContentSize, usePlugin } from '@marketplace/ui';
import type { ReactNode } from 'react';
import { useEffect, useMemo } from 'react';
import { resolveApiBase } from './api-base';
import { embedItemFromApi } from './embed-item';
import { parsePluginId } from './plugin-id';
import type { WidgetViewProps } from './widget-element';

interface LoadedItemProps extends WidgetViewProps {
  elementName: string;
  pluginId: string | undefined;
  apiBase: string | undefined;
  /** What to show while the item loads (default nothing, as the embed pages do). */
  pending?: ReactNode;
  children: (plugin: Plugin, context: { apiBase: string; pluginId: number }) => ReactNode;
  /** Report size changes with this message (the AI button reports its own size). */
  reportSize?: boolean;
}

function Loaded({
  elementName,
  pluginId,
  apiBase,
  host,
  emit,
  pending = null,
  children,
  reportSize = true,
}: Omit<LoadedItemProps, 'pluginId' | 'apiBase'> & { pluginId: number; apiBase: string }) {
  const plugin = usePlugin(apiBase, pluginId);
  // ui's embed-page hook, on the element itself: its size is what a host that frames it must fit.
  const hostRef = useMemo(() => ({ current: host }), [host]);
  useContentSize(hostRef, (size) => {
    if (reportSize) emit(createMessage('embed:size', size));
  });
  useEffect(() => {
    if (plugin.status === 'resolved') {
      emit(createMessage('embed:item-data', { item: embedItemFromApi(plugin.data) }));
    } else if (plugin.status === 'rejected') {
      const { error } = plugin;
      console.warn(`<${elementName}> could not load plugin ${pluginId} from ${apiBase}: ${error.message}`);
      const status = error instanceof MarketplaceApiError ? (error.status ?? 0) : 0;
      // An unknown or hidden item in the embed page's words; other failures in the API reader's.
      emit(loadError(String(pluginId), status, status === 404 ? noItem(String(pluginId)) : error.message));
    }
  }, [plugin, emit, elementName, apiBase, pluginId]);

  if (plugin.status === 'pending') return <>{pending}</>;
  // A host page shows nothing rather than a broken widget; the console says why.
  if (plugin.status === 'rejected') return null;
  return <>{children(plugin.data, { apiBase, pluginId })}</>;
}

const noItem = (pluginId: string) => `There is no item ${pluginId}.`;

/**
 * The `embed:error` of an element that renders nothing, as the embed page words it (spec §8's rule: from
 * status 500 up only 'Internal Error'; 0 when no answer came).
 */
function loadError(pluginId: string, status: number, message: string): EmbedErrorMessage {
  const notification = errorNotification(status, message);
  return createMessage('embed:error', {
    pluginId,
    status,
    message: notification.message ?? notification.title,
  });
}

/**
 * Loads the element's item from the marketplace and renders `children` with it; announces the item
 * (`embed:item-data`) and the element's size (`embed:size`) like an embed page does. When it renders nothing
 * (a plugin-id that is no item id, an item the marketplace does not give), it says so with `embed:error`,
 * as the embed page does; an element without a plugin-id yet only warns in the console.
 */
export function LoadedItem({ pluginId, apiBase, ...rest }: LoadedItemProps) {
  const id = parsePluginId(pluginId, rest.elementName);
  const badId = id === undefined ? pluginId?.trim() : undefined;
  const { emit } = rest;
  useEffect(() => {
    if (badId) emit(loadError(badId, 404, noItem(badId)));
  }, [badId, emit]);
  if (id === undefined) return null;
  return (
    <div part="base">
      <Loaded {...rest} pluginId={id} apiBase={resolveApiBase(apiBase)} />
    </div>
  );
}

/**
 * The item page on the marketplace, absolute (the widget runs on another site). Only an http(s) address on
 * the marketplace itself is used: whatever the answer says, a button in someone else's page never becomes a
 * `javascript:` link or a link to a third site.
 */
export function itemPageUrl(plugin: Plugin, apiBase: string): string {
  const fallback = new URL(`/plugin/${plugin.id}`, `${apiBase}/`).href;
  try {
    const url = new URL(plugin.info.link, `${apiBase}/`);
    return url.origin === new URL(apiBase).origin ? url.href : fallback;
  } catch {
    return fallback;
  }
}
