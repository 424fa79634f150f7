import type { AuthConfig } from '../auth/config';

/** The identity service's origin when it is not this server's (the site then calls it from the browser). */
export function identityOriginOf(auth: AuthConfig): string | undefined {
  const issuer = new URL(auth.identity.issuer);
  return issuer.origin === new URL(auth.publicUrl).origin ? undefined : issuer.origin;
}
