import type { DownloadStatisticPoint, Plugin } from '@marketplace/core';
import { fetchDailyDownloads, fetchPlugin } from './marketplace-api';
import type { AsyncState } from './use-async';
import { useAsync } from './use-async';

/** The item with the given id, from the marketplace at `apiBase`. */
export function usePlugin(apiBase: string, pluginId: number): AsyncState<Plugin> {
  return useAsync((signal) => fetchPlugin(apiBase, pluginId, signal), [apiBase, pluginId]);
}

/** The item's downloads per day over the last 30 days. */
export function useDailyDownloads(apiBase: string, pluginId: number): AsyncState<DownloadStatisticPoint[]> {
  return useAsync(
    (signal) => fetchDailyDownloads(apiBase, pluginId, new Date(), signal),
    [apiBase, pluginId],
  );
}
