import type { Plugin } from '@marketplace/core';
import type { EmbedItemData } from '@marketplace/protocol';
import { toEmbedItemData } from '@marketplace/protocol';

/** The item data an element announces, by the protocol's own rule (fields left out, rating = mean rating). */
export function embedItemFromApi(plugin: Plugin): EmbedItemData {
  return toEmbedItemData(plugin, plugin.rating.meanRating ?? 0);
}
