import { createHash, randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { inspectPluginArchive } from '../../../src/archive';
import {
  SignatureFormatError,
  readSignatures,
  signZip,
  verifySignatures,
} from '../../../src/trust/signatures';
import { archiveBytes, pluginJarContent, withScratch } from '../../archive/plugin-fixtures';
import { EC_P256, makeChain, makeIdentity } from './pki';

type Chain = Awaited<ReturnType<typeof makeChain>>;

const MAGIC = Buffer.from('@PK Sig Block 42', 'latin1');

/** A plugin zip as Gradle builds it: <name>/lib/<name>.jar holding META-INF/plugin.xml, plus optional bulk. */
async function pluginZip(extra: Record<string, Buffer> = {}): Promise<Buffer> {
  return archiveBytes({
    'rainbow/lib/rainbow.jar': await archiveBytes(pluginJarContent()),
    'rainbow/lib/annotations.jar': await archiveBytes({ 'META-INF/MANIFEST.MF': 'Manifest-Version: 1.0\n' }),
    ...extra,
  });
}

/** Flips bits of one byte, as a bad disk or a hostile mirror would. */
function flip(bytes: Buffer, index: number, mask: number): void {
  bytes[index] = bytes[index]! ^ mask;
}

function eocdOffset(zip: Buffer): number {
  return zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
}

function centralDirectory(zip: Buffer): { offset: number; size: number } {
  const eocd = eocdOffset(zip);
  return { offset: zip.readUInt32LE(eocd + 16), size: zip.readUInt32LE(eocd + 12) };
}

/** The content digest as the format defines it, written out independently of the implementation. */
function expectedDigest(unsigned: Buffer, hash: 'sha256' | 'sha384' | 'sha512'): Buffer {
  const cd = centralDirectory(unsigned);
  const sections = [
    unsigned.subarray(0, cd.offset),
    unsigned.subarray(cd.offset, cd.offset + cd.size),
    unsigned.subarray(cd.offset + cd.size),
  ];
  const chunks = sections.flatMap((section) => {
    const parts: Buffer[] = [];
    for (let start = 0; start < section.length; start += 1024 * 1024)
      parts.push(section.subarray(start, start + 1024 * 1024));
    return parts;
  });
  const head = Buffer.alloc(5);
  head[0] = 0x5a;
  head.writeUInt32LE(chunks.length, 1);
  const hashes = chunks.map((chunk) => {
    const prefix = Buffer.alloc(5);
    prefix[0] = 0x5a;
    prefix.writeUInt32LE(chunk.length, 1);
    return createHash(hash).update(prefix).update(chunk).digest();
  });
  return Buffer.concat([head, ...hashes]);
}

function lengthDelimited(field: number, bytes: Buffer): Buffer {
  const length: number[] = [];
  let rest = bytes.length;
  while (rest >= 0x80) {
    length.push((rest & 0x7f) | 0x80);
    rest >>>= 7;
  }
  length.push(rest);
  return Buffer.concat([Buffer.from([(field << 3) | 2, ...length]), bytes]);
}

function openWithYauzl(zip: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, file) => {
      if (error || !file) return reject(error ?? new Error('no zip'));
      const names: string[] = [];
      file.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        file.readEntry();
      });
      file.on('end', () => resolve(names));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

describe('plugin archive signatures (marketplace-zip-signer format)', { timeout: 60_000 }, () => {
  let vendor: Chain;
  let marketplace: Chain;
  let unsigned: Buffer;

  beforeAll(async () => {
    vendor = await makeChain('Example Vendor');
    marketplace = await makeChain('Marketplace');
    unsigned = await pluginZip();
  });

  it('signs a plugin zip with a root → intermediate → leaf chain and verifies it as the IDE would', () => {
    const signed = signZip(unsigned, { privateKey: vendor.leaf.privateKey, certificateChain: vendor.chain });
    const report = verifySignatures(signed, { trustedRoots: [vendor.root.certificate] });

    expect(report).toMatchObject({ signed: true, valid: true, contentIntact: true, problems: [] });
    expect(report.signers).toHaveLength(1);
    expect(report.signers[0]).toMatchObject({
      index: 0,
      valid: true,
      reason: null,
      algorithm: 'SHA256withRSA',
      signedBy: 'Example Vendor Signer',
      chainLinksValid: true,
      chainComplete: true,
      selfSigned: false,
      expired: false,
      notYetValid: false,
      trusted: true,
    });
    expect(report.signers[0]!.chain.map((certificate) => certificate.subject)).toEqual([
      'CN=Example Vendor Signer',
      'CN=Example Vendor Intermediate CA',
      'CN=Example Vendor Root CA',
    ]);
    expect(report.signers[0]!.issuersAreAuthorities).toBe(true);
    // Trusted only by the root it ends in, like the IDE's "last certificate equals a trusted one".
    expect(
      verifySignatures(signed, { trustedRoots: [marketplace.root.certificate] }).signers[0]!.trusted,
    ).toBe(false);
    expect(
      verifySignatures(signed, { trustedRoots: [vendor.intermediate.certificate] }).signers[0]!.trusted,
    ).toBe(false);
  });

  it('does not trust a chain in which a certificate that is no authority issued another', async () => {
    const rogue = await makeIdentity('Rogue Signer', { issuer: vendor.leaf });
    const signed = signZip(unsigned, {
      privateKey: rogue.privateKey,
      certificateChain: [rogue.certificate, ...vendor.chain],
    });
    const [signer] = verifySignatures(signed, { trustedRoots: [vendor.root.certificate] }).signers;
    // The IDE would accept the links; the marketplace reports the chain and does not trust it.
    expect(signer).toMatchObject({
      valid: true,
      chainLinksValid: true,
      issuersAreAuthorities: false,
      trusted: false,
    });
  });

  it('writes the wire shape of the real tool: entries untouched, block before the central directory, exact protobuf', () => {
    const signed = signZip(unsigned, { privateKey: vendor.leaf.privateKey, certificateChain: vendor.chain });
    const original = centralDirectory(unsigned);
    const moved = centralDirectory(signed);
    const signatures = readSignatures(signed)!;

    // Entries byte for byte, then the block, then the same central directory, then the EOCD pointing past the block.
    expect(signed.subarray(0, original.offset).equals(unsigned.subarray(0, original.offset))).toBe(true);
    expect(signatures.block).toEqual({ offset: original.offset, size: moved.offset - original.offset });
    expect(signed.subarray(moved.offset - 16, moved.offset).equals(MAGIC)).toBe(true);
    const size = signed.readBigUInt64LE(original.offset);
    expect(size).toBe(BigInt(signatures.block.size - 8));
    expect(signed.readBigUInt64LE(moved.offset - 24)).toBe(size);
    expect(
      signed
        .subarray(moved.offset, moved.offset + moved.size)
        .equals(unsigned.subarray(original.offset, original.offset + original.size)),
    ).toBe(true);
    expect(signed.length).toBe(unsigned.length + signatures.block.size);

    // The digest is the chunked SHA-256 of the unsigned archive (EOCD with its own CD offset), stored as is.
    const digest = expectedDigest(unsigned, 'sha256');
    expect(signatures.digests).toEqual([{ algorithmId: 0, algorithm: 'CHUNKED_SHA256', bytes: digest }]);
    const signer = signatures.signers[0]!;
    expect(signer.signatures).toHaveLength(1);
    expect(signer.signatures[0]!.algorithm).toBe('SHA256withRSA');

    // ZipMetadataProto{1: version 1, 2: {1: DigestProto{2: bytes}, 2: SignerBlockProto{1: certs..., 2: {2: signature}}}},
    // proto3 style: enum value 0 (SHA256, RSA_WITH_SHA256) is not written.
    const signerProto = Buffer.concat([
      ...vendor.chain.map((certificate) => lengthDelimited(1, certificate.raw)),
      lengthDelimited(2, lengthDelimited(2, signer.signatures[0]!.bytes)),
    ]);
    const content = Buffer.concat([
      lengthDelimited(1, lengthDelimited(2, digest)),
      lengthDelimited(2, signerProto),
    ]);
    const metadata = Buffer.concat([Buffer.from([0x08, 0x01]), lengthDelimited(2, content)]);
    expect(signed.subarray(original.offset + 8, moved.offset - 24).equals(metadata)).toBe(true);
  });

  it('reports a changed entry as an invalid signature', () => {
    const signed = signZip(unsigned, { privateKey: vendor.leaf.privateKey, certificateChain: vendor.chain });
    const tampered = Buffer.from(signed);
    const jarStart = tampered.indexOf(Buffer.from('rainbow/lib/rainbow.jar'));
    flip(tampered, jarStart + 60, 0x01); // a byte of the stored jar's data

    const report = verifySignatures(tampered, { trustedRoots: [vendor.root.certificate] });
    expect(report.valid).toBe(false);
    expect(report.contentIntact).toBe(false);
    expect(report.problems).toEqual([
      'The archive was changed after it was signed: its content no longer matches the signed digest.',
    ]);
    expect(report.signers[0]).toMatchObject({
      valid: false,
      reason: 'The archive was changed after it was signed.',
    });
  });

  it('reports a signature that does not match the certificate', () => {
    const signed = signZip(unsigned, { privateKey: vendor.leaf.privateKey, certificateChain: vendor.chain });
    const tampered = Buffer.from(signed);
    const { offset } = centralDirectory(tampered);
    flip(tampered, offset - 25, 0xff); // the last byte of the signature, right before the footer

    const report = verifySignatures(tampered);
    expect(report.contentIntact).toBe(true);
    expect(report.valid).toBe(false);
    expect(report.signers[0]!.reason).toBe(
      "The SHA256withRSA signature does not verify with the signer's certificate.",
    );
  });

  it('refuses a damaged signature block with a clear message', () => {
    const signed = signZip(unsigned, { privateKey: vendor.leaf.privateKey, certificateChain: vendor.chain });
    const block = readSignatures(signed)!.block;

    const badSize = Buffer.from(signed);
    badSize.writeBigUInt64LE(12345n, block.offset);
    expect(() => readSignatures(badSize)).toThrow(
      'The signature block of this archive is damaged: the sizes at its start (12345) and end',
    );
    expect(() => verifySignatures(badSize)).toThrow(SignatureFormatError);

    const garbage = Buffer.from(signed);
    garbage.fill(0xff, block.offset + 8, block.offset + 40);
    expect(() => verifySignatures(garbage)).toThrow(
      /^The signature block of this archive is damaged: its content cannot be read/,
    );

    const hugeSize = Buffer.from(signed);
    const footer = centralDirectory(signed).offset - 24;
    hugeSize.writeBigUInt64LE(BigInt(signed.length) * 2n, footer);
    expect(() => readSignatures(hugeSize)).toThrow(
      /damaged: its size \(\d+ bytes\) does not fit in the archive/,
    );

    const badCertificate = Buffer.from(signed);
    const leafAt = badCertificate.indexOf(vendor.leaf.certificate.raw);
    badCertificate.fill(0, leafAt, leafAt + 8);
    expect(() => readSignatures(badCertificate)).toThrow(
      'The signature block of this archive is damaged: certificate 1 of signer 1 is not a valid X.509 certificate.',
    );
  });

  it('reports an expired signer certificate (the signature itself still verifies)', async () => {
    const expiredLeaf = await makeIdentity('Lapsed Vendor Signer', {
      issuer: vendor.intermediate,
      notBefore: new Date('2020-01-01T00:00:00Z'),
      notAfter: new Date('2021-01-01T00:00:00Z'),
    });
    const chain = [expiredLeaf.certificate, vendor.intermediate.certificate, vendor.root.certificate];
    const signed = signZip(unsigned, { privateKey: expiredLeaf.privateKey, certificateChain: chain });

    const report = verifySignatures(signed, {
      trustedRoots: [vendor.root.certificate],
      now: new Date('2026-06-01T00:00:00Z'),
    });
    expect(report.valid).toBe(true);
    expect(report.signers[0]).toMatchObject({
      expired: true,
      notYetValid: false,
      trusted: true,
      signedBy: 'Lapsed Vendor Signer',
    });
    // The same archive judged in 2020-06 is within the leaf's validity.
    expect(verifySignatures(signed, { now: new Date('2020-06-01T00:00:00Z') }).signers[0]!.expired).toBe(
      false,
    );
  });

  it('reports a self-signed certificate as self-signed and untrusted', async () => {
    const alone = await makeIdentity('Lone Developer');
    const signed = signZip(unsigned, { privateKey: alone.privateKey, certificateChain: [alone.certificate] });

    const report = verifySignatures(signed, { trustedRoots: [vendor.root.certificate] });
    expect(report.valid).toBe(true);
    expect(report.signers[0]).toMatchObject({
      selfSigned: true,
      chainComplete: true,
      trusted: false,
      signedBy: 'Lone Developer',
    });
    expect(verifySignatures(signed, { trustedRoots: [alone.certificate] }).signers[0]!.trusted).toBe(true);
  });

  it('marks a chain that stops short of a self-signed root as incomplete', () => {
    const signed = signZip(unsigned, {
      privateKey: vendor.leaf.privateKey,
      certificateChain: [vendor.leaf.certificate, vendor.intermediate.certificate],
    });
    const signer = verifySignatures(signed, { trustedRoots: [vendor.root.certificate] }).signers[0]!;
    expect(signer).toMatchObject({
      valid: true,
      chainLinksValid: true,
      chainComplete: false,
      selfSigned: false,
      trusted: false,
    });
  });

  it('countersigns an author-signed archive: keeps the author, adds the marketplace, both verify', async () => {
    const author = await makeIdentity('EC Author', { algorithm: EC_P256 });
    const authorSigned = signZip(unsigned, {
      privateKey: author.privateKey,
      certificateChain: [author.certificate],
    });
    const countersigned = signZip(authorSigned, {
      privateKey: marketplace.leaf.privateKey,
      certificateChain: marketplace.chain,
    });

    const signatures = readSignatures(countersigned)!;
    // The author's digest (SHA-384 for an EC key) is kept and the marketplace's SHA-256 one is added after it.
    expect(signatures.digests.map((digest) => digest.algorithm)).toEqual([
      'CHUNKED_SHA384',
      'CHUNKED_SHA256',
    ]);
    expect(signatures.digests[0]!.bytes).toEqual(expectedDigest(unsigned, 'sha384'));
    expect(signatures.digests[1]!.bytes).toEqual(expectedDigest(unsigned, 'sha256'));
    expect(signatures.digests[0]!.bytes).toEqual(readSignatures(authorSigned)!.digests[0]!.bytes);

    const report = verifySignatures(countersigned, { trustedRoots: [marketplace.root.certificate] });
    expect(report.valid).toBe(true);
    expect(
      report.signers.map((signer) => [signer.signedBy, signer.algorithm, signer.valid, signer.trusted]),
    ).toEqual([
      ['EC Author', 'SHA384withECDSA', true, false],
      ['Marketplace Signer', 'SHA256withRSA', true, true],
    ]);

    // Signing again with the same chain appends again, as the real ZipSigner does.
    const twice = signZip(countersigned, {
      privateKey: marketplace.leaf.privateKey,
      certificateChain: marketplace.chain,
    });
    expect(readSignatures(twice)!.signers).toHaveLength(3);
    expect(readSignatures(twice)!.digests).toHaveLength(2);
  });

  it('refuses to countersign an archive that was changed after the author signed it', () => {
    const authorSigned = signZip(unsigned, {
      privateKey: vendor.leaf.privateKey,
      certificateChain: vendor.chain,
    });
    const tampered = Buffer.from(authorSigned);
    flip(tampered, 100, 0x01);
    expect(() =>
      signZip(tampered, { privateKey: marketplace.leaf.privateKey, certificateChain: marketplace.chain }),
    ).toThrow('This archive cannot be countersigned: it was changed after it was signed');
  });

  it('refuses to sign with a broken chain or a key that is not the certificate’s', () => {
    expect(() =>
      signZip(unsigned, {
        privateKey: vendor.leaf.privateKey,
        certificateChain: [vendor.leaf.certificate, marketplace.root.certificate],
      }),
    ).toThrow(
      'The certificate chain is not valid: certificate 1 (Example Vendor Signer) is not signed by the next one.',
    );
    expect(() =>
      signZip(unsigned, { privateKey: marketplace.leaf.privateKey, certificateChain: vendor.chain }),
    ).toThrow("The private key does not belong to the signer's certificate");
  });

  it('keeps the archive readable: the upload inspector finds plugin.xml in signed and countersigned archives', async () => {
    const signed = signZip(unsigned, { privateKey: vendor.leaf.privateKey, certificateChain: vendor.chain });
    const countersigned = signZip(signed, {
      privateKey: marketplace.leaf.privateKey,
      certificateChain: marketplace.chain,
    });
    expect(await openWithYauzl(countersigned)).toEqual([
      'rainbow/lib/rainbow.jar',
      'rainbow/lib/annotations.jar',
    ]);
    await withScratch(async (folder) => {
      for (const [name, bytes] of [
        ['signed.zip', signed],
        ['countersigned.zip', countersigned],
      ] as const) {
        const path = join(folder, name);
        await writeFile(path, bytes);
        const inspection = await inspectPluginArchive(path, {
          tempDir: folder,
          now: new Date('2026-06-01T00:00:00Z'),
        });
        expect(inspection.ok && inspection.descriptor.id).toBe('com.example.rainbow');
      }
    });
  });

  it('digests archives larger than one chunk chunk by chunk, and catches a change in a later chunk', async () => {
    const big = await pluginZip({ 'rainbow/lib/data.bin': randomBytes(2_500_000) });
    const signed = signZip(big, { privateKey: vendor.leaf.privateKey, certificateChain: vendor.chain });
    const digest = readSignatures(signed)!.digests[0]!.bytes;
    expect(digest).toEqual(expectedDigest(big, 'sha256'));
    expect(digest.readUInt32LE(1)).toBeGreaterThanOrEqual(4); // 3 chunks of entries (at least), the CD, the EOCD
    expect(verifySignatures(signed).valid).toBe(true);

    const tampered = Buffer.from(signed);
    flip(tampered, 2_100_000, 0x80);
    expect(verifySignatures(tampered).contentIntact).toBe(false);
  });

  it('keeps a zip comment inside the signed end record', async () => {
    const withComment = Buffer.from(unsigned);
    const eocd = eocdOffset(withComment);
    withComment.writeUInt16LE(11, eocd + 20);
    const commented = Buffer.concat([withComment, Buffer.from('hello world')]);
    const signed = signZip(commented, { privateKey: vendor.leaf.privateKey, certificateChain: vendor.chain });
    expect(signed.subarray(-11).toString()).toBe('hello world');
    expect(verifySignatures(signed).valid).toBe(true);
    expect(await openWithYauzl(signed)).toEqual(['rainbow/lib/rainbow.jar', 'rainbow/lib/annotations.jar']);
  });

  it('tells an unsigned archive and a file that is not a zip apart', () => {
    expect(readSignatures(unsigned)).toBeNull();
    expect(verifySignatures(unsigned)).toEqual({
      signed: false,
      valid: false,
      contentIntact: false,
      problems: [],
      signers: [],
    });
    expect(() => readSignatures(Buffer.from('definitely not a zip file at all'))).toThrow(
      'This file is not a zip archive: it has no end of central directory record.',
    );
  });
});
