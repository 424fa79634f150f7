import { describe, expect, it } from 'vitest';
import { isValidWebsite, normalizeLink, opensInSameWindow } from './links';

describe('website validation', () => {
  it('accepts a domain with or without http, https or ftp', () => {
    expect(isValidWebsite('example.com')).toBe(true);
    expect(isValidWebsite('www.example.co.uk')).toBe(true);
    expect(isValidWebsite('http://example.com')).toBe(true);
    expect(isValidWebsite('HTTPS://Example.COM')).toBe(true);
    expect(isValidWebsite('ftp://files.example.org')).toBe(true);
  });

  it('accepts credentials, port, path, query and fragment', () => {
    expect(isValidWebsite('https://user:secret@example.com:8443/docs/start?lang=en&x=1#install')).toBe(true);
  });

  it('accepts e-mail addresses, which read as credentials and a host, so link fields can hold them', () => {
    expect(isValidWebsite('user@example.com')).toBe(true);
    expect(isValidWebsite('mailto:dev@example.com')).toBe(true);
    expect(normalizeLink('user@example.com')).toBe('mailto:user@example.com');
    expect(isValidWebsite('example.com/path/to/page')).toBe(true);
    expect(isValidWebsite('example.com?q=1')).toBe(true);
    expect(isValidWebsite('example.com#top')).toBe(true);
  });

  it('accepts IPv4 addresses and rejects octets above 255', () => {
    expect(isValidWebsite('http://192.168.0.1:8080/admin')).toBe(true);
    expect(isValidWebsite('10.0.0.255')).toBe(true);
    expect(isValidWebsite('256.1.1.1')).toBe(false);
    expect(isValidWebsite('1.2.3')).toBe(false);
  });

  it('accepts internationalised and punycode domains', () => {
    expect(isValidWebsite('https://bücher.de')).toBe(true);
    expect(isValidWebsite('https://example.xn--p1ai')).toBe(true);
  });

  it('ignores spaces around the value', () => {
    expect(isValidWebsite('  example.com  ')).toBe(true);
  });

  it('rejects other schemes, hosts without a domain, spaces inside and empty values', () => {
    for (const value of [
      '',
      '   ',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'localhost',
      'http://localhost:3000',
      'example',
      'exa mple.com',
      'example.com/a b',
      '-example.com',
      'example-.com',
      'example.c',
      'https://',
      'https://example.com:0',
      'https://example.com:65536',
    ]) {
      expect(isValidWebsite(value), value).toBe(false);
    }
    expect(isValidWebsite(null)).toBe(false);
    expect(isValidWebsite(undefined)).toBe(false);
  });

  it('accepts the highest port and rejects host names longer than DNS allows', () => {
    expect(isValidWebsite('https://example.com:65535')).toBe(true);
    const longHost = `${'a'.repeat(60)}.`.repeat(5) + 'com';
    expect(longHost.length).toBeGreaterThan(253);
    expect(isValidWebsite(longHost)).toBe(false);
  });
});

describe('link normalisation', () => {
  it('adds mailto: to a value with an @ sign', () => {
    expect(normalizeLink('support@example.com')).toBe('mailto:support@example.com');
  });

  it('adds https:// when the value has no scheme', () => {
    expect(normalizeLink('example.com/docs')).toBe('https://example.com/docs');
    expect(normalizeLink('  example.com  ')).toBe('https://example.com');
  });

  it('keeps links that already have a scheme, including credentials with an @ sign', () => {
    expect(normalizeLink('http://example.com')).toBe('http://example.com');
    expect(normalizeLink('ftp://files.example.com')).toBe('ftp://files.example.com');
    expect(normalizeLink('mailto:support@example.com')).toBe('mailto:support@example.com');
    expect(normalizeLink('MAILTO:support@example.com')).toBe('MAILTO:support@example.com');
    expect(normalizeLink('https://user@example.com')).toBe('https://user@example.com');
  });

  it('keeps paths on this site and sends protocol-relative links to https', () => {
    expect(normalizeLink('/plugin/123-tool')).toBe('/plugin/123-tool');
    expect(normalizeLink('//cdn.example.com/x')).toBe('https://cdn.example.com/x');
  });

  it('never turns a script into a runnable link', () => {
    expect(normalizeLink('javascript:alert(1)')).toBe('https://javascript:alert(1)');
  });

  it('gives an empty link for an empty value', () => {
    expect(normalizeLink('')).toBe('');
    expect(normalizeLink('   ')).toBe('');
  });
});

describe('where a link opens', () => {
  it('opens mail links and paths on this site in the same window', () => {
    expect(opensInSameWindow('mailto:support@example.com')).toBe(true);
    expect(opensInSameWindow('Mailto:support@example.com')).toBe(true);
    expect(opensInSameWindow('/plugin/123')).toBe(true);
  });

  it('opens every other link in a new window', () => {
    expect(opensInSameWindow('https://example.com')).toBe(false);
    expect(opensInSameWindow('//example.com')).toBe(false);
    expect(opensInSameWindow('plugin/123')).toBe(false);
    expect(opensInSameWindow('')).toBe(false);
  });
});
