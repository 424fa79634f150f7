import type { FeaturedItemsBody } from '@marketplace/api-contract';
import type { ProductFamily } from '@marketplace/core';
import type { ApiTransport, CallOptions } from './transport';

export type FeaturedItems = FeaturedItemsBody;

/** The paths of the featured items per product family (api-contract's admin-featured.ts). */
export const featuredItemPaths = {
  list: (family: ProductFamily) => `/api/featured/${encodeURIComponent(family)}`,
  set: (family: ProductFamily) => `/api/admin/featured/${encodeURIComponent(family)}`,
};

/**
 * The administrators' featured items of each product family, which the site's home page shows (not the
 * per-IDE-product staff picks of `getFeatured`).
 */
export class FeaturedItemsClient {
  constructor(private readonly transport: ApiTransport) {}

  /** Anyone: the family's featured items in order, those the viewer may not see left out. */
  list(family: ProductFamily, options: CallOptions = {}): Promise<FeaturedItems> {
    return this.transport.sendJson({ ...options, method: 'GET', path: featuredItemPaths.list(family) });
  }

  /** Administrators: replaces the family's list with these items, in order; answers the new list. */
  set(
    family: ProductFamily,
    pluginIds: readonly number[],
    options: CallOptions = {},
  ): Promise<FeaturedItems> {
    return this.transport.sendJson({
      ...options,
      method: 'PUT',
      path: featuredItemPaths.set(family),
      json: { pluginIds: [...pluginIds] },
    });
  }
}
