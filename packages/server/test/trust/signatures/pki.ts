import 'reflect-metadata';
import { KeyObject, X509Certificate, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

type CryptoKeyPair = webcrypto.CryptoKeyPair;
type RsaHashedKeyGenParams = webcrypto.RsaHashedKeyGenParams;
type EcKeyGenParams = webcrypto.EcKeyGenParams;

/** A certificate made in the test, with the private key that belongs to it. */
export interface Identity {
  certificate: X509Certificate;
  privateKey: KeyObject;
  keys: CryptoKeyPair;
  algorithm: RsaHashedKeyGenParams | EcKeyGenParams;
  name: string;
}

export const RSA: RsaHashedKeyGenParams = {
  name: 'RSASSA-PKCS1-v1_5',
  hash: 'SHA-256',
  publicExponent: new Uint8Array([1, 0, 1]),
  modulusLength: 2048,
};

export const EC_P256: EcKeyGenParams & { hash: string } = {
  name: 'ECDSA',
  namedCurve: 'P-256',
  hash: 'SHA-256',
};

interface IdentityOptions {
  /** Signs the new certificate; self-signed when absent. */
  issuer?: Identity;
  authority?: boolean;
  algorithm?: RsaHashedKeyGenParams | (EcKeyGenParams & { hash: string });
  notBefore?: Date;
  notAfter?: Date;
}

let serial = 1;

/** A certificate for `name` (`CN=…`), self-signed or issued by `issuer`, with a fresh key pair. */
export async function makeIdentity(name: string, options: IdentityOptions = {}): Promise<Identity> {
  const algorithm = options.algorithm ?? RSA;
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as CryptoKeyPair;
  const issuer = options.issuer;
  const extensions = options.authority
    ? [
        new x509.BasicConstraintsExtension(true, 2, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      ]
    : [new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true)];
  serial += 1;
  const generated = await x509.X509CertificateGenerator.create({
    serialNumber: serial.toString(16).padStart(2, '0'),
    subject: `CN=${name}`,
    issuer: issuer ? issuer.certificate.subject.replace(/\n/g, ', ') : `CN=${name}`,
    notBefore: options.notBefore ?? new Date('2025-01-01T00:00:00Z'),
    notAfter: options.notAfter ?? new Date('2045-01-01T00:00:00Z'),
    publicKey: keys.publicKey,
    signingKey: issuer ? issuer.keys.privateKey : keys.privateKey,
    signingAlgorithm: issuer ? issuer.algorithm : algorithm,
    extensions,
  });
  return {
    certificate: new X509Certificate(Buffer.from(generated.rawData)),
    privateKey: KeyObject.from(keys.privateKey),
    keys,
    algorithm,
    name,
  };
}

/** Root CA → intermediate → leaf, the shape of JetBrains' own plugin signing chain. */
export async function makeChain(prefix: string, leafOptions: Omit<IdentityOptions, 'issuer'> = {}) {
  const root = await makeIdentity(`${prefix} Root CA`, { authority: true });
  const intermediate = await makeIdentity(`${prefix} Intermediate CA`, { authority: true, issuer: root });
  const leaf = await makeIdentity(`${prefix} Signer`, { ...leafOptions, issuer: intermediate });
  return {
    root,
    intermediate,
    leaf,
    /** Leaf first, root last: what goes into the signing block. */
    chain: [leaf.certificate, intermediate.certificate, root.certificate],
  };
}
