import { afterEach, describe, expect, it, vi } from 'vitest';
import { rememberScriptUrl, resolveApiBase, sdkScriptOrigin } from './api-base';

describe('resolveApiBase', () => {
  afterEach(() => vi.restoreAllMocks());

  it('uses the page origin when neither the attribute nor the script says otherwise', () => {
    expect(resolveApiBase(null)).toBe(window.location.origin);
  });

  it('takes an http(s) attribute as given, without trailing slashes', () => {
    expect(resolveApiBase(' https://market.example/base/ ')).toBe('https://market.example/base');
  });

  it('refuses a non-http attribute with a console warning and falls back', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(resolveApiBase('javascript:alert(1)')).toBe(window.location.origin);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('is not an http(s) URL'));
  });

  it('defaults to the origin of the SDK script once it is known, ignoring file: URLs', () => {
    rememberScriptUrl('file:///tmp/mp-widget.js');
    expect(sdkScriptOrigin()).toBeUndefined();
    rememberScriptUrl('https://market.example:8443/sdk/mp-widget.js');
    expect(sdkScriptOrigin()).toBe('https://market.example:8443');
    expect(resolveApiBase('')).toBe('https://market.example:8443');
  });
});
