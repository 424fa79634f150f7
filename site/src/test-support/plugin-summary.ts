import type { PluginSummary } from '@marketplace/api-client';

/**
 * An item as the API's lists answer it (search, an author's or a developer's items), for site tests: a free
 * IntelliJ plugin with no downloads, reviews or tags; `overrides` sets what a test looks at.
 */
export function pluginSummaryFixture<Overrides extends Partial<PluginSummary>>(
  id: number,
  overrides: Overrides = {} as Overrides,
): PluginSummary & Overrides {
  return {
    id,
    xmlId: `com.example.${id}`,
    name: `Item ${id}`,
    link: `/plugin/${id}`,
    family: 'intellij',
    preview: '',
    icon: '',
    downloads: 0,
    rating: 0,
    pricingModel: 'FREE',
    vendor: { name: '', url: '' },
    tags: [],
    isTheme: false,
    cdate: 0,
    updateDate: 0,
    downloadStatistics: [],
    ...overrides,
  };
}
