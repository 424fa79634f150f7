import { describe, expect, it } from 'vitest';
import { addressRuleFor, nonPublicKind, RefusedAddressError } from '../../src/trust/mirror/addresses';

describe('the addresses a mirror may fetch from', () => {
  it('tells public addresses from loopback, private, link-local and the IPv6 forms that carry them', () => {
    for (const address of ['8.8.8.8', '151.101.1.69', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e']) {
      expect(nonPublicKind(address), address).toBeUndefined();
    }
    expect(nonPublicKind('127.0.0.1')).toBe('a loopback address');
    expect(nonPublicKind('127.8.9.10')).toBe('a loopback address');
    expect(nonPublicKind('::1')).toBe('a loopback address');
    expect(nonPublicKind('10.1.2.3')).toBe('a private address');
    expect(nonPublicKind('172.31.255.1')).toBe('a private address');
    expect(nonPublicKind('192.168.0.10')).toBe('a private address');
    expect(nonPublicKind('169.254.169.254')).toContain('link-local');
    expect(nonPublicKind('100.64.0.1')).toContain('carrier-grade NAT');
    expect(nonPublicKind('0.0.0.0')).toBeDefined();
    expect(nonPublicKind('fd00::1')).toContain('unique local');
    expect(nonPublicKind('fe80::1')).toContain('link-local');
    // IPv4 inside IPv6: mapped, NAT64 and 6to4 reach the IPv4 address they carry.
    expect(nonPublicKind('::ffff:127.0.0.1')).toBe('a loopback address');
    expect(nonPublicKind('::ffff:a9fe:a9fe')).toContain('link-local');
    expect(nonPublicKind('64:ff9b::10.0.0.1')).toBe('a private address');
    expect(nonPublicKind('2002:c0a8:0101::1')).toBe('a private address');
    expect(nonPublicKind('::ffff:8.8.8.8')).toBeUndefined();
  });

  it('lets an upstream on a private address reach its own origin only, and a public one nothing private', async () => {
    const internal = await addressRuleFor('http://127.0.0.1:8080');
    expect(() => internal.check(new URL('http://127.0.0.1:8080/plugin/download?id=1'))).not.toThrow();
    expect(() => internal.check(new URL('https://downloads.example.com/files/1.zip'))).not.toThrow();
    expect(() => internal.check(new URL('http://127.0.0.1:9090/'))).toThrow(
      'http://127.0.0.1:9090/ was not fetched: 127.0.0.1 is a loopback address. The mirror fetches only from the upstream http://127.0.0.1:8080 and from hosts on public addresses.',
    );
    expect(() => internal.check(new URL('http://[::ffff:169.254.169.254]/latest/'))).toThrow(
      /::ffff:a9fe:a9fe is a link-local address/,
    );
    expect(() => internal.check(new URL('file:///etc/passwd'))).toThrow(RefusedAddressError);

    const outside = await addressRuleFor('http://93.184.215.14');
    expect(() => outside.check(new URL('http://93.184.215.14/plugins/list/'))).not.toThrow();
    expect(() => outside.check(new URL('http://10.0.0.7/files/a.zip'))).toThrow(
      /10\.0\.0\.7 is a private address/,
    );
  });

  it('checks names at the look-up the connection makes', async () => {
    const outside = await addressRuleFor('http://93.184.215.14');
    const lookup = outside.lookupFor(new URL('http://localhost:8080/a.zip'));
    const error = await new Promise<unknown>((resolve) => {
      lookup('localhost', { all: true }, (problem) => resolve(problem));
    });
    expect(error).toBeInstanceOf(RefusedAddressError);
    expect((error as Error).message).toMatch(
      /^http:\/\/localhost:8080\/a\.zip was not fetched: localhost \((127\.0\.0\.1|::1)\) is a loopback address/,
    );

    // The upstream's own name may resolve to a private address when the upstream is on one.
    const ownName = await addressRuleFor('http://localhost:8080');
    const own = await new Promise<unknown>((resolve) => {
      ownName.lookupFor(new URL('http://localhost:8080/a.zip'))(
        'localhost',
        { all: true },
        (problem, found) => resolve(problem ?? found),
      );
    });
    expect(Array.isArray(own) && own.length > 0).toBe(true);
  });
});
