import { usePlugin } from '../marketplace-api/hooks';
import { PluginCardSkeleton } from './PluginCard';
import { PluginRecordCard } from './PluginRecordCard';

export interface RemotePluginCardProps {
  /** The marketplace's address, e.g. https://plugins.example.com. */
  apiBase: string;
  pluginId: number;
  newWindow?: boolean;
}

/**
 * A plugin or theme card that loads its item from the marketplace, with one request: the item record carries
 * the update date and the 30-day chart. A skeleton while loading, nothing when the item cannot be loaded (a
 * host page shows no broken card).
 */
export function RemotePluginCard({ apiBase, pluginId, newWindow = true }: RemotePluginCardProps) {
  const plugin = usePlugin(apiBase, pluginId);
  if (plugin.status === 'pending') return <PluginCardSkeleton />;
  if (plugin.status === 'rejected') return null;
  return (
    <PluginRecordCard plugin={plugin.data} baseUrl={apiBase} assetBase={apiBase} newWindow={newWindow} />
  );
}
