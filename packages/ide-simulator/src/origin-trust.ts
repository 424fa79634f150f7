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

/**
 * The IDE's rule for acting without asking: the page is on this machine (any scheme), or it is served over
 * https from a trusted host. The page is named by Origin, or by Referer when a browser sends no Origin.
 * A request that names no page at all is not trusted: the real IDE asks the user about it.
 */
export function isTrustedPage(pageUrl: string | undefined, trustedHosts: ReadonlySet<string>): boolean {
  if (pageUrl === undefined || pageUrl === 'null') return false;
  let url: URL;
  try {
    url = new URL(pageUrl);
  } catch {
    return false;
  }
  if (isLocalhostName(url.hostname)) return true;
  return url.protocol === 'https:' && trustedHosts.has(url.hostname.toLowerCase());
}
