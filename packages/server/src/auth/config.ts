/**
 * How sign-in is set up. By default the server is its own identity service (an embedded OpenID Connect
 * provider at `<PUBLIC_URL>/oidc` with local accounts); setting OIDC_ISSUER and OIDC_CLIENT_ID hands sign-in
 * to any external OpenID Connect issuer instead (Keycloak, Auth0, ...), whose access tokens must be JWTs.
 */
export type IdentityServiceConfig =
  | {
      kind: 'embedded';
      /** `<publicUrl>/oidc`. */
      issuer: string;
      /** The site's public client (no secret; authorization code with PKCE). */
      clientId: string;
      /** Where the provider may send visitors back with a code: the site's callback by default. */
      redirectUris: string[];
      postLogoutRedirectUris: string[];
    }
  | {
      kind: 'external';
      issuer: string;
      clientId: string;
    };

export interface AuthConfig {
  publicUrl: string;
  dataDir: string;
  identity: IdentityServiceConfig;
  /** The `aud` every access token must carry: `<publicUrl>/api` unless OIDC_AUDIENCE says otherwise. */
  audience: string;
  /** JWS algorithms accepted on access tokens; never `none`, never HMAC (the keys are public). */
  algorithms: string[];
  /** Lifetime of the embedded provider's access tokens, in seconds. */
  accessTokenTtlSeconds: number;
  /** Shared store for rate limits across server processes; in-process counters without it. */
  redisUrl: string | undefined;
  /** Prefix of the rate limits' keys in that Redis: marketplaces sharing one Redis keep apart by it. */
  redisKeyPrefix: string;
  rateLimits: {
    /** Password attempts per IP address per minute at the login page. */
    loginPerMinute: number;
    /** Writes (POST, PUT, PATCH, DELETE) per signed-in user (or per IP address for guests) per minute. */
    writesPerMinute: number;
    /** Requests refused for an unknown, revoked, expired or forged token, per IP address per minute. */
    failedTokensPerMinute: number;
  };
}

export class AuthConfigError extends Error {
  override name = 'AuthConfigError';
}

export const EMBEDDED_CLIENT_ID = 'marketplace-site';
/** The site's page that receives the authorization code. */
export const SITE_CALLBACK_PATH = '/auth/callback';

const SAFE_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];

function absoluteUrl(name: string, raw: string): string {
  try {
    const url = new URL(raw);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('not http');
    return url.toString().replace(/\/+$/, '');
  } catch {
    throw new AuthConfigError(`${name} must be an absolute http(s) address, got "${raw}".`);
  }
}

function list(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function positiveInteger(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 1_000_000) {
    throw new AuthConfigError(`${name} must be a whole number from 1 to 1000000, got "${raw}".`);
  }
  return value;
}

/**
 * Reads the sign-in settings from the environment: OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_AUDIENCE,
 * OIDC_ALGORITHMS, OIDC_REDIRECT_URIS (extra callback addresses of the embedded provider, e.g. a dev server),
 * ACCESS_TOKEN_TTL, REDIS_URL, REDIS_KEY_PREFIX, LOGIN_RATE_LIMIT, WRITE_RATE_LIMIT.
 */
export function authConfigFromEnv(
  env: NodeJS.ProcessEnv,
  base: { publicUrl: string; dataDir: string },
): AuthConfig {
  const publicUrl = base.publicUrl.replace(/\/+$/, '');
  const externalIssuer = env.OIDC_ISSUER?.trim();
  const externalClientId = env.OIDC_CLIENT_ID?.trim();
  let identity: IdentityServiceConfig;
  if (externalIssuer) {
    if (!externalClientId) {
      throw new AuthConfigError(
        'OIDC_ISSUER is set, so OIDC_CLIENT_ID must name the site’s client there too.',
      );
    }
    identity = {
      kind: 'external',
      issuer: absoluteUrl('OIDC_ISSUER', externalIssuer),
      clientId: externalClientId,
    };
  } else {
    const extraRedirects = list(env.OIDC_REDIRECT_URIS).map((uri) => absoluteUrl('OIDC_REDIRECT_URIS', uri));
    identity = {
      kind: 'embedded',
      issuer: `${publicUrl}/oidc`,
      clientId: externalClientId || EMBEDDED_CLIENT_ID,
      redirectUris: [`${publicUrl}${SITE_CALLBACK_PATH}`, ...extraRedirects],
      postLogoutRedirectUris: [`${publicUrl}/`, ...extraRedirects.map((uri) => new URL('/', uri).toString())],
    };
  }
  const algorithms = list(env.OIDC_ALGORITHMS);
  const unsafe = algorithms.find((alg) => !SAFE_ALGORITHMS.includes(alg));
  if (unsafe !== undefined) {
    throw new AuthConfigError(
      `OIDC_ALGORITHMS may list only ${SAFE_ALGORITHMS.join(', ')}; "${unsafe}" is not allowed.`,
    );
  }
  return {
    publicUrl,
    dataDir: base.dataDir,
    identity,
    audience: env.OIDC_AUDIENCE?.trim() || `${publicUrl}/api`,
    algorithms: algorithms.length > 0 ? algorithms : ['ES256', 'RS256', 'PS256', 'EdDSA'],
    accessTokenTtlSeconds: positiveInteger('ACCESS_TOKEN_TTL', env.ACCESS_TOKEN_TTL, 600),
    redisUrl: env.REDIS_URL?.trim() || undefined,
    redisKeyPrefix: env.REDIS_KEY_PREFIX?.trim() || 'mp-rate-limit:',
    rateLimits: {
      loginPerMinute: positiveInteger('LOGIN_RATE_LIMIT', env.LOGIN_RATE_LIMIT, 10),
      writesPerMinute: positiveInteger('WRITE_RATE_LIMIT', env.WRITE_RATE_LIMIT, 120),
      failedTokensPerMinute: positiveInteger('TOKEN_FAILURE_RATE_LIMIT', env.TOKEN_FAILURE_RATE_LIMIT, 30),
    },
  };
}

/**
 * The identity service's address and the site's client id, for the page's meta tags (spec §6: the site
 * signs in against the service these name).
 */
export function authMetaTags(config: AuthConfig): Array<{ name: string; content: string }> {
  return [
    { name: 'mp-auth-issuer', content: config.identity.issuer },
    { name: 'mp-auth-client-id', content: config.identity.clientId },
    { name: 'mp-auth-audience', content: config.audience },
  ];
}

function escapeAttribute(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** The same tags as HTML, ready to put in the page's head. */
export function renderAuthMetaTags(config: AuthConfig): string {
  return authMetaTags(config)
    .map((tag) => `<meta name="${escapeAttribute(tag.name)}" content="${escapeAttribute(tag.content)}">`)
    .join('\n');
}
