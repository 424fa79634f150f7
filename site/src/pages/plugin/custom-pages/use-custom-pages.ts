import type { PublishedPageList } from '@marketplace/api-client';
import { api } from '../../../lib/api';
import { useLoad } from '../../../lib/use-load';

/**
 * Whether the item has published custom pages (the custom-pages tab is shown only then): 'pending' while the
 * list loads, then the list (empty when there are none or it could not be read).
 */
export function usePublishedPages(pluginId: number | undefined): PublishedPageList | 'pending' {
  const [answer] = useLoad(
    async (signal) => ({
      pluginId,
      pages: pluginId === undefined ? [] : await api.customPages.listPublished(pluginId, { signal }),
    }),
    [pluginId],
  );
  if (answer.status === 'pending') return 'pending';
  if (answer.status === 'rejected') return [];
  return answer.data.pluginId === pluginId ? answer.data.pages : 'pending';
}
