import { describe, expect, it, vi } from 'vitest';
import { needsForcedTokenRefresh } from './crawler';
import { codeChallenge } from './pkce';
import { clearTokens, currentAccessToken, onSessionChange } from './session';
import { readStored, writeStored } from './storage';

describe('the crawler rule (spec §4)', () => {
  const googlebot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
  it('forces a token refresh for a crawler with cookies and no redirect flag only', () => {
    expect(needsForcedTokenRefresh({ userAgent: googlebot, cookieEnabled: true, redirected: false })).toBe(
      true,
    );
    expect(needsForcedTokenRefresh({ userAgent: googlebot, cookieEnabled: false, redirected: false })).toBe(
      false,
    );
    expect(needsForcedTokenRefresh({ userAgent: googlebot, cookieEnabled: true, redirected: true })).toBe(
      false,
    );
    const chrome =
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140 Safari/537.36';
    expect(needsForcedTokenRefresh({ userAgent: chrome, cookieEnabled: true, redirected: false })).toBe(
      false,
    );
  });
});

describe('stored values with an expiry', () => {
  it('are removed when read after they expire', () => {
    writeStored(sessionStorage, 'token', 'abc', 2_000);
    expect(readStored(sessionStorage, 'token', 1_000)).toBe('abc');
    expect(readStored(sessionStorage, 'token', 2_000)).toBeUndefined();
    expect(sessionStorage.getItem('token')).toBeNull();
  });

  it('read nothing from a damaged entry instead of failing', () => {
    sessionStorage.setItem('broken', '{not json');
    expect(readStored(sessionStorage, 'broken')).toBeUndefined();
  });
});

describe('PKCE', () => {
  it('derives the S256 challenge of RFC 7636', async () => {
    // The example verifier and challenge of RFC 7636, appendix B.
    expect(await codeChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });
});

describe('the sign-in shared by the tabs of a browser', () => {
  /** What another tab's write to localStorage looks like here: the value changes, then a storage event. */
  function otherTabWrites(value: string | null) {
    const oldValue = localStorage.getItem('mp-auth-tokens');
    if (value === null) localStorage.removeItem('mp-auth-tokens');
    else localStorage.setItem('mp-auth-tokens', value);
    window.dispatchEvent(
      new StorageEvent('storage', {
        key: 'mp-auth-tokens',
        oldValue,
        newValue: value,
        storageArea: localStorage,
      }),
    );
  }

  it('is read from localStorage, and follows another tab signing in and out', () => {
    clearTokens();
    const changed = vi.fn();
    const stop = onSessionChange(changed);
    try {
      expect(currentAccessToken()).toBeUndefined();
      otherTabWrites(
        JSON.stringify({ value: { accessToken: 'from-the-other-tab' }, expiresAt: Date.now() + 60_000 }),
      );
      expect(changed).toHaveBeenCalledTimes(1);
      expect(currentAccessToken()).toBe('from-the-other-tab');
      otherTabWrites(null);
      expect(changed).toHaveBeenCalledTimes(2);
      expect(currentAccessToken()).toBeUndefined();
    } finally {
      stop();
    }
  });

  it('ignores other keys, and is forgotten in every tab on sign-out', () => {
    const changed = vi.fn();
    const stop = onSessionChange(changed);
    try {
      window.dispatchEvent(new StorageEvent('storage', { key: 'mp-consent', storageArea: localStorage }));
      expect(changed).not.toHaveBeenCalled();
      writeStored(localStorage, 'mp-auth-tokens', { accessToken: 'mine' }, Date.now() + 60_000);
      clearTokens();
      expect(localStorage.getItem('mp-auth-tokens')).toBeNull();
    } finally {
      stop();
    }
  });
});
