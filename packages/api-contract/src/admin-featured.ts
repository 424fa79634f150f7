/**
 * Featured items per product family: the administrators' picks the site's home page shows, in their order
 * (separate from `/api/featured-plugins/...`, the per-IDE-product staff picks of the IDE's marketplace window).
 *
 * Routes:
 * - `GET /api/featured/{family}`: the family's featured items as summaries, in order; items the viewer may
 *   not see (hidden, unapproved, blocked) are left out (anyone).
 * - `PUT /api/admin/featured/{family}`: replace the family's list with `pluginIds`, in order, and answer it
 *   (administrators; recorded in the audit log). An unknown item, one of another family or a deleted one,
 *   an id given twice or more than {@link FEATURED_ITEMS_MAX} ids answer 400 and change nothing.
 *
 * Per-IDE-product staff picks (table `featured_plugins`, what the IDE's marketplace window shows for
 * `is_featured_search` and the search's `isFeaturedSearch` filter keeps):
 * - `GET /api/featured-plugins/product?product={key}` (social.ts): the product's picks, in order (anyone).
 * - `PUT /api/admin/featured-plugins/{product}`: replace the product's picks with `pluginIds`, in order, and
 *   answer them (administrators; audit action `featured-plugins.set` on subject `featured-plugins:{product}`).
 *   An unknown or deleted item, one of another family than the product's, one that names compatible products
 *   without this one, an id given twice or more than {@link FEATURED_PLUGINS_MAX} ids answer 400 and change
 *   nothing.
 */
import { IDE_PRODUCT_KEYS } from '@marketplace/core';
import { Type, type Static } from 'typebox';
import { FamilySchema } from './common';
import { PluginSummarySchema } from './plugins';

/** The most items one family's featured list holds. */
export const FEATURED_ITEMS_MAX = 24;

export const FeaturedFamilyParams = Type.Object({ family: FamilySchema });
export type FeaturedFamilyParams = Static<typeof FeaturedFamilyParams>;

/** PUT /api/admin/featured/{family}: the whole list, first shown first; [] empties it. */
export const SetFeaturedItemsBody = Type.Object({
  pluginIds: Type.Array(Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), {
    maxItems: FEATURED_ITEMS_MAX,
    description: `Item ids in display order, at most ${FEATURED_ITEMS_MAX}, each once, all of the family`,
  }),
});
export type SetFeaturedItemsBody = Static<typeof SetFeaturedItemsBody>;

export const FeaturedItemsSchema = Type.Array(PluginSummarySchema);
export type FeaturedItemsBody = Static<typeof FeaturedItemsSchema>;

/** The most staff picks one IDE product holds (the IDE's window shows a short list). */
export const FEATURED_PLUGINS_MAX = 24;

export const FeaturedProductParams = Type.Object({
  product: Type.Enum([...IDE_PRODUCT_KEYS], { description: 'IDE product key, e.g. IDEA' }),
});
export type FeaturedProductParams = Static<typeof FeaturedProductParams>;

/** PUT /api/admin/featured-plugins/{product}: the product's whole list of picks, first shown first; [] empties it. */
export const SetFeaturedPluginsBody = Type.Object({
  pluginIds: Type.Array(Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), {
    maxItems: FEATURED_PLUGINS_MAX,
    description: `Item ids in display order, at most ${FEATURED_PLUGINS_MAX}, each once, all running on the product`,
  }),
});
export type SetFeaturedPluginsBody = Static<typeof SetFeaturedPluginsBody>;
