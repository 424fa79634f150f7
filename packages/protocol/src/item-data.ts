import type { Plugin, PluginInfo } from '@marketplace/core';
import { isNonNegativeFiniteNumber, isRecord } from './guard-helpers';

/**
 * Fields of the item's info an embed page never posts: moderation state and commercial details are the
 * marketplace's business, not the host page's.
 */
export const EMBED_OMITTED_INFO_FIELDS = [
  'approve',
  'hasUnapprovedUpdate',
  'pricingModel',
  'removalRequested',
] as const satisfies readonly (keyof PluginInfo)[];

/**
 * Top-level fields of the item never posted: the custom IDE list, screenshots and tags, and the lifecycle the
 * server adds for the item's developers (a developer signed in on the marketplace may view a host page).
 */
export const EMBED_OMITTED_FIELDS = ['customIdeList', 'screenshots', 'tags', 'lifecycle'] as const;

type OmittedInfoField = (typeof EMBED_OMITTED_INFO_FIELDS)[number];
type OmittedField = (typeof EMBED_OMITTED_FIELDS)[number];

export type EmbedItemInfo = Omit<PluginInfo, OmittedInfoField>;

/** The item data an embed page posts to its host: the item without the omitted fields, rating = mean rating. */
export type EmbedItemData = Omit<Plugin, OmittedField | 'info' | 'rating'> & {
  info: EmbedItemInfo;
  /** Mean rating, 0 to 5 (0 when nobody has rated the item yet). */
  rating: number;
};

/** Builds the posted item data from the item and its mean rating. */
export function toEmbedItemData(plugin: Plugin, meanRating: number): EmbedItemData {
  const copy: Record<string, unknown> = { ...plugin };
  for (const field of EMBED_OMITTED_FIELDS) delete copy[field];
  const info: Record<string, unknown> = { ...plugin.info };
  for (const field of EMBED_OMITTED_INFO_FIELDS) delete info[field];
  const rating = Number.isFinite(meanRating) ? Math.min(Math.max(meanRating, 0), 5) : 0;
  return { ...(copy as Omit<Plugin, OmittedField | 'info' | 'rating'>), info: info as EmbedItemInfo, rating };
}

/**
 * Checks what a host relies on: numeric id, an info object with a name, and a mean rating in range.
 * Fields the embed page must never post make the data invalid, so a host notices a leaking sender.
 */
export function isEmbedItemData(value: unknown): value is EmbedItemData {
  if (!isRecord(value) || !isRecord(value.info)) return false;
  const info = value.info;
  if (typeof value.id !== 'number' || !Number.isInteger(value.id)) return false;
  if (typeof info.name !== 'string') return false;
  if (!isNonNegativeFiniteNumber(value.rating) || value.rating > 5) return false;
  if (EMBED_OMITTED_FIELDS.some((field) => field in value)) return false;
  return !EMBED_OMITTED_INFO_FIELDS.some((field) => field in info);
}
