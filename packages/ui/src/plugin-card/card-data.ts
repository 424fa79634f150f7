import type { Plugin, PluginCard as PluginCardData } from '@marketplace/core';
import { descriptionExcerpt, THEME_TAG_ID } from '@marketplace/core';

/** What a plugin or theme card shows (core's card shape). */
export type CardItem = PluginCardData;

/** Themes carry the theme tag. */
export function isThemePlugin(plugin: Plugin): boolean {
  return plugin.tags.some((tag) => tag.id === THEME_TAG_ID);
}

/**
 * The card data of an item read from GET /api/plugins/{id}: its update date and 30-day chart come with the
 * item (a marketplace that leaves them out gives a card without them).
 */
export function cardItemFromPlugin(plugin: Plugin): CardItem {
  return {
    id: plugin.id,
    xmlId: plugin.info.xmlId,
    name: plugin.info.name,
    link: plugin.info.link,
    family: plugin.info.family,
    icon: plugin.info.icon,
    preview: plugin.info.preview.trim() ? plugin.info.preview : descriptionExcerpt(plugin.info.description),
    vendor: plugin.vendor,
    rating: plugin.rating.meanRating ?? 0,
    downloads: plugin.info.downloads,
    pricingModel: plugin.info.pricingModel,
    updateDate: plugin.info.updateDate ?? null,
    isTheme: isThemePlugin(plugin),
    ...(plugin.downloadStatistics ? { downloadStatistics: plugin.downloadStatistics } : {}),
  };
}
