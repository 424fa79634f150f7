/**
 * The security headers of the site's HTML pages. Scripts and styles come only from the site's own files
 * (no inline script), and no page may be framed except the embed pages, which exist to be framed anywhere.
 */

export interface PageSecurityOptions {
  /** Origin of the identity service, when it is not this server (the site calls its token endpoint). */
  identityOrigin?: string | undefined;
  /** True for /embeddable/* pages. */
  framable: boolean;
}

/** IDEs on the visitor's machine answer on loopback ports (reference: the IDE's built-in web server). */
const IDE_ORIGINS = ['http://localhost:*', 'http://127.0.0.1:*'];

export function contentSecurityPolicy({ identityOrigin, framable }: PageSecurityOptions): string {
  const extra = identityOrigin ? [identityOrigin] : [];
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:', 'https:'],
    'font-src': ["'self'"],
    'connect-src': ["'self'", ...IDE_ORIGINS, ...extra],
    'form-action': ["'self'", ...extra],
    'frame-src': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'frame-ancestors': framable ? ['*'] : ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

export function pageSecurityHeaders(options: PageSecurityOptions): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(options),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    ...(options.framable ? {} : { 'x-frame-options': 'DENY' }),
  };
}
