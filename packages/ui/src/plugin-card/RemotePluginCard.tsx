import { useDailyDownloads, usePlugin } from '../marketplace-api/hooks';
import { DownloadsChart } from '../downloads-chart/DownloadsChart';
import { ThemeCard } from '../theme-card/ThemeCard';
import { cardItemFromPlugin } from './card-data';
import { PluginCard, PluginCardSkeleton } from './PluginCard';

export interface RemotePluginCardProps {
  /** The marketplace's address, e.g. https://plugins.example.com. */
  apiBase: string;
  pluginId: number;
  newWindow?: boolean;
}

function Chart({ apiBase, pluginId }: { apiBase: string; pluginId: number }) {
  const downloads = useDailyDownloads(apiBase, pluginId);
  return (
    <DownloadsChart
      status={downloads.status}
      points={downloads.status === 'resolved' ? downloads.data : []}
    />
  );
}

/**
 * A plugin or theme card that loads its item from the marketplace: a skeleton while loading, nothing when
 * the item cannot be loaded (a host page shows no broken card).
 */
export function RemotePluginCard({ apiBase, pluginId, newWindow = true }: RemotePluginCardProps) {
  const plugin = usePlugin(apiBase, pluginId);
  if (plugin.status === 'pending') return <PluginCardSkeleton />;
  if (plugin.status === 'rejected') return null;
  const item = cardItemFromPlugin(plugin.data);
  if (item.isTheme) {
    return (
      <ThemeCard
        item={item}
        imageUrl={plugin.data.screenshots[0]?.url}
        baseUrl={apiBase}
        assetBase={apiBase}
        newWindow={newWindow}
      />
    );
  }
  return (
    <PluginCard
      item={item}
      baseUrl={apiBase}
      assetBase={apiBase}
      newWindow={newWindow}
      chart={<Chart apiBase={apiBase} pluginId={pluginId} />}
    />
  );
}
