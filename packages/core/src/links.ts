/**
 * Link rules of spec §5: what a vendor may enter as a website, how a typed link becomes an address, and
 * which links stay in the current window.
 */

const OCTET = String.raw`(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)`;
const IPV4 = String.raw`${OCTET}(?:\.${OCTET}){3}`;
const LABEL = String.raw`[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?`;
const TOP_LEVEL_DOMAIN = String.raw`(?:\p{L}{2,63}|xn--[a-z\d-]{2,59})`;
const DOMAIN = String.raw`(?:${LABEL}\.)+${TOP_LEVEL_DOMAIN}`;

const WEBSITE = new RegExp(
  [
    String.raw`^(?:(?:https?|ftp):\/\/)?`, // scheme
    String.raw`(?:[^\s:@\/?#]+(?::[^\s@\/?#]*)?@)?`, // credentials
    String.raw`(?<host>${DOMAIN}|${IPV4})`,
    String.raw`(?::(?<port>\d{1,5}))?`,
    String.raw`(?:\/[^\s?#]*)?`, // path
    String.raw`(?:\?[^\s#]*)?`, // query
    String.raw`(?:#\S*)?$`, // fragment
  ].join(''),
  'iu',
);

/** The longest host name DNS allows. */
const MAX_HOST_LENGTH = 253;
const MAX_PORT = 65535;

/**
 * Whether a vendor's website entry is acceptable: optional scheme (http, https or ftp), optional
 * credentials, a domain name or IPv4 address, optional port (1-65535), path, query and fragment. Spaces
 * around the value are ignored; spaces inside it are not allowed. An e-mail address passes too (as
 * credentials and a host): link fields may hold one, and {@link normalizeLink} makes it a mailto: link.
 */
export function isValidWebsite(value: string | null | undefined): boolean {
  if (value == null) return false;
  const match = WEBSITE.exec(value.trim());
  const host = match?.groups?.['host'];
  if (match === null || host === undefined || host.length > MAX_HOST_LENGTH) return false;
  const port = match.groups?.['port'];
  return port === undefined || (Number(port) >= 1 && Number(port) <= MAX_PORT);
}

/** `scheme://` or `mailto:` at the start: the value already says how to open it. */
const HAS_SCHEME = /^(?:[a-z][a-z\d+.-]*:\/\/|mailto:)/i;

/**
 * Turns what a person typed into a link. A value that already carries a scheme (`https://`, `ftp://`,
 * `mailto:`) or is a path on this site (`/plugin/1`) is kept. Otherwise a value with an @ sign is an
 * e-mail address and gets `mailto:`, and anything else gets `https://`. Checking the scheme first keeps
 * `https://user@host` an address with credentials instead of a broken mail link, and a protocol-relative
 * `//host` becomes `https://host` so that it can never be mistaken for a path on this site.
 */
export function normalizeLink(value: string): string {
  const link = value.trim();
  if (link === '') return '';
  if (link.startsWith('//')) return `https:${link}`;
  if (HAS_SCHEME.test(link) || link.startsWith('/')) return link;
  if (link.includes('@')) return `mailto:${link}`;
  return `https://${link}`;
}

/**
 * Mail links and paths on this site open in the current window; every other link opens a new one. A
 * protocol-relative `//host` is another site, so it opens a new window too.
 */
export function opensInSameWindow(link: string): boolean {
  const trimmed = link.trim();
  if (/^mailto:/i.test(trimmed)) return true;
  return trimmed.startsWith('/') && !trimmed.startsWith('//');
}
