import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineMarketplaceElements } from './define-all';
import { WIDGET_ELEMENT_NAMES } from './loader/widget-types';

describe('defineMarketplaceElements', () => {
  afterEach(() => vi.restoreAllMocks());

  it('registers an element for every widget type of the loader, and a second call changes nothing', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    defineMarketplaceElements();
    const first = Object.values(WIDGET_ELEMENT_NAMES).map((name) => customElements.get(name));
    expect(first.every((constructor) => constructor !== undefined)).toBe(true);
    defineMarketplaceElements();
    expect(Object.values(WIDGET_ELEMENT_NAMES).map((name) => customElements.get(name))).toEqual(first);
    expect(warn).not.toHaveBeenCalled();
  });
});
