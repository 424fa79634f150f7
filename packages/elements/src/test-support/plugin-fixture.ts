import type { PluginBody } from '@marketplace/api-contract';

/* The API's answer (api-contract's shape); the components read it as core's Plugin. */

/** 30 days of downloads ending on 2026-11-20, 3 on the last day and none before. */
export const FIXTURE_DOWNLOADS = Array.from({ length: 30 }, (_, index) => ({
  name: new Date(Date.UTC(2026, 10, 20) - (29 - index) * 86_400_000).toISOString().slice(0, 10),
  value: index === 29 ? 3 : 0,
}));

/** An item as GET /api/plugins/{id} answers it, for element tests. */
export function pluginFixture(
  overrides: { id?: number; name?: string; programmingLanguage?: string | null } = {},
) {
  const id = overrides.id ?? 7;
  const name = overrides.name ?? 'Rainbow Brackets';
  const body: PluginBody = {
    id,
    removed: false,
    status: 'resolved',
    info: {
      id,
      name,
      family: 'intellij',
      link: `/plugin/${id}-rainbow-brackets`,
      approve: true,
      hasUnapprovedUpdate: false,
      isHidden: false,
      description: '<p>Colours matching brackets.</p>',
      preview: 'Colours matching brackets.',
      docText: '',
      email: '',
      downloads: 1234,
      xmlId: 'com.example.rainbow',
      copyright: '',
      removalRequested: false,
      icon: '',
      cdate: Date.UTC(2024, 0, 1),
      pricingModel: 'FREE',
      isMonetizationAvailable: false,
      isBlocked: false,
      isModificationAllowed: true,
      updateDate: Date.UTC(2025, 5, 1),
    },
    screenshots: [],
    tags: [],
    rating: { status: 'resolved', meanRating: 4.5, votes: { '1': 0, '2': 0, '3': 0, '4': 1, '5': 1 } },
    vendor: { name: 'Example Tools', url: '' },
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
    programmingLanguage: overrides.programmingLanguage ?? null,
    developers: { status: 'idle', data: [] },
    bundles: { status: 'idle', data: [] },
    customTabs: [],
    themes: [],
    compatibleProducts: [],
    downloadStatistics: FIXTURE_DOWNLOADS,
  };
  return body;
}

/** A fetch that answers the marketplace reads of the elements from `items`, 404 otherwise. */
export function marketplaceFetch(apiBase: string, items: PluginBody[]): typeof fetch {
  return async (input) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const json = (body: unknown, status = 200) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (url.origin !== new URL(apiBase).origin) return json({ message: 'wrong host' }, 404);
    const item = /^\/api\/plugins\/(\d+)$/.exec(url.pathname);
    if (item) {
      const found = items.find((plugin) => plugin.id === Number(item[1]));
      return found ? json(found) : json({ message: 'Plugin not found' }, 404);
    }
    return json({ message: 'Not found' }, 404);
  };
}
