import { describe, expect, it } from 'vitest';
import { pluginFixture } from '../test-support/plugin-fixture';
import type { Plugin } from '@marketplace/core';
import { itemPageUrl } from './loaded-item';

function withLink(link: string): Plugin {
  const plugin = pluginFixture({ id: 7 });
  return { ...plugin, info: { ...plugin.info, link } } as unknown as Plugin;
}

describe('itemPageUrl', () => {
  it('makes the item path absolute on the marketplace', () => {
    expect(itemPageUrl(withLink('/plugin/7-rainbow'), 'https://market.example/base')).toBe(
      'https://market.example/plugin/7-rainbow',
    );
  });

  it('never turns an odd link into a script or another site', () => {
    expect(itemPageUrl(withLink('javascript:alert(1)'), 'https://market.example')).toBe(
      'https://market.example/plugin/7',
    );
    expect(itemPageUrl(withLink('https://elsewhere.example/x'), 'https://market.example')).toBe(
      'https://market.example/plugin/7',
    );
  });
});
