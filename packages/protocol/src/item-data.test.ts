import type { Plugin } from '@marketplace/core';
import { describe, expect, it } from 'vitest';
import { createMessage } from './create-message';
import { isWidgetMessage } from './guards';
import { isEmbedItemData, toEmbedItemData } from './item-data';

const plugin: Plugin = {
  id: 42,
  removed: false,
  status: 'resolved',
  info: {
    id: 42,
    name: 'Rainbow Brackets',
    family: 'intellij',
    link: '/plugin/42-rainbow-brackets',
    approve: true,
    hasUnapprovedUpdate: true,
    isHidden: false,
    description: '<p>Colours brackets</p>',
    preview: 'Colours brackets',
    docText: '',
    email: 'dev@example.com',
    downloads: 1234,
    xmlId: 'com.example.rainbow',
    copyright: '',
    removalRequested: true,
    icon: 'https://plugins.example.com/files/icon.svg',
    cdate: 1_700_000_000_000,
    pricingModel: 'FREEMIUM',
    isMonetizationAvailable: false,
    isBlocked: false,
    isModificationAllowed: true,
  },
  screenshots: [{ url: 'https://plugins.example.com/files/shot.png' }],
  tags: [
    { id: 1, name: 'Editor', link: '/search?tags=Editor', privileged: false, searchable: true, families: [] },
  ],
  rating: { status: 'resolved', meanRating: 4.4, votes: { '5': 3, '4': 1 } },
  vendor: { name: 'Example', url: 'https://example.com' },
  urls: {
    donationLinks: [],
    bugtrackerUrl: '',
    forumUrl: '',
    licenseUrl: '',
    sourceCodeUrl: '',
    docUrl: '',
    url: '',
    customContacts: [],
    privacyPolicyUrl: '',
  },
  language: null,
  programmingLanguage: null,
  developers: { status: 'idle', data: [] },
  bundles: { status: 'idle', data: [] },
  customTabs: [],
  themes: [],
};

describe('embed item data', () => {
  it('leaves out moderation and commercial fields, screens, tags and the custom IDE list', () => {
    const lifecycle = { lifecycleState: 'draft', approved: false, pendingVersions: 1 };
    const data = toEmbedItemData({ ...plugin, customIdeList: ['IU'], lifecycle } as Plugin, 4.4);
    expect(data).not.toHaveProperty('screenshots');
    expect(data).not.toHaveProperty('tags');
    expect(data).not.toHaveProperty('customIdeList');
    // What its developers are shown of its lifecycle stays on the marketplace.
    expect(data).not.toHaveProperty('lifecycle');
    for (const field of ['approve', 'hasUnapprovedUpdate', 'pricingModel', 'removalRequested']) {
      expect(data.info).not.toHaveProperty(field);
    }
    expect(data.info.name).toBe('Rainbow Brackets');
    expect(data.info.downloads).toBe(1234);
    expect(data.vendor).toEqual(plugin.vendor);
  });

  it('sets the rating to the mean rating, kept within 0 to 5', () => {
    expect(toEmbedItemData(plugin, 4.4).rating).toBe(4.4);
    expect(toEmbedItemData(plugin, 7).rating).toBe(5);
    expect(toEmbedItemData(plugin, Number.NaN).rating).toBe(0);
  });

  it('does not change the item it was built from', () => {
    toEmbedItemData(plugin, 4.4);
    expect(plugin.info.approve).toBe(true);
    expect(plugin.tags).toHaveLength(1);
  });

  it('travels as a valid item-data message', () => {
    const message = createMessage('embed:item-data', { item: toEmbedItemData(plugin, 4.4) });
    expect(isWidgetMessage(message)).toBe(true);
    expect(isWidgetMessage(JSON.parse(JSON.stringify(message)))).toBe(true);
  });

  it('is refused when it carries a field that must not be posted', () => {
    const leaking = { ...toEmbedItemData(plugin, 4), tags: [] };
    expect(isEmbedItemData(leaking)).toBe(false);
    const leakingInfo = { ...toEmbedItemData(plugin, 4), info: { ...plugin.info } };
    expect(isEmbedItemData(leakingInfo)).toBe(false);
    expect(isEmbedItemData({ ...toEmbedItemData(plugin, 4), rating: 6 })).toBe(false);
    expect(isEmbedItemData({ ...toEmbedItemData(plugin, 4), id: '42' })).toBe(false);
  });
});
