import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import {
  createLocalJWKSet,
  errors as joseErrors,
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
  SignJWT,
  type JSONWebKeySet,
  type JWK,
} from 'jose';
import type { Database } from '../db/client';
import { selectRows } from '../search/sql';

/*
 * Licences are compact JWS tokens signed with Ed25519 (EdDSA). The key pair lives in the database, so every
 * server node signs with the same key and publishes the same public key; the first node that needs a key
 * makes it (a second one racing it keeps the first key written).
 */

export const LICENSE_ALGORITHM = 'EdDSA';
/** The `typ` of licence tokens, so a sign-in token can never pass for a licence. */
export const LICENSE_TOKEN_TYPE = 'mp-license+jwt';

export interface LicenseClaims {
  licenseId: string;
  pluginId: number;
  /** The plugin's xml id, which the plugin knows itself by. */
  pluginXmlId: string;
  productCode: string | null;
  licensee: string;
  licenseKind: string;
  seats: number;
  trial: boolean;
  startsAt: Date;
  expiresAt: Date;
}

interface StoredKey {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
}

export class LicenseKeys {
  private current: Promise<StoredKey> | undefined;

  constructor(
    private readonly db: Database,
    private readonly issuer: string,
  ) {}

  private async loadOrCreate(): Promise<StoredKey> {
    const existing = await this.newestKey();
    if (existing) return existing;
    const { privateKey, publicKey } = await generateKeyPair(LICENSE_ALGORITHM, {
      crv: 'Ed25519',
      extractable: true,
    });
    const kid = randomUUID();
    const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: LICENSE_ALGORITHM };
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: LICENSE_ALGORITHM, use: 'sig' };
    await this.db.execute(
      sql`INSERT INTO license_signing_keys (kid, private_jwk, public_jwk)
        SELECT ${kid}, ${JSON.stringify(privateJwk)}::jsonb, ${JSON.stringify(publicJwk)}::jsonb
        WHERE NOT EXISTS (SELECT 1 FROM license_signing_keys)`,
    );
    const stored = await this.newestKey();
    if (!stored) throw new Error('The licence signing key could not be stored.');
    return stored;
  }

  private async newestKey(): Promise<StoredKey | undefined> {
    const [row] = await selectRows<{ kid: string; private_jwk: JWK; public_jwk: JWK }>(
      this.db,
      sql`SELECT kid, private_jwk, public_jwk FROM license_signing_keys ORDER BY created_at DESC, kid LIMIT 1`,
    );
    return row ? { kid: row.kid, privateJwk: row.private_jwk, publicJwk: row.public_jwk } : undefined;
  }

  /**
   * Loads (or makes) the signing key. Callers that sign inside a transaction call this first: the key is
   * read through the pool, which the embedded database cannot serve while that transaction holds it.
   */
  async prepare(): Promise<void> {
    await this.key();
  }

  private key(): Promise<StoredKey> {
    this.current ??= this.loadOrCreate().catch((error: unknown) => {
      this.current = undefined;
      throw error;
    });
    return this.current;
  }

  /** Every public key a licence may be signed with, as a JWK set. */
  async publicKeySet(): Promise<JSONWebKeySet> {
    await this.key();
    const rows = await selectRows<{ public_jwk: JWK }>(
      this.db,
      sql`SELECT public_jwk FROM license_signing_keys ORDER BY created_at DESC, kid`,
    );
    return { keys: rows.map((row) => row.public_jwk) };
  }

  async sign(claims: LicenseClaims): Promise<string> {
    const key = await this.key();
    const privateKey = await importJWK(key.privateJwk, LICENSE_ALGORITHM);
    return new SignJWT({
      pid: claims.pluginId,
      xid: claims.pluginXmlId,
      pcode: claims.productCode,
      licensee: claims.licensee,
      kind: claims.licenseKind,
      seats: claims.seats,
      trial: claims.trial,
    })
      .setProtectedHeader({ alg: LICENSE_ALGORITHM, kid: key.kid, typ: LICENSE_TOKEN_TYPE })
      .setIssuer(this.issuer)
      .setSubject(claims.licenseId)
      .setIssuedAt()
      .setNotBefore(Math.floor(claims.startsAt.getTime() / 1000))
      .setExpirationTime(Math.floor(claims.expiresAt.getTime() / 1000))
      .sign(privateKey);
  }

  /** The claims of a licence signed here, or the reason it is not valid, in words for people. */
  async verify(
    token: string,
    now: Date = new Date(),
  ): Promise<{ valid: true; claims: LicenseClaims } | { valid: false; reason: string }> {
    const keySet = createLocalJWKSet(await this.publicKeySet());
    try {
      const { payload } = await jwtVerify(token, keySet, {
        issuer: this.issuer,
        typ: LICENSE_TOKEN_TYPE,
        algorithms: [LICENSE_ALGORITHM],
        currentDate: now,
      });
      return {
        valid: true,
        claims: {
          licenseId: String(payload.sub),
          pluginId: Number(payload.pid),
          pluginXmlId: String(payload.xid),
          productCode: typeof payload.pcode === 'string' ? payload.pcode : null,
          licensee: String(payload.licensee),
          licenseKind: String(payload.kind),
          seats: Number(payload.seats),
          trial: payload.trial === true,
          startsAt: new Date(Number(payload.nbf) * 1000),
          expiresAt: new Date(Number(payload.exp) * 1000),
        },
      };
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) return { valid: false, reason: 'The licence has expired.' };
      if (error instanceof joseErrors.JWTClaimValidationFailed && error.claim === 'nbf') {
        return { valid: false, reason: 'The licence is not valid yet.' };
      }
      if (
        error instanceof joseErrors.JWSSignatureVerificationFailed ||
        error instanceof joseErrors.JWKSNoMatchingKey ||
        error instanceof joseErrors.JWTClaimValidationFailed
      ) {
        return { valid: false, reason: 'The licence was not issued by this marketplace.' };
      }
      return { valid: false, reason: 'This is not a licence: the text is not a signed licence token.' };
    }
  }
}
