import { createHash } from 'node:crypto';
import { type DigestAlgorithm, digestAlgorithmById } from './algorithms';
import {
  ProtobufError,
  bytesField,
  bytesFields,
  readFields,
  varintField,
  writeBytesField,
  writeVarintField,
} from './protobuf';

/**
 * The layout of marketplace-zip-signer, read from its source (see README.md):
 *
 *   [entries ...][signing block][central directory][end of central directory]
 *
 * The signing block sits right before the central directory (the EOCD's CD offset points past it):
 *
 *   u64 LE  size of the block minus these 8 bytes
 *   ...     ZipMetadataProto (protobuf)
 *   u64 LE  the same size
 *   16 B    magic "@PK Sig Block 42" (two u64 LE: 0x20676953204b5040, 0x3234206b636f6c42)
 */

export const BLOCK_MAGIC = Buffer.from('@PK Sig Block 42', 'latin1');
const HEADER_SIZE = 8;
const FOOTER_SIZE = 24;
const SCHEME_VERSION = 1;

const EOCD_SIGNATURE = 0x06054b50;
const EOCD_MIN_SIZE = 22;
const EOCD_CD_SIZE = 12;
const EOCD_CD_OFFSET = 16;
const EOCD_COMMENT_LENGTH = 20;
const MAX_COMMENT = 0xffff;

/** Digests are taken over 1 MiB chunks, each prefixed with 0x5a and its length. */
export const CHUNK_SIZE = 1024 * 1024;
const CHUNK_PREFIX = 0x5a;

export type SignatureFormatProblem = 'not-zip' | 'damaged' | 'unsupported';

/** A zip the signature code cannot work with; `message` is a sentence for the person who uploaded it. */
export class SignatureFormatError extends Error {
  constructor(
    readonly problem: SignatureFormatProblem,
    message: string,
  ) {
    super(message);
    this.name = 'SignatureFormatError';
  }
}

export const DAMAGED = 'The signature block of this archive is damaged: ';

export function damaged(detail: string): SignatureFormatError {
  return new SignatureFormatError('damaged', `${DAMAGED}${detail}`);
}

export interface ZipLayout {
  eocdOffset: number;
  centralDirectoryOffset: number;
  centralDirectorySize: number;
  /** Where the signing block starts, or where the central directory starts when there is none. */
  contentEnd: number;
  /** The signing block (header to magic), when the archive has one. */
  block: { offset: number; size: number; metadata: Buffer } | null;
}

/** Finds the end of central directory record as the real tool does: empty comment first, then backwards. */
function findEocd(zip: Buffer): number {
  if (zip.length < EOCD_MIN_SIZE) return -1;
  const last = zip.length - EOCD_MIN_SIZE;
  const furthest = Math.min(last, MAX_COMMENT);
  for (let commentLength = 0; commentLength <= furthest; commentLength += 1) {
    const offset = last - commentLength;
    if (zip.readUInt32LE(offset) !== EOCD_SIGNATURE) continue;
    if (zip.readUInt16LE(offset + EOCD_COMMENT_LENGTH) !== commentLength) continue;
    return offset;
  }
  return -1;
}

export function readZipLayout(zip: Buffer): ZipLayout {
  const eocdOffset = findEocd(zip);
  if (eocdOffset < 0) {
    throw new SignatureFormatError(
      'not-zip',
      'This file is not a zip archive: it has no end of central directory record.',
    );
  }
  const centralDirectorySize = zip.readUInt32LE(eocdOffset + EOCD_CD_SIZE);
  const centralDirectoryOffset = zip.readUInt32LE(eocdOffset + EOCD_CD_OFFSET);
  if (centralDirectoryOffset === 0xffffffff || centralDirectorySize === 0xffffffff) {
    throw new SignatureFormatError(
      'unsupported',
      'This archive is a ZIP64 archive, which plugin signatures (marketplace-zip-signer) do not support.',
    );
  }
  if (centralDirectoryOffset + centralDirectorySize !== eocdOffset) {
    throw new SignatureFormatError(
      'unsupported',
      'This archive has data between its central directory and the end record (ZIP64 or a damaged zip), which plugin signatures cannot cover.',
    );
  }
  const block = findBlock(zip, centralDirectoryOffset);
  return {
    eocdOffset,
    centralDirectoryOffset,
    centralDirectorySize,
    contentEnd: block ? block.offset : centralDirectoryOffset,
    block,
  };
}

function findBlock(zip: Buffer, centralDirectoryOffset: number): ZipLayout['block'] {
  if (centralDirectoryOffset < HEADER_SIZE + FOOTER_SIZE) return null;
  const footer = zip.subarray(centralDirectoryOffset - FOOTER_SIZE, centralDirectoryOffset);
  if (!footer.subarray(8).equals(BLOCK_MAGIC)) return null;
  const sizeInFooter = footer.readBigUInt64LE(0);
  const total = sizeInFooter + BigInt(HEADER_SIZE);
  if (sizeInFooter < BigInt(FOOTER_SIZE) || total > BigInt(centralDirectoryOffset)) {
    throw damaged(`its size (${sizeInFooter} bytes) does not fit in the archive.`);
  }
  const offset = centralDirectoryOffset - Number(total);
  const sizeInHeader = zip.readBigUInt64LE(offset);
  if (sizeInHeader !== sizeInFooter) {
    throw damaged(`the sizes at its start (${sizeInHeader}) and end (${sizeInFooter}) differ.`);
  }
  return {
    offset,
    size: Number(total),
    metadata: zip.subarray(offset + HEADER_SIZE, centralDirectoryOffset - FOOTER_SIZE),
  };
}

/** The EOCD record (comment included) with its CD offset set to where the CD is in the unsigned archive. */
export function eocdForDigest(zip: Buffer, layout: ZipLayout, centralDirectoryOffset: number): Buffer {
  const eocd = Buffer.from(zip.subarray(layout.eocdOffset));
  eocd.writeUInt32LE(centralDirectoryOffset, EOCD_CD_OFFSET);
  return eocd;
}

/**
 * The content digest of the real tool (`DigestUtils`, `ChunkDigester`): the archive without the signing block
 * is cut into three sections (entries, central directory, EOCD with the CD offset of the unsigned archive),
 * each into 1 MiB chunks; the digest is 0x5a, the chunk count (u32 LE) and the hash of every chunk, where a
 * chunk's hash covers 0x5a, its length (u32 LE) and its bytes. The concatenation itself is the digest (it is
 * not hashed again); the signature algorithm hashes it when it signs.
 */
export function contentDigest(zip: Buffer, layout: ZipLayout, algorithm: DigestAlgorithm): Buffer {
  const sections = [
    zip.subarray(0, layout.contentEnd),
    zip.subarray(layout.centralDirectoryOffset, layout.centralDirectoryOffset + layout.centralDirectorySize),
    eocdForDigest(zip, layout, layout.contentEnd),
  ];
  const chunkCount = sections.reduce((count, section) => count + Math.ceil(section.length / CHUNK_SIZE), 0);
  const hashLength = createHash(algorithm.hash).digest().length;
  const result = Buffer.alloc(5 + chunkCount * hashLength);
  result[0] = CHUNK_PREFIX;
  result.writeUInt32LE(chunkCount, 1);
  const prefix = Buffer.alloc(5);
  prefix[0] = CHUNK_PREFIX;
  let position = 5;
  for (const section of sections) {
    for (let start = 0; start < section.length; start += CHUNK_SIZE) {
      const chunk = section.subarray(start, Math.min(section.length, start + CHUNK_SIZE));
      prefix.writeUInt32LE(chunk.length, 1);
      const hash = createHash(algorithm.hash).update(prefix).update(chunk).digest();
      hash.copy(result, position);
      position += hashLength;
    }
  }
  return result;
}

export interface StoredDigest {
  algorithmId: number;
  algorithm: DigestAlgorithm | undefined;
  bytes: Buffer;
  /** The DigestProto as stored, re-written verbatim when the archive is countersigned. */
  raw: Buffer;
}

export interface StoredSignature {
  algorithmId: number;
  bytes: Buffer;
}

export interface StoredSigner {
  /** DER, leaf first. */
  certificates: Buffer[];
  signatures: StoredSignature[];
  /** The SignerBlockProto as stored. */
  raw: Buffer;
}

export interface Metadata {
  schemeVersion: number;
  digests: StoredDigest[];
  signers: StoredSigner[];
}

/**
 * Parses ZipMetadataProto { uint32 signatureSchemeVersion = 1; ZipSignatureBlockProto content = 2; }
 * ZipSignatureBlockProto { repeated DigestProto digests = 1; repeated SignerBlockProto signers = 2; }
 * DigestProto { AlgorithmId algorithmId = 1; bytes digestBytes = 2; }
 * SignerBlockProto { repeated bytes certificates = 1; repeated SignatureDataProto signatures = 2; }
 * SignatureDataProto { AlgorithmId algorithmId = 1; bytes signatureBytes = 2; }
 */
export function parseMetadata(bytes: Buffer): Metadata {
  try {
    const top = readFields(bytes);
    const schemeVersion = varintField(top, 1);
    if (schemeVersion !== SCHEME_VERSION) {
      throw damaged(
        `its scheme version is ${schemeVersion}, where marketplace-zip-signer writes ${SCHEME_VERSION}.`,
      );
    }
    const content = readFields(bytesField(top, 2) ?? Buffer.alloc(0));
    const digests = bytesFields(content, 1).map((raw): StoredDigest => {
      const fields = readFields(raw);
      const algorithmId = varintField(fields, 1);
      return {
        algorithmId,
        algorithm: digestAlgorithmById(algorithmId),
        bytes: bytesField(fields, 2) ?? Buffer.alloc(0),
        raw,
      };
    });
    const signers = bytesFields(content, 2).map((raw): StoredSigner => {
      const fields = readFields(raw);
      return {
        certificates: bytesFields(fields, 1),
        signatures: bytesFields(fields, 2).map((signature) => {
          const signatureFields = readFields(signature);
          return {
            algorithmId: varintField(signatureFields, 1),
            bytes: bytesField(signatureFields, 2) ?? Buffer.alloc(0),
          };
        }),
        raw,
      };
    });
    if (signers.length === 0) throw damaged('it names no signer.');
    return { schemeVersion, digests, signers };
  } catch (error) {
    if (error instanceof ProtobufError) throw damaged(`its content cannot be read (${error.message}).`);
    throw error;
  }
}

export function serializeDigest(algorithm: DigestAlgorithm, bytes: Buffer): Buffer {
  return Buffer.concat([writeVarintField(1, algorithm.id), writeBytesField(2, bytes)]);
}

export function serializeSigner(
  certificates: readonly Buffer[],
  algorithmId: number,
  signature: Buffer,
): Buffer {
  const signatureData = Buffer.concat([writeVarintField(1, algorithmId), writeBytesField(2, signature)]);
  return Buffer.concat([
    ...certificates.map((certificate) => writeBytesField(1, certificate, { keepEmpty: true })),
    writeBytesField(2, signatureData, { keepEmpty: true }),
  ]);
}

/** The whole signing block for serialized DigestProtos and SignerBlockProtos. */
export function serializeBlock(digests: readonly Buffer[], signers: readonly Buffer[]): Buffer {
  const content = Buffer.concat([
    ...digests.map((digest) => writeBytesField(1, digest, { keepEmpty: true })),
    ...signers.map((signer) => writeBytesField(2, signer, { keepEmpty: true })),
  ]);
  const metadata = Buffer.concat([
    writeVarintField(1, SCHEME_VERSION),
    writeBytesField(2, content, { keepEmpty: true }),
  ]);
  const block = Buffer.alloc(HEADER_SIZE + metadata.length + FOOTER_SIZE);
  const sizeField = BigInt(block.length - HEADER_SIZE);
  block.writeBigUInt64LE(sizeField, 0);
  metadata.copy(block, HEADER_SIZE);
  block.writeBigUInt64LE(sizeField, HEADER_SIZE + metadata.length);
  BLOCK_MAGIC.copy(block, HEADER_SIZE + metadata.length + 8);
  return block;
}
