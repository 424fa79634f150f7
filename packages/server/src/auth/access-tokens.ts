import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors as joseErrors,
  jwtVerify,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';

/** A bearer token that is not acceptable. The reason goes to the log; the client only learns "401". */
export class InvalidAccessTokenError extends Error {
  override name = 'InvalidAccessTokenError';
}

/** The issuer's keys cannot be fetched right now: not the token's fault, so not a 401. */
export class IdentityServiceUnavailableError extends Error {
  override name = 'IdentityServiceUnavailableError';
}

export interface VerifiedAccessToken {
  subject: string;
  claims: JWTPayload;
}

export interface AccessTokenVerifierOptions {
  issuer: string;
  audience: string;
  /** Allowed JWS algorithms; `none` and HMAC are never accepted whatever this says. */
  algorithms: string[];
  /** The issuer's public keys: a fixed key set (the embedded provider) or fetched from the issuer. */
  keys: { kind: 'local'; jwks: JSONWebKeySet } | { kind: 'discovered' };
  /** The `typ` header access tokens must carry (`at+jwt` for the embedded provider, RFC 9068). */
  requiredType?: string | undefined;
  /** Seconds of clock difference tolerated between this server and the issuer. */
  clockToleranceSeconds?: number;
}

export type AccessTokenVerifier = (token: string) => Promise<VerifiedAccessToken>;

const NEVER_ACCEPTED = /^(none|HS\d+)$/i;

/**
 * Finds the issuer's key set through its discovery document, once, and keeps jose's remote key set (which
 * refetches on an unknown `kid`, so key rotation at the issuer just works).
 */
function discoveredKeySet(issuer: string): JWTVerifyGetKey {
  let keySet: Promise<JWTVerifyGetKey> | undefined;
  const load = async (): Promise<JWTVerifyGetKey> => {
    const response = await fetch(`${issuer}/.well-known/openid-configuration`, {
      signal: AbortSignal.timeout(5000),
      headers: { accept: 'application/json' },
    });
    if (!response.ok)
      throw new Error(
        `The identity service at ${issuer} answered ${response.status} for its discovery document.`,
      );
    const document = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
    if (document.issuer !== issuer || typeof document.jwks_uri !== 'string') {
      throw new Error(`The discovery document of ${issuer} names another issuer or no jwks_uri.`);
    }
    return createRemoteJWKSet(new URL(document.jwks_uri));
  };
  return async (header, token) => {
    keySet ??= load().catch((error: unknown) => {
      keySet = undefined;
      throw new IdentityServiceUnavailableError(
        `The identity service at ${issuer} cannot be reached: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    });
    return (await keySet)(header, token);
  };
}

export function createAccessTokenVerifier(options: AccessTokenVerifierOptions): AccessTokenVerifier {
  const algorithms = options.algorithms.filter((alg) => !NEVER_ACCEPTED.test(alg));
  if (algorithms.length === 0)
    throw new Error('No acceptable signature algorithm is configured for access tokens.');
  const getKey: JWTVerifyGetKey =
    options.keys.kind === 'local' ? createLocalJWKSet(options.keys.jwks) : discoveredKeySet(options.issuer);
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, getKey, {
        issuer: options.issuer,
        audience: options.audience,
        algorithms,
        requiredClaims: ['exp', 'sub'],
        clockTolerance: options.clockToleranceSeconds ?? 5,
        ...(options.requiredType ? { typ: options.requiredType } : {}),
      });
      if (typeof payload.sub !== 'string' || payload.sub === '') {
        throw new InvalidAccessTokenError('The access token names no subject.');
      }
      return { subject: payload.sub, claims: payload };
    } catch (error) {
      if (error instanceof InvalidAccessTokenError || error instanceof IdentityServiceUnavailableError)
        throw error;
      if (error instanceof joseErrors.JWKSTimeout) {
        throw new IdentityServiceUnavailableError(`The keys of ${options.issuer} did not arrive in time.`, {
          cause: error,
        });
      }
      if (error instanceof joseErrors.JOSEError) {
        throw new InvalidAccessTokenError(`The access token was refused: ${error.code} ${error.message}`, {
          cause: error,
        });
      }
      throw error;
    }
  };
}
