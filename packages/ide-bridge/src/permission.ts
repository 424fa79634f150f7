/**
 * The browser's Local Network Access permission for reaching the loopback address (Chromium 142+), or
 * 'unsupported' where there is no such permission (other browsers, Node) and requests simply go out.
 */
export type LocalNetworkPermission = 'granted' | 'prompt' | 'denied' | 'unsupported';

/** Reads the permission; the bridge asks it before scanning and when a request fails without an answer. */
export type LocalNetworkPermissionSource = () => Promise<LocalNetworkPermission>;

// Chromium named the permission 'local-network-access' first, then split it into 'loopback-network' and
// 'local-network'; the IDE is on loopback.
const PERMISSION_NAMES = ['loopback-network', 'local-network-access'] as const;

function isLoopbackHostname(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return (
    host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d+){3}$/.test(host)
  );
}

/** The permission as the current page sees it, from the Permissions API. */
export const browserLocalNetworkPermission: LocalNetworkPermissionSource = async () => {
  // A page served from this machine reaches loopback without asking.
  const pageHostname = globalThis.location?.hostname;
  if (pageHostname !== undefined && isLoopbackHostname(pageHostname)) return 'granted';
  const permissions = globalThis.navigator?.permissions;
  if (!permissions) return 'unsupported';
  for (const name of PERMISSION_NAMES) {
    try {
      // The permission names are newer than TypeScript's DOM library.
      const status = await permissions.query({ name } as unknown as PermissionDescriptor);
      return status.state;
    } catch {
      // This browser does not know the name: try the older one.
    }
  }
  return 'unsupported';
};
