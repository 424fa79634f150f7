import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile, link } from 'node:fs/promises';
import { join } from 'node:path';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';

/**
 * The secrets of the embedded identity service. They live in DATA_DIR so that a restart keeps every visitor
 * signed in: the signing keys verify tokens already handed out, the cookie keys the provider's sessions.
 */
export interface IdentityKeys {
  /** Private signing keys (JWK): RS256 for ID tokens (the OpenID default), ES256 for API access tokens. */
  signingKeys: JWK[];
  /** Secrets that sign the identity service's cookies; the first signs, all verify. */
  cookieKeys: string[];
}

export const IDENTITY_KEYS_FILE = 'identity-keys.json';

async function generateSigningKey(alg: 'RS256' | 'ES256'): Promise<JWK> {
  const { privateKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, alg, use: 'sig', kid: await calculateJwkThumbprint(jwk) };
}

export async function generateIdentityKeys(): Promise<IdentityKeys> {
  return {
    signingKeys: [await generateSigningKey('ES256'), await generateSigningKey('RS256')],
    cookieKeys: [randomBytes(32).toString('base64url')],
  };
}

function parseIdentityKeys(text: string, path: string): IdentityKeys {
  const parsed = JSON.parse(text) as Partial<IdentityKeys>;
  const valid =
    Array.isArray(parsed.signingKeys) &&
    parsed.signingKeys.length > 0 &&
    parsed.signingKeys.every((key) => typeof key === 'object' && key !== null && typeof key.d === 'string') &&
    Array.isArray(parsed.cookieKeys) &&
    parsed.cookieKeys.length > 0 &&
    parsed.cookieKeys.every((key) => typeof key === 'string' && key.length >= 32);
  if (!valid) {
    throw new Error(
      `${path} is not a valid identity key file. Restore it from a backup, or delete it to sign everyone out and make new keys.`,
    );
  }
  return parsed as IdentityKeys;
}

/**
 * Reads the identity keys from `<dataDir>/identity-keys.json`, creating them on first start. Two processes
 * starting at once both end up with the same keys: the file appears atomically (hard link of a complete
 * temporary file, which fails when the name exists) and the loser reads the winner's file.
 */
export async function loadOrCreateIdentityKeys(dataDir: string): Promise<IdentityKeys> {
  const path = join(dataDir, IDENTITY_KEYS_FILE);
  try {
    return parseIdentityKeys(await readFile(path, 'utf8'), path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dataDir, { recursive: true });
  const keys = await generateIdentityKeys();
  const temporary = join(dataDir, `.${IDENTITY_KEYS_FILE}.${process.pid}.${randomBytes(6).toString('hex')}`);
  await writeFile(temporary, JSON.stringify(keys, null, 2), { mode: 0o600, flush: true });
  try {
    await link(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      // File systems without hard links: a rename is still atomic, only the race above is lost.
      if (
        (error as NodeJS.ErrnoException).code === 'EPERM' ||
        (error as NodeJS.ErrnoException).code === 'ENOTSUP'
      ) {
        await rename(temporary, path);
        return keys;
      }
      throw error;
    }
  } finally {
    await rm(temporary, { force: true });
  }
  return parseIdentityKeys(await readFile(path, 'utf8'), path);
}

/** The public half of the signing keys, as published at the provider's jwks_uri. */
export function publicJwks(keys: IdentityKeys): { keys: JWK[] } {
  return {
    keys: keys.signingKeys.map((key) => {
      const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicPart } = key;
      return publicPart;
    }),
  };
}
