import { describe, expect, it } from 'vitest';
import { consentFromCookies, mayHashVisitor } from './index';

describe('consent', () => {
  it('reads the choice from a Cookie header among other cookies, and ignores anything else', () => {
    expect(consentFromCookies('a=1; mp_consent=granted; b=2')).toBe('granted');
    expect(consentFromCookies('mp_consent=denied')).toBe('denied');
    expect(consentFromCookies('mp_consent=maybe')).toBeUndefined();
    expect(consentFromCookies('xmp_consent=granted')).toBeUndefined();
    expect(consentFromCookies(undefined)).toBeUndefined();
  });

  it('a decline is always honoured; the operator decides for requests without a choice', () => {
    for (const requirement of ['none', 'browsers', 'all'] as const) {
      expect(mayHashVisitor(requirement, 'denied', false)).toBe(false);
      expect(mayHashVisitor(requirement, 'granted', false)).toBe(true);
    }
    expect(mayHashVisitor('none', undefined, false)).toBe(true);
    expect(mayHashVisitor('browsers', undefined, false)).toBe(false);
    // The IDE sends no cookie: under `browsers` its requests keep their hash, under `all` they lose it.
    expect(mayHashVisitor('browsers', undefined, true)).toBe(true);
    expect(mayHashVisitor('all', undefined, true)).toBe(false);
  });
});
