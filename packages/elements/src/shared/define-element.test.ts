import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineElement } from './define-element';

class FirstElement extends HTMLElement {}
class SecondElement extends HTMLElement {}

describe('defineElement', () => {
  afterEach(() => vi.restoreAllMocks());

  it('defines a free name and skips a second definition by the same SDK version without a warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(defineElement('mp-test-once', FirstElement)).toBe('defined');
    expect(defineElement('mp-test-once', SecondElement)).toBe('already-defined');
    expect(customElements.get('mp-test-once')).toBe(FirstElement);
    expect(warn).not.toHaveBeenCalled();
  });

  it('keeps an element someone else defined under the name and warns about it', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    customElements.define('mp-test-foreign', class extends HTMLElement {});
    expect(defineElement('mp-test-foreign', FirstElement)).toBe('defined-by-other-version');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('<mp-test-foreign> is already registered'));
  });

  it('warns when another version of the SDK registered the element first', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const older = class extends HTMLElement {};
    Object.defineProperty(older, Symbol.for('plugin-marketplace.sdk-version'), { value: '0.0.1' });
    customElements.define('mp-test-older', older);
    expect(defineElement('mp-test-older', FirstElement)).toBe('defined-by-other-version');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('by version 0.0.1'));
  });
});
