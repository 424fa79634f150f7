/**
 * The algorithms of marketplace-zip-signer, with the numbers its protobuf enums give them
 * (lib/src/main/proto/SigningBlock.proto, lib/src/main/kotlin/org/jetbrains/zip/signer/metadata/
 * ContentDigestAlgorithm.kt and SignatureAlgorithm.kt).
 */

export type DigestAlgorithmName = 'CHUNKED_SHA256' | 'CHUNKED_SHA384' | 'CHUNKED_SHA512';

export interface DigestAlgorithm {
  /** `DigestProto.AlgorithmId`. */
  id: number;
  name: DigestAlgorithmName;
  /** node:crypto's name of the hash. */
  hash: 'sha256' | 'sha384' | 'sha512';
}

export const DIGEST_ALGORITHMS: readonly DigestAlgorithm[] = [
  { id: 0, name: 'CHUNKED_SHA256', hash: 'sha256' },
  { id: 1, name: 'CHUNKED_SHA512', hash: 'sha512' },
  { id: 2, name: 'CHUNKED_SHA384', hash: 'sha384' },
];

export type SignatureAlgorithmName = 'SHA256withRSA' | 'SHA512withRSA' | 'SHA256withDSA' | 'SHA384withECDSA';

export interface SignatureAlgorithm {
  /** `SignatureDataProto.AlgorithmId`. */
  id: number;
  /** The JCA name the real tool signs with (what an IDE's log shows). */
  name: SignatureAlgorithmName;
  /** The content digest whose bytes this algorithm signs. */
  digest: DigestAlgorithm;
  /** node:crypto's `asymmetricKeyType` of the key that signs with it. */
  keyType: 'rsa' | 'dsa' | 'ec';
}

function digest(name: DigestAlgorithmName): DigestAlgorithm {
  return DIGEST_ALGORITHMS.find((algorithm) => algorithm.name === name)!;
}

export const SIGNATURE_ALGORITHMS: readonly SignatureAlgorithm[] = [
  { id: 0, name: 'SHA256withRSA', digest: digest('CHUNKED_SHA256'), keyType: 'rsa' },
  { id: 1, name: 'SHA512withRSA', digest: digest('CHUNKED_SHA512'), keyType: 'rsa' },
  { id: 2, name: 'SHA256withDSA', digest: digest('CHUNKED_SHA256'), keyType: 'dsa' },
  { id: 3, name: 'SHA384withECDSA', digest: digest('CHUNKED_SHA384'), keyType: 'ec' },
];

export function digestAlgorithmById(id: number): DigestAlgorithm | undefined {
  return DIGEST_ALGORITHMS.find((algorithm) => algorithm.id === id);
}

export function signatureAlgorithmById(id: number): SignatureAlgorithm | undefined {
  return SIGNATURE_ALGORITHMS.find((algorithm) => algorithm.id === id);
}

/** RSA keys longer than this sign with SHA-512 (`PublicKeyUtils.getSuggestedSignatureAlgorithm`). */
const VERY_HIGH_STRENGTH_RSA_BITS = 3072;

/** The algorithm the real tool picks for a key: RSA up to 3072 bits SHA-256, longer SHA-512; EC SHA-384; DSA SHA-256. */
export function suggestedSignatureAlgorithm(key: {
  asymmetricKeyType?: string;
  asymmetricKeyDetails?: { modulusLength?: number };
}): SignatureAlgorithm {
  const byName = (name: SignatureAlgorithmName) =>
    SIGNATURE_ALGORITHMS.find((algorithm) => algorithm.name === name)!;
  switch (key.asymmetricKeyType) {
    case 'rsa':
      return (key.asymmetricKeyDetails?.modulusLength ?? 0) <= VERY_HIGH_STRENGTH_RSA_BITS
        ? byName('SHA256withRSA')
        : byName('SHA512withRSA');
    case 'ec':
      return byName('SHA384withECDSA');
    case 'dsa':
      return byName('SHA256withDSA');
    default:
      throw new Error(
        `A ${key.asymmetricKeyType ?? 'unknown'} key cannot sign plugin archives: the IDE accepts RSA, EC (ECDSA) and DSA keys only.`,
      );
  }
}
