/** Whether a host name (as in a Host header or a URL, without the port) names this machine's loopback. */
export function isLocalhostName(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** The host name of a Host header value such as `127.0.0.1:63342` or `[::1]:63342`. */
export function hostnameOfHostHeader(hostHeader: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(hostHeader);
  if (bracketed?.[1]) return bracketed[1];
  return hostHeader.replace(/:\d+$/, '');
}

/** What the IDE makes of the page behind a request to a service that asks before it answers. */
export type PageTrust =
  | { trusted: true }
  | {
      trusted: false;
      /** The page as the request named it (Origin, else Referer); undefined when it named none. */
      page: string | undefined;
      /** The page's host, which the IDE's dialog names; undefined when the request named no page. */
      host: string | undefined;
      /** What the IDE remembers the answer under (scheme and host); undefined: asked again every time. */
      key: string | undefined;
    };

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/**
 * The IDE's rule for `/api/installPlugin` (InstallPluginService and RestService in the IntelliJ Platform's
 * built-in server), in its order:
 * 1. an Origin served over **https** from a host on the IDE's own list, on the list of the JVM option
 *    `idea.api.install.hosts.trusted`, or from localhost: trusted;
 * 2. a page on localhost, named by Origin or else Referer, whatever the scheme: trusted;
 * 3. anything else: the IDE asks its user, and remembers the answer for that scheme and host for a day.
 *    A request that names no page at all is asked about each time.
 * So a listed host served over plain http is asked about like any other host.
 */
export function pageTrust(
  origin: string | undefined,
  referer: string | undefined,
  trustedHosts: ReadonlySet<string>,
): PageTrust {
  const originUrl = origin === undefined ? undefined : parse(origin);
  if (originUrl?.protocol === 'https:') {
    const host = originUrl.hostname.toLowerCase();
    if (trustedHosts.has(host) || isLocalhostName(host)) return { trusted: true };
  }
  const page = origin ?? referer;
  const pageUrl = page === undefined ? undefined : parse(page);
  // 'null' (an opaque origin) and anything without a host name no page the IDE could remember.
  if (pageUrl === undefined || pageUrl.hostname === '') {
    return { trusted: false, page, host: undefined, key: undefined };
  }
  if (isLocalhostName(pageUrl.hostname)) return { trusted: true };
  const host = pageUrl.hostname.toLowerCase();
  return { trusted: false, page, host, key: `${pageUrl.protocol}//${host}` };
}

/** Whether the page is on this machine (any scheme): `/api/about?more` gives its details only to such pages. */
export function isLocalPage(pageUrl: string | undefined): boolean {
  const url = pageUrl === undefined ? undefined : parse(pageUrl);
  return url !== undefined && isLocalhostName(url.hostname);
}
