import {
  type KeyObject,
  type X509Certificate,
  createPrivateKey,
  randomBytes,
  sign,
  verify,
  webcrypto,
} from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfigError } from '../config';
import type { Queryable } from '../db/client';
import { marketplaceSigningKey } from '../db/schema';
import { parseCertificateChain } from './signatures';

/** The key and certificate chain the marketplace countersigns every accepted archive with. */
export interface SigningIdentity {
  privateKey: KeyObject;
  /** The signer's certificate first, each signed by the next; the last is the one IDEs are told to trust. */
  chain: X509Certificate[];
  /** The operator's files, or made by the marketplace and kept in the database. */
  source: 'files' | 'generated';
}

export interface SigningOptions {
  /**
   * The operator's key and chain (MARKETPLACE_SIGNING_KEY_FILE and MARKETPLACE_SIGNING_CERT_FILE, read and
   * checked at start); undefined: a key and a self-signed certificate are made once and kept in the database.
   */
  configured: SigningIdentity | undefined;
  /**
   * Roots the operator trusts for authors' signatures (SIGNATURE_TRUSTED_ROOTS_FILE): a vendor that must sign
   * must then sign with a chain ending in one of them. Empty: any complete chain will do.
   */
  trustedRoots: X509Certificate[];
}

/** The certificate IDEs must trust: the last of the chain (the IDE compares a signer's last certificate). */
export function certificateToTrust(identity: SigningIdentity): X509Certificate {
  return identity.chain[identity.chain.length - 1]!;
}

function readSetting(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function readFileOf(name: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new ConfigError(`${name} (${path}) cannot be read: ${(error as Error).message}.`);
  }
}

function certificatesOf(name: string, path: string): X509Certificate[] {
  const bytes = readFileOf(name, path);
  try {
    return parseCertificateChain(bytes);
  } catch (error) {
    throw new ConfigError(
      `${name} (${path}) holds no readable certificate (PEM or DER expected): ${(error as Error).message}.`,
    );
  }
}

function commonName(certificate: X509Certificate): string {
  const line = certificate.subject.split('\n').find((part) => part.startsWith('CN='));
  return line ? line.slice(3) : certificate.subject.replace(/\n/g, ', ');
}

/** Throws unless each certificate is signed by the next and the key belongs to the first. */
function checkIdentity(identity: SigningIdentity, where: string): void {
  const { chain, privateKey } = identity;
  for (let index = 0; index + 1 < chain.length; index += 1) {
    if (!chain[index]!.verify(chain[index + 1]!.publicKey)) {
      throw new ConfigError(
        `${where}: certificate ${index + 1} (${commonName(chain[index]!)}) is not signed by the next one (${commonName(chain[index + 1]!)}); list the signing certificate first, then each issuer up to the root.`,
      );
    }
  }
  const type = chain[0]!.publicKey.asymmetricKeyType;
  if (type !== 'rsa' && type !== 'ec' && type !== 'dsa') {
    throw new ConfigError(
      `${where}: the certificate's key is ${type ?? 'of an unknown type'}; the IDE verifies RSA, EC and DSA signatures only.`,
    );
  }
  const probe = randomBytes(32);
  const hash = type === 'ec' ? 'sha384' : 'sha256';
  let matches = false;
  try {
    matches = verify(hash, probe, chain[0]!.publicKey, sign(hash, probe, privateKey));
  } catch {
    matches = false;
  }
  if (!matches) {
    throw new ConfigError(
      `${where}: the private key does not belong to the first certificate (${commonName(chain[0]!)}).`,
    );
  }
}

/**
 * From the environment: `MARKETPLACE_SIGNING_KEY_FILE` (PEM private key; `MARKETPLACE_SIGNING_KEY_PASSWORD` when
 * it is encrypted) with `MARKETPLACE_SIGNING_CERT_FILE` (PEM chain, the signing certificate first, the root
 * last), both or neither; and `SIGNATURE_TRUSTED_ROOTS_FILE` (PEM bundle). The files are read and checked
 * here, so a wrong setting stops the start with one sentence (ConfigError).
 */
export function signingOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): SigningOptions {
  const keyFile = readSetting(env, 'MARKETPLACE_SIGNING_KEY_FILE');
  const certificateFile = readSetting(env, 'MARKETPLACE_SIGNING_CERT_FILE');
  if ((keyFile === undefined) !== (certificateFile === undefined)) {
    throw new ConfigError(
      'Set both MARKETPLACE_SIGNING_KEY_FILE and MARKETPLACE_SIGNING_CERT_FILE, or neither (the marketplace then makes its own key).',
    );
  }
  let configured: SigningIdentity | undefined;
  if (keyFile !== undefined && certificateFile !== undefined) {
    let privateKey: KeyObject;
    try {
      const passphrase = env.MARKETPLACE_SIGNING_KEY_PASSWORD;
      privateKey = createPrivateKey({
        key: readFileOf('MARKETPLACE_SIGNING_KEY_FILE', keyFile),
        ...(passphrase ? { passphrase } : {}),
      });
    } catch (error) {
      if (error instanceof ConfigError) throw error;
      throw new ConfigError(
        `MARKETPLACE_SIGNING_KEY_FILE (${keyFile}) is not a private key the server can read (PEM; set MARKETPLACE_SIGNING_KEY_PASSWORD for an encrypted one): ${(error as Error).message}.`,
      );
    }
    configured = {
      privateKey,
      chain: certificatesOf('MARKETPLACE_SIGNING_CERT_FILE', certificateFile),
      source: 'files',
    };
    checkIdentity(configured, `MARKETPLACE_SIGNING_CERT_FILE (${certificateFile})`);
  }
  const rootsFile = readSetting(env, 'SIGNATURE_TRUSTED_ROOTS_FILE');
  return {
    configured,
    trustedRoots: rootsFile ? certificatesOf('SIGNATURE_TRUSTED_ROOTS_FILE', rootsFile) : [],
  };
}

/** How long the generated certificate is valid; the IDE does not look at dates, people do. */
const GENERATED_VALIDITY_YEARS = 30;

const RSA_3072: webcrypto.RsaHashedKeyGenParams = {
  name: 'RSASSA-PKCS1-v1_5',
  hash: 'SHA-256',
  publicExponent: new Uint8Array([1, 0, 1]),
  modulusLength: 3072,
};

/**
 * A new RSA key (3072 bits: SHA256withRSA, what the real tool picks for it and what Gradle's signPlugin uses)
 * and a self-signed certificate for it, named after the marketplace's host. The certificate is its own root:
 * the IDE trusts a signer whose chain ends in a certificate the user added.
 */
export async function generateSigningIdentity(
  publicUrl: string,
): Promise<{ keyPem: string; chainPem: string }> {
  // @peculiar/x509 resolves its parts through tsyringe, which needs the Reflect metadata polyfill first.
  await import('reflect-metadata');
  const x509 = await import('@peculiar/x509');
  type SelfSignedParams = Parameters<typeof x509.X509CertificateGenerator.createSelfSigned>;
  const crypto = webcrypto as unknown as NonNullable<SelfSignedParams[1]>;
  const keys = (await webcrypto.subtle.generateKey(RSA_3072, true, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  const host = new URL(publicUrl).host.replace(/[,=+<>#;"\\]/g, '_');
  const serial = randomBytes(16);
  serial[0] = serial[0]! & 0x7f; // a positive serial number, as RFC 5280 requires
  const notBefore = new Date(Date.now() - 60_000);
  const notAfter = new Date(notBefore);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + GENERATED_VALIDITY_YEARS);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: serial.toString('hex'),
      name: `CN=${host} plugin signing, O=Plugin marketplace at ${host}`,
      notBefore,
      notAfter,
      keys: keys as unknown as SelfSignedParams[0]['keys'],
      signingAlgorithm: RSA_3072,
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(
          x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyCertSign,
          true,
        ),
        await x509.SubjectKeyIdentifierExtension.create(
          keys.publicKey as unknown as SelfSignedParams[0]['keys']['publicKey'],
          false,
          crypto,
        ),
      ],
    },
    crypto,
  );
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  const keyPem = `-----BEGIN PRIVATE KEY-----\n${pkcs8
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .trimEnd()}\n-----END PRIVATE KEY-----\n`;
  return { keyPem, chainPem: `${certificate.toString('pem')}\n` };
}

function identityFromStored(row: { privateKey: string; certificateChain: string }): SigningIdentity {
  const identity: SigningIdentity = {
    privateKey: createPrivateKey(row.privateKey),
    chain: parseCertificateChain(row.certificateChain),
    source: 'generated',
  };
  checkIdentity(identity, 'The marketplace signing key in the database (table marketplace_signing_key)');
  return identity;
}

async function readStoredIdentity(db: Queryable): Promise<SigningIdentity | undefined> {
  const [row] = await db
    .select({
      privateKey: marketplaceSigningKey.privateKey,
      certificateChain: marketplaceSigningKey.certificateChain,
    })
    .from(marketplaceSigningKey)
    .limit(1);
  return row ? identityFromStored(row) : undefined;
}

/**
 * The generated identity every node shares: read from the database, or made and inserted by the first node
 * that needs it. Nodes racing to make one agree, as the row is inserted only when there is none and then
 * read back.
 */
async function loadOrCreateStoredIdentity(db: Queryable, publicUrl: string): Promise<SigningIdentity> {
  const stored = await readStoredIdentity(db);
  if (stored) return stored;
  const made = await generateSigningIdentity(publicUrl);
  await db
    .insert(marketplaceSigningKey)
    .values({ id: 1, privateKey: made.keyPem, certificateChain: made.chainPem })
    .onConflictDoNothing();
  const agreed = await readStoredIdentity(db);
  if (!agreed) throw new Error('The marketplace signing key could not be stored in the database.');
  return agreed;
}

const generatedIdentities = new WeakMap<object, Promise<SigningIdentity>>();

/**
 * The identity this process countersigns with: the operator's files, or the generated one of this database
 * (read once per process and kept; a failed read is tried again by the next caller).
 */
export function signingIdentity(
  db: Queryable,
  options: SigningOptions,
  publicUrl: string,
): Promise<SigningIdentity> {
  if (options.configured) return Promise.resolve(options.configured);
  let pending = generatedIdentities.get(db);
  if (!pending) {
    pending = loadOrCreateStoredIdentity(db, publicUrl);
    generatedIdentities.set(db, pending);
    pending.catch(() => generatedIdentities.delete(db));
  }
  return pending;
}
