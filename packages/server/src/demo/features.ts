import { SITE_FEATURES } from '@marketplace/core';
import type { Queryable } from '../db/client';
import { featureFlags } from '../db/schema';

/**
 * The demo's feature flags: the two the site reads, so an operator trying the admin screen sees a flag change
 * the home page. The newest-items section starts off (flip it on in /admin/features); the search hint is shown
 * to half of the visitors (sticky per user or browser).
 */
export async function writeDemoFeatures(tx: Queryable): Promise<void> {
  await tx.insert(featureFlags).values([
    {
      name: SITE_FEATURES.homeNewItems,
      type: 'boolean',
      description: 'Shows the “New on the marketplace” section (newest items first) on the home page.',
      value: false,
    },
    {
      name: SITE_FEATURES.homeSearchHint,
      type: 'percentage',
      description:
        'Tells visitors on the home page how the search field suggests items and tags as they type.',
      value: 50,
    },
  ]);
}
