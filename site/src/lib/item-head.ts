import type { Plugin } from '@marketplace/api-client';
import { descriptionExcerpt, hasThemeTag, THEME_CARD_IMAGE } from '@marketplace/core';
import type { PageHead } from './server-render';

function absolute(address: string, origin: string): string {
  return new URL(address, `${origin}/`).href;
}

/**
 * The head of an item's page (spec §1, §9): its name, the 290-character excerpt of its description, its
 * canonical address, the picture a link preview shows (a theme's 382x213 card image, else the icon), and a
 * schema.org SoftwareApplication with its rating and download count for search engines.
 */
export function itemHead(plugin: Plugin, origin: string, tab: string): Omit<PageHead, 'title'> {
  const { info } = plugin;
  const description = descriptionExcerpt(info.description);
  const path = tab ? `${info.link}/${tab}` : info.link;
  const themeImage = hasThemeTag(plugin.tags) ? plugin.screenshots[0]?.url : undefined;
  const image = themeImage
    ? { url: absolute(themeImage, origin), ...THEME_CARD_IMAGE, alt: `${info.name}, a theme` }
    : info.icon
      ? { url: absolute(info.icon, origin), alt: `The icon of ${info.name}` }
      : undefined;
  const ratingCount = Object.values(plugin.rating.votes).reduce((sum, count) => sum + count, 0);
  const structuredData: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'SoftwareApplication',
    name: info.name,
    ...(description ? { description } : {}),
    url: absolute(info.link, origin),
    ...(image ? { image: image.url } : {}),
    applicationCategory: 'DeveloperApplication',
    ...(plugin.vendor.name ? { author: { '@type': 'Organization', name: plugin.vendor.name } } : {}),
    ...(info.pricingModel === 'FREE' ? { isAccessibleForFree: true } : {}),
    ...(ratingCount > 0
      ? {
          aggregateRating: {
            '@type': 'AggregateRating',
            ratingValue: Number(plugin.rating.meanRating.toFixed(1)),
            ratingCount,
            bestRating: 5,
            worstRating: 1,
          },
        }
      : {}),
    interactionStatistic: {
      '@type': 'InteractionCounter',
      interactionType: 'https://schema.org/DownloadAction',
      userInteractionCount: info.downloads,
    },
  };
  return {
    ...(description ? { description } : {}),
    path,
    ...(image ? { image } : {}),
    structuredData,
  };
}
