import { describe, expect, it } from 'vitest';
import { createOriginAllowlist, InvalidOriginError, parseOrigin } from './origin';

describe('origins', () => {
  it('reduce page URLs to their origin, dropping default ports', () => {
    expect(parseOrigin('https://plugins.example.com/plugin/1?x=1')).toBe('https://plugins.example.com');
    expect(parseOrigin('https://plugins.example.com:443')).toBe('https://plugins.example.com');
    expect(parseOrigin('http://localhost:8080/')).toBe('http://localhost:8080');
  });

  it.each(['*', 'null', '', 'plugins.example.com', 'file:///etc/passwd', 'javascript:alert(1)', 'data:,x'])(
    'are never %j',
    (value) => {
      expect(parseOrigin(value)).toBeUndefined();
    },
  );

  it('allow exactly the listed origins', () => {
    const allowlist = createOriginAllowlist(['https://plugins.example.com/', ' http://localhost:8080 ']);
    expect(allowlist.origins).toEqual(['https://plugins.example.com', 'http://localhost:8080']);
    expect(allowlist.allows('https://plugins.example.com')).toBe(true);
    expect(allowlist.allows('http://localhost:8080')).toBe(true);
    expect(allowlist.allows('http://plugins.example.com')).toBe(false);
    expect(allowlist.allows('https://plugins.example.com.evil.test')).toBe(false);
    expect(allowlist.allows('https://evil.test')).toBe(false);
    expect(allowlist.allows('null')).toBe(false);
  });

  it('refuse a wildcard in the allowlist with a message that says what to give', () => {
    expect(() => createOriginAllowlist(['*'])).toThrow(InvalidOriginError);
    expect(() => createOriginAllowlist(['*'])).toThrow(/scheme, host and optional port/);
  });
});
