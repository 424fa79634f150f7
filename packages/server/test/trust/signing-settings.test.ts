import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import yazl from 'yazl';
import { ConfigError } from '../../src/config';
import { openDatabase } from '../../src/db/client';
import { checkAndCountersign } from '../../src/trust';
import { signZip, unsignedZip, verifySignatures } from '../../src/trust/signatures';
import {
  certificateToTrust,
  signingIdentity,
  signingOptionsFromEnv,
  type SigningOptions,
} from '../../src/trust/signing-key';
import { archiveBytes, pluginJarContent } from '../archive/plugin-fixtures';
import { createTestDatabase, type TestDatabase } from '../db/test-database';
import { makeChain } from './signatures/pki';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

type Chain = Awaited<ReturnType<typeof makeChain>>;

let scratch: string;
let marketplace: Chain;
let vendor: Chain;
let other: Chain;

function pem(label: string, der: Buffer): string {
  return `-----BEGIN ${label}-----\n${der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .trimEnd()}\n-----END ${label}-----\n`;
}

/** The operator's files: the key (PKCS #8 PEM) and the chain (PEM, signer first). */
async function writeIdentity(
  chain: Chain,
  order = chain.chain,
): Promise<{ key: string; certificates: string }> {
  const key = join(scratch, `${chain.leaf.name}-${order.length}.key`);
  const certificates = join(scratch, `${chain.leaf.name}-${order.length}-${order[0]!.serialNumber}.pem`);
  await writeFile(key, chain.leaf.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  await writeFile(certificates, order.map((certificate) => pem('CERTIFICATE', certificate.raw)).join(''));
  return { key, certificates };
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'mp-signing-settings-'));
  [marketplace, vendor, other] = await Promise.all([
    makeChain('Operator Marketplace'),
    makeChain('Example Vendor'),
    makeChain('Other'),
  ]);
});
afterAll(async () => rm(scratch, { recursive: true, force: true }));

describe('the signing settings', () => {
  it("reads the operator's key and chain and checks them at start", async () => {
    const files = await writeIdentity(marketplace);
    const options = signingOptionsFromEnv({
      MARKETPLACE_SIGNING_KEY_FILE: files.key,
      MARKETPLACE_SIGNING_CERT_FILE: files.certificates,
    });
    expect(options.configured?.source).toBe('files');
    expect(options.configured?.chain.map((certificate) => certificate.subject)).toEqual([
      'CN=Operator Marketplace Signer',
      'CN=Operator Marketplace Intermediate CA',
      'CN=Operator Marketplace Root CA',
    ]);
    expect(certificateToTrust(options.configured!).subject).toBe('CN=Operator Marketplace Root CA');
    expect(options.trustedRoots).toEqual([]);
  });

  it('stops the start with one sentence for a setting that cannot work', async () => {
    const files = await writeIdentity(marketplace);
    const wrongKey = await writeIdentity(other);
    const reversed = await writeIdentity(marketplace, [...marketplace.chain].reverse());
    const refusal = (env: NodeJS.ProcessEnv) => {
      try {
        signingOptionsFromEnv(env);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(refusal({ MARKETPLACE_SIGNING_KEY_FILE: files.key })).toBe(
      'Set both MARKETPLACE_SIGNING_KEY_FILE and MARKETPLACE_SIGNING_CERT_FILE, or neither (the marketplace then makes its own key).',
    );
    expect(
      refusal({
        MARKETPLACE_SIGNING_KEY_FILE: wrongKey.key,
        MARKETPLACE_SIGNING_CERT_FILE: files.certificates,
      }),
    ).toBe(
      `MARKETPLACE_SIGNING_CERT_FILE (${files.certificates}): the private key does not belong to the first certificate (Operator Marketplace Signer).`,
    );
    expect(
      refusal({
        MARKETPLACE_SIGNING_KEY_FILE: files.key,
        MARKETPLACE_SIGNING_CERT_FILE: reversed.certificates,
      }),
    ).toBe(
      `MARKETPLACE_SIGNING_CERT_FILE (${reversed.certificates}): certificate 1 (Operator Marketplace Root CA) is not signed by the next one (Operator Marketplace Intermediate CA); list the signing certificate first, then each issuer up to the root.`,
    );
    expect(
      refusal({
        MARKETPLACE_SIGNING_KEY_FILE: files.certificates,
        MARKETPLACE_SIGNING_CERT_FILE: files.certificates,
      }),
    ).toMatch(/^MARKETPLACE_SIGNING_KEY_FILE \(.+\) is not a private key the server can read/);
    expect(refusal({ SIGNATURE_TRUSTED_ROOTS_FILE: join(scratch, 'missing.pem') })).toMatch(
      /^SIGNATURE_TRUSTED_ROOTS_FILE \(.+missing\.pem\) cannot be read: /,
    );
  });
});

describe('countersigning with the configured key and trusted roots', () => {
  let testDatabase: TestDatabase;
  let options: SigningOptions;

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    const files = await writeIdentity(marketplace);
    const roots = join(scratch, 'roots.pem');
    await writeFile(roots, pem('CERTIFICATE', vendor.root.certificate.raw));
    options = signingOptionsFromEnv({
      MARKETPLACE_SIGNING_KEY_FILE: files.key,
      MARKETPLACE_SIGNING_CERT_FILE: files.certificates,
      SIGNATURE_TRUSTED_ROOTS_FILE: roots,
    });
  });
  afterAll(async () => testDatabase?.dispose());

  async function upload(bytes: Buffer): Promise<string> {
    const path = join(scratch, `upload-${Math.random().toString(16).slice(2)}.zip`);
    await writeFile(path, bytes);
    return path;
  }

  const context = () => ({ db: testDatabase.database.db, options, publicUrl: 'https://plugins.example.com' });
  const strict = { id: 1, name: 'Example Vendor', signaturesRequired: true };

  it("accepts a chain under the operator's trusted root and countersigns in place with the operator's chain", async () => {
    const plain = await archiveBytes(pluginJarContent());
    const path = await upload(
      signZip(plain, { privateKey: vendor.leaf.privateKey, certificateChain: vendor.chain }),
    );
    const verdict = await checkAndCountersign({ path }, strict, context());
    if (!('accepted' in verdict)) throw new Error(verdict.refusal);
    expect(verdict.accepted.record).toMatchObject({
      signedBy: 'Example Vendor Signer',
      trusted: true,
      countersignedBy: marketplace.leaf.certificate.fingerprint256,
    });
    const written = await readFile(path);
    expect(verdict.accepted.size).toBe(written.length);
    expect(verdict.accepted.sha256).toBe(createHash('sha256').update(written).digest('hex'));
    expect(unsignedZip(written).equals(plain)).toBe(true);
    const report = verifySignatures(written, { trustedRoots: [marketplace.root.certificate] });
    expect(report.valid).toBe(true);
    expect(report.signers.map((signer) => signer.signedBy)).toEqual([
      'Example Vendor Signer',
      'Operator Marketplace Signer',
    ]);
    expect(report.signers[1]!.trusted).toBe(true);

    // The marketplace's own download uploaded again is not countersigned twice.
    const again = await checkAndCountersign({ path }, strict, context());
    if (!('accepted' in again)) throw new Error(again.refusal);
    expect(verifySignatures(await readFile(path)).signers).toHaveLength(2);
  });

  it('refuses a chain that ends in a root the operator does not trust, when the vendor must sign', async () => {
    const path = await upload(
      signZip(await archiveBytes(pluginJarContent()), {
        privateKey: other.leaf.privateKey,
        certificateChain: other.chain,
      }),
    );
    const verdict = await checkAndCountersign({ path }, strict, context());
    expect(verdict).toEqual({
      refusal:
        'The vendor "Example Vendor" must sign its plugins with a certificate under a root this marketplace trusts, and this chain ends in Other Root CA, which it does not trust: sign with a certificate issued under a trusted root, or ask the marketplace\'s operator to trust yours.',
    });
    // A vendor that need not sign is accepted, recorded as not trusted.
    const relaxed = await checkAndCountersign({ path }, { ...strict, signaturesRequired: false }, context());
    expect('accepted' in relaxed && relaxed.accepted.record.trusted).toBe(false);
  });

  it('accepts a ZIP64 archive unsigned with a warning, unless the vendor must sign', async () => {
    const zip = new yazl.ZipFile();
    for (const [name, data] of Object.entries(pluginJarContent())) zip.addBuffer(Buffer.from(data), name);
    // The ZIP64 end records, without a comment (the option types want both).
    zip.end({ forceZip64Format: true } as yazl.EndOptions);
    const chunks: Buffer[] = [];
    for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
    const zip64 = Buffer.concat(chunks);
    const path = await upload(zip64);

    const required = await checkAndCountersign({ path }, strict, context());
    expect('refusal' in required && required.refusal).toBe(
      'This archive is a ZIP64 archive, which plugin signatures (marketplace-zip-signer) do not support. The vendor "Example Vendor" must sign its plugins, so this archive cannot be accepted: build it as an ordinary zip and sign it.',
    );
    const accepted = await checkAndCountersign({ path }, null, context());
    if (!('accepted' in accepted)) throw new Error(accepted.refusal);
    expect(accepted.accepted.record).toMatchObject({ countersignedBy: null, signedBy: null });
    expect(accepted.accepted.record.countersignProblem).toContain('ZIP64');
    expect(accepted.accepted.warnings).toEqual([
      'The marketplace could not countersign this archive: This archive is a ZIP64 archive, which plugin signatures (marketplace-zip-signer) do not support.',
    ]);
    expect((await readFile(path)).equals(zip64)).toBe(true);
  });
});

describe('the generated key', () => {
  it('is made once and shared by every node of one PostgreSQL database', async () => {
    const testDatabase = await createTestDatabase({ kind: 'postgres' });
    const second = await openDatabase({
      databaseUrl: testDatabase.databaseUrl!,
      dataDir: '',
      maxConnections: 2,
    });
    try {
      const none: SigningOptions = { configured: undefined, trustedRoots: [] };
      // Two nodes starting their first upload at the same moment.
      const [a, b] = await Promise.all([
        signingIdentity(testDatabase.database.db, none, 'https://plugins.example.com'),
        signingIdentity(second.db, none, 'https://plugins.example.com'),
      ]);
      expect(a.source).toBe('generated');
      expect(a.chain[0]!.raw.equals(b.chain[0]!.raw)).toBe(true);
      expect(a.chain[0]!.subject).toBe(
        'CN=plugins.example.com plugin signing\nO=Plugin marketplace at plugins.example.com',
      );
      expect(a.chain[0]!.publicKey.asymmetricKeyDetails?.modulusLength).toBe(3072);
      expect(a.privateKey.export({ type: 'pkcs8', format: 'pem' })).toBe(
        b.privateKey.export({ type: 'pkcs8', format: 'pem' }),
      );
    } finally {
      await second.close();
      await testDatabase.dispose();
    }
  });
});
