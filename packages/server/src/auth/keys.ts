import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile, link } from 'node:fs/promises';
import { join } from 'node:path';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Queryable } from '../db/client';
import { identityKeys } from '../db/schema/auth';

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
  return checkIdentityKeys(
    JSON.parse(text) as Partial<IdentityKeys>,
    `${path} is not a valid identity key file. Restore it from a backup, or delete it to sign everyone out and make new keys.`,
  );
}

function checkIdentityKeys(parsed: Partial<IdentityKeys>, problem: string): IdentityKeys {
  const valid =
    Array.isArray(parsed.signingKeys) &&
    parsed.signingKeys.length > 0 &&
    parsed.signingKeys.every((key) => typeof key === 'object' && key !== null && typeof key.d === 'string') &&
    Array.isArray(parsed.cookieKeys) &&
    parsed.cookieKeys.length > 0 &&
    parsed.cookieKeys.every((key) => typeof key === 'string' && key.length >= 32);
  if (!valid) throw new Error(problem);
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

/**
 * The identity keys every node of an installation shares, kept in the database (table `identity_keys`), so
 * a token or a sign-in session made on one node is valid on the others. The first node to start writes
 * them: the keys of its `DATA_DIR/identity-keys.json` when it has that file (an installation from before
 * the keys moved keeps everyone signed in), else new ones; nodes starting together agree, as the row is
 * inserted only when there is none and then read back.
 */
export async function loadSharedIdentityKeys(db: Queryable, dataDir: string): Promise<IdentityKeys> {
  const stored = await readStoredKeys(db);
  if (stored) return stored;
  const keys = await loadOrCreateIdentityKeys(dataDir);
  await db
    .insert(identityKeys)
    .values({ id: 1, keys: keys as unknown as Record<string, unknown> })
    .onConflictDoNothing();
  const agreed = await readStoredKeys(db);
  if (!agreed) throw new Error('The identity keys could not be stored in the database.');
  return agreed;
}

async function readStoredKeys(db: Queryable): Promise<IdentityKeys | undefined> {
  const [row] = await db.select({ keys: identityKeys.keys }).from(identityKeys).limit(1);
  if (!row) return undefined;
  return checkIdentityKeys(
    row.keys as Partial<IdentityKeys>,
    'The identity keys in the database (table identity_keys) are not valid. Restore them from a backup, or delete the row to sign everyone out and make new keys.',
  );
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
