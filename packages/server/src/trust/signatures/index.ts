import { type KeyObject, X509Certificate, createPrivateKey, sign, verify } from 'node:crypto';
import {
  type DigestAlgorithm,
  type DigestAlgorithmName,
  type SignatureAlgorithm,
  type SignatureAlgorithmName,
  signatureAlgorithmById,
  suggestedSignatureAlgorithm,
} from './algorithms';
import {
  type Metadata,
  type ZipLayout,
  contentDigest,
  damaged,
  eocdForDigest,
  parseMetadata,
  readZipLayout,
  serializeBlock,
  serializeDigest,
  serializeSigner,
} from './block';

export { SignatureFormatError, DAMAGED } from './block';
export type { SignatureFormatProblem } from './block';
export { DIGEST_ALGORITHMS, SIGNATURE_ALGORITHMS } from './algorithms';
export type { DigestAlgorithmName, SignatureAlgorithmName } from './algorithms';

export interface ArchiveSignature {
  /** `SignatureDataProto.AlgorithmId` as stored. */
  algorithmId: number;
  /** Its JCA name, or null for an id this code (and the IDE) does not know. */
  algorithm: SignatureAlgorithmName | null;
  bytes: Buffer;
}

export interface ArchiveSigner {
  /** The certificate chain as stored: the signer's own certificate first, each one signed by the next. */
  certificates: X509Certificate[];
  signatures: ArchiveSignature[];
}

export interface ArchiveSignatures {
  digests: { algorithmId: number; algorithm: DigestAlgorithmName | null; bytes: Buffer }[];
  signers: ArchiveSigner[];
  /** Where the signing block is in the archive (bytes). */
  block: { offset: number; size: number };
}

interface Parsed {
  layout: ZipLayout;
  metadata: Metadata | null;
  signatures: ArchiveSignatures | null;
}

function parse(zip: Buffer): Parsed {
  const layout = readZipLayout(zip);
  if (!layout.block) return { layout, metadata: null, signatures: null };
  const metadata = parseMetadata(layout.block.metadata);
  const signers = metadata.signers.map((signer, signerIndex): ArchiveSigner => {
    const certificates = signer.certificates.map((der, certificateIndex) => {
      try {
        return new X509Certificate(der);
      } catch {
        throw damaged(
          `certificate ${certificateIndex + 1} of signer ${signerIndex + 1} is not a valid X.509 certificate.`,
        );
      }
    });
    return {
      certificates,
      signatures: signer.signatures.map((signature) => ({
        algorithmId: signature.algorithmId,
        algorithm: signatureAlgorithmById(signature.algorithmId)?.name ?? null,
        bytes: signature.bytes,
      })),
    };
  });
  return {
    layout,
    metadata,
    signatures: {
      digests: metadata.digests.map((digest) => ({
        algorithmId: digest.algorithmId,
        algorithm: digest.algorithm?.name ?? null,
        bytes: digest.bytes,
      })),
      signers,
      block: { offset: layout.block.offset, size: layout.block.size },
    },
  };
}

/**
 * The signatures of a plugin archive in marketplace-zip-signer's format, or null when it has no signing block.
 * Throws `SignatureFormatError` when the file is not a zip, is a ZIP64 archive, or its signing block is
 * damaged (message "The signature block of this archive is damaged: …").
 */
export function readSignatures(zip: Buffer): ArchiveSignatures | null {
  return parse(zip).signatures;
}

export interface CertificateSummary {
  subject: string;
  issuer: string;
  serialNumber: string;
  /** SHA-256 of the DER, colon-separated hex, as browsers and keytool show it. */
  fingerprint256: string;
  validFrom: Date;
  validTo: Date;
}

export interface SignerReport {
  /** Position in the signing block: 0 is the first signer (usually the author), later ones countersigned. */
  index: number;
  /** The signature verifies over the archive's current content and the chain's links verify. */
  valid: boolean;
  /** Why not, as a sentence; null when valid. */
  reason: string | null;
  algorithm: SignatureAlgorithmName | null;
  certificates: X509Certificate[];
  chain: CertificateSummary[];
  /** The subject of the signer's own certificate (what "signed by" shows). */
  signedBy: string;
  /** Each certificate is signed by the next one (the IDE refuses the archive otherwise). */
  chainLinksValid: boolean;
  /** Every certificate after the first is a certificate authority (basic constraints CA: true). */
  issuersAreAuthorities: boolean;
  /** The links are valid and the last certificate is a self-signed root. */
  chainComplete: boolean;
  /** The signer's own certificate is self-signed (no authority vouches for it). */
  selfSigned: boolean;
  /** A certificate of the chain has expired at `now` (the IDE itself does not check dates). */
  expired: boolean;
  /** A certificate of the chain is not valid yet at `now`. */
  notYetValid: boolean;
  /** The chain ends in one of `trustedRoots` (the IDE's rule: the last certificate equals a trusted one). */
  trusted: boolean;
}

export interface VerificationReport {
  /** The archive has a signing block. */
  signed: boolean;
  /**
   * What the IDE's ZipVerifier would call a successful verification: signed, every stored digest matches the
   * content, every signer's signatures verify and every chain's links verify. Trust is separate (`trusted`).
   */
  valid: boolean;
  /** Every digest stored in the block matches the archive's content. */
  contentIntact: boolean;
  /** Archive-wide problems, as sentences (a changed content, an unknown digest algorithm). */
  problems: string[];
  signers: SignerReport[];
}

export interface VerifyOptions {
  /** Certificates a signer's chain may end in to be `trusted` (e.g. the marketplace's root, a vendor's CA). */
  trustedRoots?: readonly X509Certificate[];
  /** The time expiry is judged at; now by default. */
  now?: Date;
}

function summarize(certificate: X509Certificate): CertificateSummary {
  return {
    subject: certificate.subject,
    issuer: certificate.issuer,
    serialNumber: certificate.serialNumber,
    fingerprint256: certificate.fingerprint256,
    validFrom: new Date(certificate.validFrom),
    validTo: new Date(certificate.validTo),
  };
}

function isSignedBy(certificate: X509Certificate, issuer: X509Certificate): boolean {
  try {
    return certificate.verify(issuer.publicKey);
  } catch {
    return false;
  }
}

/** Issued to itself and signed with its own key (not `checkIssued`: OpenSSL also wants keyCertSign there). */
function isSelfSigned(certificate: X509Certificate): boolean {
  return certificate.subject === certificate.issuer && isSignedBy(certificate, certificate);
}

/** Index of the first certificate not signed by the next one, or -1 (`CertificateUtils.isValidCertificateChain`). */
function brokenLink(certificates: readonly X509Certificate[]): number {
  for (let index = 0; index + 1 < certificates.length; index += 1) {
    if (!isSignedBy(certificates[index]!, certificates[index + 1]!)) return index;
  }
  return -1;
}

function firstLine(subject: string): string {
  const commonName = subject.split('\n').find((line) => line.startsWith('CN='));
  return commonName ? commonName.slice(3) : subject.replace(/\n/g, ', ');
}

function verifySignatureBytes(
  algorithm: SignatureAlgorithm,
  data: Buffer,
  key: KeyObject,
  signature: Buffer,
): boolean {
  try {
    return verify(algorithm.digest.hash, data, key, signature);
  } catch {
    return false;
  }
}

/**
 * Recomputes the content digests and checks every signer, as the IDE does (marketplace-zip-signer's
 * `ZipVerifier`), and reports what the IDE does not look at: expiry, self-signed certificates, complete chains.
 * Throws `SignatureFormatError` for a file that is not a zip or a damaged signing block.
 */
export function verifySignatures(zip: Buffer, options: VerifyOptions = {}): VerificationReport {
  const { layout, metadata, signatures } = parse(zip);
  if (!metadata || !signatures)
    return { signed: false, valid: false, contentIntact: false, problems: [], signers: [] };
  const now = options.now ?? new Date();
  const trustedRoots = options.trustedRoots ?? [];

  const problems: string[] = [];
  const intact = new Map<number, boolean>();
  for (const digest of metadata.digests) {
    if (!digest.algorithm) {
      problems.push(
        `The signature block uses digest algorithm ${digest.algorithmId}, which the IDE does not know.`,
      );
      continue;
    }
    const matches = contentDigest(zip, layout, digest.algorithm).equals(digest.bytes);
    intact.set(digest.algorithm.id, (intact.get(digest.algorithm.id) ?? true) && matches);
  }
  const contentIntact =
    metadata.digests.length > 0 && problems.length === 0 && [...intact.values()].every(Boolean);
  if (metadata.digests.length === 0) problems.push('The signature block holds no digest of the content.');
  else if ([...intact.values()].some((matches) => !matches)) {
    problems.push(
      'The archive was changed after it was signed: its content no longer matches the signed digest.',
    );
  }

  const reports = signatures.signers.map((signer, index): SignerReport => {
    const stored = metadata.signers[index]!;
    const certificates = signer.certificates;
    const reasons: string[] = [];
    const first = signer.signatures[0];
    const algorithm = first?.algorithm ?? null;

    if (certificates.length === 0) reasons.push('The signer has no certificate.');
    if (signer.signatures.length === 0) reasons.push('The signer has no signature.');
    for (const signature of stored.signatures) {
      const known = signatureAlgorithmById(signature.algorithmId);
      if (!known) {
        reasons.push(`The signature uses algorithm ${signature.algorithmId}, which the IDE does not know.`);
        continue;
      }
      const digest = metadata.digests.find((candidate) => candidate.algorithm?.id === known.digest.id);
      if (!digest) {
        reasons.push(
          `The signature block has no ${known.digest.name} digest for the ${known.name} signature.`,
        );
        continue;
      }
      if (intact.get(known.digest.id) === false) {
        reasons.push('The archive was changed after it was signed.');
        continue;
      }
      if (
        certificates.length > 0 &&
        !verifySignatureBytes(known, digest.bytes, certificates[0]!.publicKey, signature.bytes)
      ) {
        reasons.push(`The ${known.name} signature does not verify with the signer's certificate.`);
      }
    }

    const broken = brokenLink(certificates);
    const chainLinksValid = broken < 0;
    if (!chainLinksValid) {
      reasons.push(
        `The certificate chain is broken: certificate ${broken + 1} (${firstLine(certificates[broken]!.subject)}) is not signed by the next one.`,
      );
    }
    // Every certificate that signs another must be a certificate authority (basic constraints CA): otherwise
    // any signer under a trusted root could issue certificates of its own that pass. The IDE checks only the
    // links, so this is reported (and such a chain is not trusted) rather than made a reason.
    const issuersAreAuthorities = certificates.slice(1).every((certificate) => certificate.ca);
    const last = certificates[certificates.length - 1];
    const chainComplete = chainLinksValid && last !== undefined && isSelfSigned(last);
    const leaf = certificates[0];
    const time = now.getTime();
    const expired = certificates.some((certificate) => new Date(certificate.validTo).getTime() < time);
    const notYetValid = certificates.some((certificate) => new Date(certificate.validFrom).getTime() > time);
    const trusted =
      chainLinksValid &&
      issuersAreAuthorities &&
      last !== undefined &&
      trustedRoots.some((root) => root.raw.equals(last.raw));

    const unique = [...new Set(reasons)];
    return {
      index,
      valid: unique.length === 0,
      reason: unique.length === 0 ? null : unique.join(' '),
      algorithm,
      certificates,
      chain: certificates.map(summarize),
      signedBy: leaf ? firstLine(leaf.subject) : '',
      chainLinksValid,
      issuersAreAuthorities,
      chainComplete,
      selfSigned: leaf !== undefined && isSelfSigned(leaf),
      expired,
      notYetValid,
      trusted,
    };
  });

  return {
    signed: true,
    valid: contentIntact && reports.every((report) => report.valid),
    contentIntact,
    problems,
    signers: reports,
  };
}

export interface SignOptions {
  /** The signer's private key (a KeyObject or PEM/DER that node:crypto reads). */
  privateKey: KeyObject | string | Buffer;
  /** The signer's certificate first, then each issuer up to (and best including) the root the IDE will trust. */
  certificateChain: readonly (X509Certificate | string | Buffer)[];
}

function toCertificate(value: X509Certificate | string | Buffer): X509Certificate {
  return value instanceof X509Certificate ? value : new X509Certificate(value);
}

/** Every certificate of a PEM bundle (or one DER certificate), in file order. */
export function parseCertificateChain(pemOrDer: string | Buffer): X509Certificate[] {
  const text = Buffer.isBuffer(pemOrDer) ? pemOrDer.toString('latin1') : pemOrDer;
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g);
  if (!blocks) return [new X509Certificate(pemOrDer)];
  return blocks.map((block) => new X509Certificate(block));
}

/**
 * Signs a zip in marketplace-zip-signer's format and returns the signed bytes. An archive that is signed
 * already keeps its signers and gets one more (the real `ZipSigner` appends, it never replaces): its digests
 * are checked first (a changed archive cannot be countersigned), kept, and the one this key needs is added
 * when missing. Throws for a chain whose links do not verify or a key that does not match the certificate.
 */
export function signZip(zip: Buffer, options: SignOptions): Buffer {
  const { contentEnd, tail } = signZipTail(zip, options);
  return Buffer.concat([zip.subarray(0, contentEnd), tail]);
}

/**
 * {@link signZip} without the copy: the signed archive is `zip`'s first `contentEnd` bytes, unchanged, followed
 * by `tail` (the new signing block, the central directory and the end record). The upload writes the tail
 * over the uploaded file's old end, so a large archive is never held twice in memory.
 */
export function signZipTail(zip: Buffer, options: SignOptions): { contentEnd: number; tail: Buffer } {
  const certificates = options.certificateChain.map(toCertificate);
  if (certificates.length === 0) throw new Error('A certificate chain is needed to sign: it is empty.');
  const broken = brokenLink(certificates);
  if (broken >= 0) {
    throw new Error(
      `The certificate chain is not valid: certificate ${broken + 1} (${firstLine(certificates[broken]!.subject)}) is not signed by the next one.`,
    );
  }
  const privateKey =
    typeof options.privateKey === 'string' || Buffer.isBuffer(options.privateKey)
      ? createPrivateKey(options.privateKey)
      : options.privateKey;
  const algorithm = suggestedSignatureAlgorithm(certificates[0]!.publicKey);

  const { layout, metadata } = parse(zip);
  const digests: { algorithm: DigestAlgorithm; bytes: Buffer; raw: Buffer }[] = [];
  if (metadata) {
    for (const digest of metadata.digests) {
      if (!digest.algorithm) {
        throw damaged(
          `it uses digest algorithm ${digest.algorithmId}, which cannot be checked before countersigning.`,
        );
      }
      if (!contentDigest(zip, layout, digest.algorithm).equals(digest.bytes)) {
        throw new Error(
          'This archive cannot be countersigned: it was changed after it was signed (its content no longer matches the signed digest).',
        );
      }
      digests.push({ algorithm: digest.algorithm, bytes: digest.bytes, raw: digest.raw });
    }
  }
  let digest = digests.find((candidate) => candidate.algorithm.id === algorithm.digest.id);
  if (!digest) {
    const bytes = contentDigest(zip, layout, algorithm.digest);
    digest = { algorithm: algorithm.digest, bytes, raw: serializeDigest(algorithm.digest, bytes) };
    digests.push(digest);
  }

  const signature = sign(algorithm.digest.hash, digest.bytes, privateKey);
  if (!verifySignatureBytes(algorithm, digest.bytes, certificates[0]!.publicKey, signature)) {
    throw new Error("The private key does not belong to the signer's certificate (the first of the chain).");
  }
  const signers = [
    ...(metadata?.signers.map((signer) => signer.raw) ?? []),
    serializeSigner(
      certificates.map((certificate) => certificate.raw),
      algorithm.id,
      signature,
    ),
  ];
  const block = serializeBlock(
    digests.map((entry) => entry.raw),
    signers,
  );

  const centralDirectory = zip.subarray(
    layout.centralDirectoryOffset,
    layout.centralDirectoryOffset + layout.centralDirectorySize,
  );
  const eocd = eocdForDigest(zip, layout, layout.contentEnd + block.length);
  return { contentEnd: layout.contentEnd, tail: Buffer.concat([block, centralDirectory, eocd]) };
}

/**
 * The archive as it was before anyone signed it: the entries, the central directory and the end record
 * pointing at it, without the signing block (the same bytes when there is none). What a countersigned
 * download is compared with: the same content, whatever signatures were added.
 */
export function unsignedZip(zip: Buffer): Buffer {
  const layout = readZipLayout(zip);
  if (!layout.block) return zip;
  return Buffer.concat([
    zip.subarray(0, layout.contentEnd),
    zip.subarray(layout.centralDirectoryOffset, layout.centralDirectoryOffset + layout.centralDirectorySize),
    eocdForDigest(zip, layout, layout.contentEnd),
  ]);
}
