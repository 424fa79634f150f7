import { createHash } from 'node:crypto';
import { open, readFile } from 'node:fs/promises';
import type { Queryable } from '../db/client';
import type { StoredCertificate } from '../db/schema';
import type { SignatureRecord, UploadVendor } from './signature-requirements';
import {
  SignatureFormatError,
  signZipTail,
  verifySignatures,
  type CertificateSummary,
  type SignerReport,
  type VerificationReport,
} from './signatures';
import { signingIdentity, type SigningIdentity, type SigningOptions } from './signing-key';

/** The uploaded archive after the signature checks: countersigned in place, with its new hash and size. */
export interface SignedUpload {
  sha256: string;
  size: number;
  record: SignatureRecord;
  /** Said to the uploader beside an accepted upload (the archive could not be countersigned). */
  warnings: string[];
}

export type SigningVerdict = { refusal: string } | { accepted: SignedUpload };

export interface SigningContext {
  db: Queryable;
  options: SigningOptions;
  publicUrl: string;
  /** When certificates are judged (expiry); now by default. */
  now?: Date;
}

function commonName(subject: string): string {
  const line = subject.split('\n').find((part) => part.startsWith('CN='));
  return line ? line.slice(3) : subject.replace(/\n/g, ', ');
}

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function stored(certificate: CertificateSummary): StoredCertificate {
  return {
    subject: certificate.subject,
    issuer: certificate.issuer,
    serialNumber: certificate.serialNumber,
    fingerprint256: certificate.fingerprint256,
    validFrom: certificate.validFrom.toISOString(),
    validTo: certificate.validTo.toISOString(),
  };
}

/** Why an archive whose signatures do not verify is refused, in the report's own sentences. */
function invalidReason(report: VerificationReport): string {
  const reasons = [
    ...report.problems,
    ...report.signers.flatMap((signer) =>
      signer.reason === null
        ? []
        : [`Signer ${signer.index + 1} (${signer.signedBy || 'no certificate'}): ${signer.reason}`],
    ),
  ];
  return `The signature of this archive does not verify, so the IDE would refuse it: ${[...new Set(reasons)].join(' ')} Sign the final archive again and upload the signed file.`;
}

/**
 * What a vendor that must sign is refused for, or undefined when the author's signature satisfies it: present
 * (the archive is valid already), by a certificate an authority issued (not self-signed), with the whole
 * chain up to a root, valid today, and ending in one of the operator's trusted roots when there are any.
 */
function requirementRefusal(
  author: SignerReport | undefined,
  vendor: UploadVendor,
  options: SigningOptions,
  now: Date,
): string | undefined {
  const who = `The vendor "${vendor.name}" must sign its plugins`;
  if (!author) {
    return `${who}, and this archive is not signed: sign it with your certificate (the Gradle task signPlugin, or marketplace-zip-signer) and upload the signed file.`;
  }
  const leaf = author.chain[0]!;
  if (author.selfSigned) {
    return `${who} with a certificate issued by a certificate authority, and this archive is signed with a self-signed certificate (${commonName(leaf.subject)}): sign with a certificate your organisation's or a public authority issued, and include its chain.`;
  }
  if (!author.issuersAreAuthorities) {
    const issuer = author.certificates.find((certificate, index) => index > 0 && !certificate.ca);
    return `${who} with a chain of certificate authorities, and in the chain of this signature ${issuer ? commonName(issuer.subject) : 'a certificate'} issues a certificate without being an authority: sign with a certificate issued by a certificate authority.`;
  }
  if (!author.chainComplete) {
    const last = author.chain[author.chain.length - 1]!;
    return `${who} with a complete certificate chain, and the chain of this signature is incomplete: it ends in ${commonName(last.subject)}, which is not a root certificate. Sign again with every issuer up to the root (signPlugin's certificateChain).`;
  }
  const time = now.getTime();
  const expired = author.chain.find((certificate) => certificate.validTo.getTime() < time);
  if (author.expired && expired) {
    return `${who} with a valid certificate, and the certificate chain of this signature has expired: ${commonName(expired.subject)} was valid until ${day(expired.validTo)}. Renew the certificate and sign again.`;
  }
  if (author.expired || author.notYetValid) {
    const wrong = author.chain.find(
      (certificate) => certificate.validTo.getTime() < time || certificate.validFrom.getTime() > time,
    );
    const name = wrong ? commonName(wrong.subject) : author.signedBy;
    return `${who} with a valid certificate, and ${name} in the chain of this signature is not valid today${wrong ? ` (valid from ${day(wrong.validFrom)} to ${day(wrong.validTo)})` : ''}. Sign again with a certificate valid now.`;
  }
  if (options.trustedRoots.length > 0 && !author.trusted) {
    const last = author.chain[author.chain.length - 1]!;
    return `${who} with a certificate under a root this marketplace trusts, and this chain ends in ${commonName(last.subject)}, which it does not trust: sign with a certificate issued under a trusted root, or ask the marketplace's operator to trust yours.`;
  }
  return undefined;
}

function isOurs(signer: SignerReport, identity: SigningIdentity): boolean {
  const leaf = signer.certificates[0];
  return leaf !== undefined && leaf.raw.equals(identity.chain[0]!.raw);
}

/** The record of an archive nobody could sign or check (ZIP64 and the like): nothing but the reason. */
function unsignable(problem: string): SignatureRecord {
  return {
    signedBy: null,
    chain: [],
    algorithm: null,
    selfSigned: false,
    expired: false,
    notYetValid: false,
    chainComplete: false,
    trusted: false,
    countersignedBy: null,
    countersignProblem: problem,
  };
}

/**
 * The upload's signature step, on the inspected archive at `file.path`, before anything is stored:
 * 1. a signing block is verified (digests, every signer, chain links): a damaged block or a signature that
 *    does not verify is refused, whoever the vendor;
 * 2. a vendor that must sign is refused an unsigned archive, a self-signed, incomplete, expired or (with
 *    SIGNATURE_TRUSTED_ROOTS_FILE) untrusted chain;
 * 3. the archive is countersigned with the marketplace's key: the new signing block, central directory and
 *    end record are written over the file's old end (the entries stay where they are), and the answer carries
 *    the new hash and size, which the version is stored under.
 * Archives the format cannot carry a signature in (ZIP64) are accepted unsigned, unless the vendor must
 * sign. The file is read whole into memory once (as large as the upload).
 */
export async function checkAndCountersign(
  file: { path: string },
  vendor: UploadVendor | null,
  context: SigningContext,
): Promise<SigningVerdict> {
  const bytes = await readFile(file.path);
  const now = context.now ?? new Date();
  let report: VerificationReport;
  try {
    report = verifySignatures(bytes, { trustedRoots: context.options.trustedRoots, now });
  } catch (error) {
    if (!(error instanceof SignatureFormatError)) throw error;
    if (error.problem === 'damaged') return { refusal: error.message };
    if (vendor?.signaturesRequired) {
      return {
        refusal: `${error.message} The vendor "${vendor.name}" must sign its plugins, so this archive cannot be accepted: build it as an ordinary zip and sign it.`,
      };
    }
    return {
      accepted: {
        sha256: createHash('sha256').update(bytes).digest('hex'),
        size: bytes.length,
        record: unsignable(error.message),
        warnings: [`The marketplace could not countersign this archive: ${error.message}`],
      },
    };
  }
  if (report.signed && !report.valid) return { refusal: invalidReason(report) };

  const identity = await signingIdentity(context.db, context.options, context.publicUrl);
  const author = report.signers.find((signer) => !isOurs(signer, identity));
  if (vendor?.signaturesRequired) {
    const refusal = requirementRefusal(author, vendor, context.options, now);
    if (refusal !== undefined) return { refusal };
  }

  const fingerprint = identity.chain[0]!.fingerprint256;
  const record: SignatureRecord = {
    signedBy: author ? author.signedBy || author.chain[0]!.subject : null,
    chain: author ? author.chain.map(stored) : [],
    algorithm: author?.algorithm ?? null,
    selfSigned: author?.selfSigned ?? false,
    expired: author?.expired ?? false,
    notYetValid: author?.notYetValid ?? false,
    chainComplete: author?.chainComplete ?? false,
    trusted: author?.trusted ?? false,
    countersignedBy: fingerprint,
    countersignProblem: null,
  };
  // An archive the marketplace countersigned already (one of its own downloads) is not signed twice.
  if (report.signers.some((signer) => isOurs(signer, identity))) {
    return {
      accepted: {
        sha256: createHash('sha256').update(bytes).digest('hex'),
        size: bytes.length,
        record,
        warnings: [],
      },
    };
  }
  const { contentEnd, tail } = signZipTail(bytes, {
    privateKey: identity.privateKey,
    certificateChain: identity.chain,
  });
  const handle = await open(file.path, 'r+');
  try {
    await handle.truncate(contentEnd);
    await handle.write(tail, 0, tail.length, contentEnd);
  } finally {
    await handle.close();
  }
  return {
    accepted: {
      sha256: createHash('sha256').update(bytes.subarray(0, contentEnd)).update(tail).digest('hex'),
      size: contentEnd + tail.length,
      record,
      warnings: [],
    },
  };
}
