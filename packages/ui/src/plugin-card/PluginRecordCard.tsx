import type { Plugin } from '@marketplace/core';
import { ThemeCard } from '../theme-card/ThemeCard';
import { cardItemFromPlugin } from './card-data';
import { PluginCard } from './PluginCard';

export interface PluginRecordCardProps {
  /** The item record, as GET /api/plugins/{id} answers it (it carries the update date and the 30-day chart). */
  plugin: Plugin;
  /** The marketplace the card's links go to; default: the page's own (relative links). */
  baseUrl?: string;
  /** Where the icon and screenshot paths of the record are; default: the page's origin. */
  assetBase?: string;
  /** Open the item page in a new window (a card on another site). */
  newWindow?: boolean;
  /** The time the update date is counted from (tests, stories); default: now. */
  now?: number;
}

/**
 * The card of one item record: a theme card (with its first screenshot) for a theme, a plugin card for
 * anything else. The one card that RemotePluginCard and the SDK's <mp-plugin-card> both draw.
 */
export function PluginRecordCard({ plugin, baseUrl, assetBase, newWindow, now }: PluginRecordCardProps) {
  const item = cardItemFromPlugin(plugin);
  const props = { item, baseUrl, assetBase, newWindow, now };
  if (item.isTheme) return <ThemeCard {...props} imageUrl={plugin.screenshots[0]?.url} />;
  return <PluginCard {...props} />;
}
