import type { RatingCategory } from '@marketplace/core';

export const RATING_CATEGORY_LABELS: Readonly<Record<RatingCategory, string>> = {
  INTEGRATION: 'Integration',
  PERFORMANCE: 'Performance',
  AVAILABLE_FEATURES: 'Features',
  USER_INTERFACE: 'User interface',
  DOCUMENTATION_QUALITY: 'Documentation',
  PRICING_POLICY: 'Pricing policy',
};
