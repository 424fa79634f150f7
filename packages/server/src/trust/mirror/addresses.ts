import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { lookup as dnsLookupAll } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/*
 * Which addresses the mirror may connect to. An upstream's feed names download addresses on any host, and any
 * host may redirect: a hostile upstream could make this server fetch its own loopback services, the cloud's
 * metadata address (169.254.169.254) or the office network. So every connection (feed, download, each
 * redirect) goes only to public addresses, with one exception: the upstream's own origin when the upstream
 * itself is on a private address (another instance on the same network, or on loopback in the tests). The
 * check runs where the connection is made (the request's DNS lookup), so a name that answers a public address
 * to one look-up and a private one to the next (DNS rebinding) is still refused.
 */

/** Address ranges that are not the public internet, each with the words an administrator reads. */
const NOT_PUBLIC: [kind: string, family: 'ipv4' | 'ipv6', network: string, prefix: number][] = [
  ['a "this network" address', 'ipv4', '0.0.0.0', 8],
  ['a private address', 'ipv4', '10.0.0.0', 8],
  ['a shared (carrier-grade NAT) address', 'ipv4', '100.64.0.0', 10],
  ['a loopback address', 'ipv4', '127.0.0.0', 8],
  ['a link-local address (where clouds answer instance metadata)', 'ipv4', '169.254.0.0', 16],
  ['a private address', 'ipv4', '172.16.0.0', 12],
  ['a reserved address', 'ipv4', '192.0.0.0', 24],
  ['a documentation address', 'ipv4', '192.0.2.0', 24],
  ['a private address', 'ipv4', '192.168.0.0', 16],
  ['a benchmarking address', 'ipv4', '198.18.0.0', 15],
  ['a documentation address', 'ipv4', '198.51.100.0', 24],
  ['a documentation address', 'ipv4', '203.0.113.0', 24],
  ['a multicast address', 'ipv4', '224.0.0.0', 4],
  ['a reserved address', 'ipv4', '240.0.0.0', 4],
  ['the unspecified address', 'ipv6', '::', 128],
  ['a loopback address', 'ipv6', '::1', 128],
  ['a discard address', 'ipv6', '100::', 64],
  ['a documentation address', 'ipv6', '2001:db8::', 32],
  ['a private (unique local) address', 'ipv6', 'fc00::', 7],
  ['a link-local address', 'ipv6', 'fe80::', 10],
  ['a site-local address', 'ipv6', 'fec0::', 10],
  ['a multicast address', 'ipv6', 'ff00::', 8],
];

const ranges = NOT_PUBLIC.map(([kind, family, network, prefix]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return { kind, family, list };
});

/** The IPv4 address inside an IPv6 one that carries it (`::ffff:a.b.c.d`, NAT64 `64:ff9b::`, 6to4 `2002:`). */
function embeddedIpv4(address: string): string | undefined {
  const words = expandIpv6(address);
  if (!words) return undefined;
  const ipv4 = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  const zeros = (from: number, to: number) => words.slice(from, to).every((word) => word === 0);
  if (zeros(0, 5) && words[5] === 0xffff) return ipv4(words[6]!, words[7]!);
  if (words[0] === 0x64 && words[1] === 0xff9b && zeros(2, 6)) return ipv4(words[6]!, words[7]!);
  if (words[0] === 0x2002) return ipv4(words[1]!, words[2]!);
  return undefined;
}

/** The eight 16-bit words of an IPv6 address (a trailing dotted IPv4 part is understood). */
function expandIpv6(address: string): number[] | undefined {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const part = (words: string) => (words === '' ? [] : words.split(':').map((word) => parseInt(word, 16)));
  const first = part(head);
  const last = tail === undefined ? [] : part(tail);
  const missing = 8 - first.length - last.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return undefined;
  return [...first, ...new Array<number>(missing).fill(0), ...last];
}

/**
 * What kind of address this is when it is not on the public internet ("a loopback address"), else undefined.
 */
export function nonPublicKind(address: string): string | undefined {
  const version = isIP(address);
  if (version === 0) return 'not an IP address';
  if (version === 6) {
    const inner = embeddedIpv4(address);
    if (inner !== undefined) return nonPublicKind(inner);
  }
  const family = version === 4 ? 'ipv4' : 'ipv6';
  return ranges.find((range) => range.family === family && range.list.check(address, family))?.kind;
}

/** A connection the mirror refuses to make: the message is a sentence naming the address. */
export class RefusedAddressError extends Error {
  override name = 'RefusedAddressError';
}

/** URL hosts as `net` wants them: IPv6 literals without their brackets. */
function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** The rule for one upstream's sync: which URLs may be fetched, and the look-up that enforces it. */
export interface AddressRule {
  /**
   * Refuses (throws `RefusedAddressError`) what can be told from the URL alone: another scheme, or a
   * non-public address written as the host. Names are checked when the request looks them up (`lookupFor`).
   */
  check(url: URL): void;
  /** The DNS look-up for a request to `url`: answers only addresses that may be reached. */
  lookupFor(url: URL): LookupFunction;
}

function refusal(url: URL, address: string, kind: string, upstreamOrigin: string): RefusedAddressError {
  const host = bareHost(url);
  const where = host === address ? address : `${host} (${address})`;
  return new RefusedAddressError(
    `${url.href} was not fetched: ${where} is ${kind}. The mirror fetches only from the upstream ` +
      `${upstreamOrigin} and from hosts on public addresses.`,
  );
}

/**
 * The rule for an upstream: private targets are allowed only for the upstream's own origin, and only when
 * the upstream is itself on a non-public address (every address its host resolves to, looked up now, at
 * the start of the sync). Everything else must resolve only to public addresses.
 */
export async function addressRuleFor(baseUrl: string): Promise<AddressRule> {
  const upstream = new URL(baseUrl);
  const upstreamHost = bareHost(upstream);
  let upstreamIsPrivate: boolean;
  /**
   * The private addresses the upstream's name had at the start: the only ones its origin may reach for the
   * rest of the sync, so a name that answers another private address later (the cloud's metadata address,
   * by DNS rebinding) is refused like any other.
   */
  const upstreamAddresses = new Set<string>();
  if (isIP(upstreamHost)) {
    upstreamIsPrivate = nonPublicKind(upstreamHost) !== undefined;
    if (upstreamIsPrivate) upstreamAddresses.add(upstreamHost);
  } else {
    // Not found now: treated as public (the feed's own fetch then says the host cannot be found).
    const addresses = await dnsLookupAll(upstreamHost, { all: true }).catch(() => []);
    upstreamIsPrivate =
      addresses.length > 0 && addresses.every((entry) => nonPublicKind(entry.address) !== undefined);
    if (upstreamIsPrivate) for (const entry of addresses) upstreamAddresses.add(entry.address);
  }
  const mayBePrivate = (url: URL) => upstreamIsPrivate && url.origin === upstream.origin;

  return {
    check(url) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new RefusedAddressError(`${url.href} was not fetched: only http and https addresses are.`);
      }
      const host = bareHost(url);
      if (!isIP(host) || mayBePrivate(url)) return;
      const kind = nonPublicKind(host);
      if (kind !== undefined) throw refusal(url, host, kind, upstream.origin);
    },
    lookupFor(url) {
      // The upstream's own origin, on a private network: the private addresses its name had at the start.
      const anyAddress = mayBePrivate(url);
      return (hostname, options, callback) => {
        dnsLookup(hostname, { ...options, all: true }, (error, found: LookupAddress[]) => {
          if (error) {
            callback(error, '', 0);
            return;
          }
          for (const entry of found) {
            const kind = nonPublicKind(entry.address);
            if (kind !== undefined && !(anyAddress && upstreamAddresses.has(entry.address))) {
              callback(refusal(url, entry.address, kind, upstream.origin), '', 0);
              return;
            }
          }
          if (options.all) {
            (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, found);
            return;
          }
          const first = found[0];
          if (!first)
            callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
          else callback(null, first.address, first.family);
        });
      };
    },
  };
}
