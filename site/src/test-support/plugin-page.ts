import type { Plugin } from '@marketplace/api-client';

/**
 * An item as its page loads it (`GET /api/plugins/{id}`), for site tests: Rainbow Kit (42), a free IntelliJ
 * plugin by Example Corp with no developers, bundles, themes or products listed; `extra` sets what a test
 * looks at.
 */
export function pluginPageFixture(extra: Partial<Plugin> = {}): Plugin {
  return {
    id: 42,
    removed: false,
    status: 'resolved',
    info: {
      id: 42,
      name: 'Rainbow Kit',
      family: 'intellij',
      link: '/plugin/42-rainbow-kit',
      approve: true,
      hasUnapprovedUpdate: false,
      isHidden: false,
      description: '<p>Colours.</p>',
      preview: 'Colours.',
      docText: '',
      email: '',
      downloads: 1200,
      xmlId: 'com.example.rainbow-kit',
      copyright: '',
      removalRequested: false,
      icon: '',
      cdate: Date.UTC(2026, 0, 2),
      pricingModel: 'FREE',
      isMonetizationAvailable: false,
      isBlocked: false,
      isModificationAllowed: true,
      updateDate: Date.UTC(2026, 1, 2),
    },
    screenshots: [],
    tags: [],
    rating: { status: 'resolved', meanRating: 0, votes: { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 } },
    vendor: { name: 'Example Corp', url: '' },
    urls: {
      url: '',
      bugtrackerUrl: '',
      forumUrl: '',
      licenseUrl: '',
      sourceCodeUrl: '',
      docUrl: '',
      privacyPolicyUrl: '',
      donationLinks: [],
      customContacts: [],
    },
    language: null,
    programmingLanguage: null,
    developers: { status: 'resolved', data: [] },
    bundles: { status: 'resolved', data: [] },
    customTabs: [],
    themes: [],
    compatibleProducts: [],
    downloadStatistics: [],
    ...extra,
  };
}
