import { X509Certificate } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuditEntryBody, PluginVersionBody, SignatureRequirementsBody } from '@marketplace/api-contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inspectPluginArchive } from '../../src/archive';
import { selectRows } from '../../src/search/sql';
import { readSignatures, signZip, unsignedZip, verifySignatures } from '../../src/trust/signatures';
import { archiveBytes, pluginJarContent, pluginXml } from '../archive/plugin-fixtures';
import { multipartBody } from '../publishing/publishing-test-app';
import { createReviewsTestApp, type ReviewsTestApp } from '../reviews/reviews-test-app';
import { makeChain, makeIdentity, type Identity } from './signatures/pki';

// The real application (buildApp): archives signed here by chains made here go through the real upload routes.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

type Chain = Awaited<ReturnType<typeof makeChain>>;

let t: ReviewsTestApp;
const people = { alice: 0, admin: 0 };
let vendorChain: Chain;
let expiredChain: Chain;
let selfSigned: Identity;

/** The plugin.xml of `id` at `version`, published under `vendor`. */
function descriptor(id: string, version: string, vendor: string): string {
  return pluginXml({
    id: `<id>${id}</id>`,
    name: `<name>Signed ${id.split('.').pop()}</name>`,
    version: `<version>${version}</version>`,
    vendor: `<vendor email="dev@example.com" url="https://example.com">${vendor}</vendor>`,
  });
}

/** A plugin zip as Gradle's buildPlugin writes it: <name>/lib/<name>.jar holding META-INF/plugin.xml. */
async function pluginZip(id: string, version: string, vendor: string): Promise<Buffer> {
  const name = id.split('.').pop()!;
  return archiveBytes({
    [`${name}/lib/${name}.jar`]: await archiveBytes(pluginJarContent(descriptor(id, version, vendor))),
  });
}

function signed(zip: Buffer, chain: { leaf: Identity; chain: X509Certificate[] }): Buffer {
  return signZip(zip, { privateKey: chain.leaf.privateKey, certificateChain: chain.chain });
}

interface UploadAnswer {
  status: number;
  body: {
    id: number;
    pluginId: number;
    size: number;
    message?: string;
    update?: { id: number; size: number };
  };
}

/** A new plugin, as the site's upload page and the vendor's REST client send it. */
async function uploadNew(archive: Buffer, fileName = 'plugin.zip'): Promise<UploadAnswer> {
  const { body, headers } = multipartBody(
    { licenseUrl: 'https://example.com/license', tags: 'Tools' },
    { name: fileName, content: archive },
  );
  const response = await t.call(people.alice, {
    method: 'POST',
    url: '/api/plugins/intellij/upload',
    headers,
    payload: body,
  });
  return { status: response.statusCode, body: response.json() };
}

/** A new version, as the Gradle plugin's publishPlugin sends it. */
async function uploadVersion(xmlId: string, archive: Buffer): Promise<UploadAnswer> {
  const { body, headers } = multipartBody({ xmlId }, { name: 'plugin.zip', content: archive });
  const response = await t.call(people.alice, {
    method: 'POST',
    url: '/api/updates/upload',
    headers,
    payload: body,
  });
  return { status: response.statusCode, body: response.json() };
}

async function versionsOf(pluginId: number): Promise<PluginVersionBody[]> {
  const response = await t.call(people.alice, { url: `/api/plugins/${pluginId}/updates` });
  expect(response.statusCode).toBe(200);
  return response.json<PluginVersionBody[]>();
}

async function download(versionId: number) {
  const response = await t.call(people.alice, { url: `/plugin/download?updateId=${versionId}` });
  expect(response.statusCode).toBe(200);
  return response;
}

/** The published certificate, as an operator downloads it. */
async function publishedCertificate(): Promise<X509Certificate> {
  const response = await t.call(undefined, { url: '/api/trust/certificate' });
  expect(response.statusCode).toBe(200);
  return new X509Certificate(response.body);
}

/** What shows that a refused upload left nothing: stored files and version rows. */
async function footprint(): Promise<{ files: number; versions: number }> {
  const [row] = await selectRows<{ versions: number }>(
    t.db,
    sql`SELECT count(*)::int AS versions FROM plugin_versions`,
  );
  const files: string[] = [];
  for await (const hash of t.app.fileStore.list()) files.push(hash);
  return { files: files.length, versions: row!.versions };
}

beforeAll(async () => {
  [vendorChain, expiredChain, selfSigned] = await Promise.all([
    makeChain('Example Vendor'),
    makeChain('Expired Vendor', {
      notBefore: new Date('2020-01-01T00:00:00Z'),
      notAfter: new Date('2021-01-01T00:00:00Z'),
    }),
    makeIdentity('Self Signer'),
  ]);
  t = await createReviewsTestApp({ catalogue: false });
  people.alice = await t.addUser('alice');
  people.admin = await t.addUser('admin', { isAdmin: true });
  await t.db.execute(sql`INSERT INTO tags (name) VALUES ('Tools')`);
});
afterAll(async () => t?.close());

describe('a signed upload', () => {
  let pluginId: number;
  let versionId: number;
  let original: Buffer;

  it('is accepted, and "signed by" shows in the versions API with the countersignature', async () => {
    original = signed(await pluginZip('com.example.signed', '1.0.0', 'Signed Vendor'), vendorChain);
    const answer = await uploadNew(original);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    pluginId = answer.body.id;
    versionId = answer.body.update!.id;

    const [version] = await versionsOf(pluginId);
    expect(version!.signature).toMatchObject({
      author: {
        signedBy: 'Example Vendor Signer',
        algorithm: 'SHA256withRSA',
        selfSigned: false,
        expired: false,
        notYetValid: false,
        chainComplete: true,
        trusted: false,
      },
      countersigned: true,
      countersignProblem: null,
    });
    expect(version!.signature!.author!.chain.map((certificate) => certificate.subject)).toEqual([
      'CN=Example Vendor Signer',
      'CN=Example Vendor Intermediate CA',
      'CN=Example Vendor Root CA',
    ]);
    expect(version!.signature!.author!.chain[0]!.fingerprint256).toBe(
      vendorChain.leaf.certificate.fingerprint256,
    );
    // The same record on the single version.
    const single = await t.call(people.alice, { url: `/api/updates/${versionId}` });
    expect(single.json<PluginVersionBody>().signature?.author?.signedBy).toBe('Example Vendor Signer');
  });

  it('downloads countersigned: the marketplace signature verifies with the published certificate', async () => {
    const certificateAnswer = await t.call(undefined, { url: '/api/trust/certificate' });
    expect(certificateAnswer.headers['content-type']).toBe('application/x-pem-file');
    expect(certificateAnswer.headers['content-disposition']).toContain(
      'filename="plugins.example.com-plugin-signing.pem"',
    );
    const certificate = await publishedCertificate();

    const response = await download(versionId);
    const bytes = response.rawPayload;
    const report = verifySignatures(bytes, { trustedRoots: [certificate] });
    expect(report).toMatchObject({ signed: true, valid: true, contentIntact: true });
    // The author's signature kept first, the marketplace's appended and ending in the published certificate.
    expect(report.signers.map((signer) => [signer.signedBy, signer.valid, signer.trusted])).toEqual([
      ['Example Vendor Signer', true, false],
      ['plugins.example.com plugin signing', true, true],
    ]);
    const [version] = await versionsOf(pluginId);
    expect(version!.signature!.countersignedBy).toBe(report.signers[1]!.chain[0]!.fingerprint256);
    // Same content as uploaded, plus the marketplace's signature.
    expect(unsignedZip(bytes).equals(unsignedZip(original))).toBe(true);
    expect(
      bytes
        .subarray(0, readSignatures(original)!.block.offset)
        .equals(original.subarray(0, readSignatures(original)!.block.offset)),
    ).toBe(true);

    // The size the API, the download and the IDE feed give is the countersigned archive's.
    expect(version!.size).toBe(bytes.length);
    expect(Number(response.headers['content-length'])).toBe(bytes.length);
    const post = (action: string, userId: number) =>
      t.call(userId, { method: 'POST', url: `/api/plugins/${pluginId}/${action}` });
    expect((await post('publish', people.alice)).statusCode).toBe(200);
    expect((await post('approve', people.admin)).statusCode).toBe(200);
    const feed = await t.call(undefined, { url: '/plugins/list?build=IU-241.14494.240' });
    expect(feed.body).toContain('<id>com.example.signed</id>');
    expect(feed.body).toContain(` size="${bytes.length}"`);
  });

  it('the published certificate is described for the site', async () => {
    const details = await t.call(undefined, { url: '/api/trust/certificate/details' });
    expect(details.statusCode).toBe(200);
    const certificate = await publishedCertificate();
    expect(details.json()).toMatchObject({
      certificate: {
        subject: certificate.subject,
        fingerprint256: certificate.fingerprint256,
      },
      downloadPath: '/api/trust/certificate',
    });
  });
});

describe('an unsigned upload of a vendor that need not sign', () => {
  it('is accepted and countersigned; a bare jar too, and it still reads as a plugin', async () => {
    const zip = await pluginZip('com.example.plain', '1.0.0', 'Plain Vendor');
    const answer = await uploadNew(zip);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const [version] = await versionsOf(answer.body.id);
    expect(version!.signature).toMatchObject({ author: null, countersigned: true });
    const downloaded = (await download(answer.body.update!.id)).rawPayload;
    const report = verifySignatures(downloaded, { trustedRoots: [await publishedCertificate()] });
    expect(report.valid).toBe(true);
    expect(report.signers.map((signer) => signer.trusted)).toEqual([true]);
    expect(unsignedZip(downloaded).equals(zip)).toBe(true);

    // A plugin that is one jar: jars are zips, the IDE verifies whatever file it downloaded.
    const jar = await archiveBytes(
      pluginJarContent(descriptor('com.example.jarred', '1.0.0', 'Plain Vendor')),
    );
    const jarAnswer = await uploadNew(jar, 'jarred.jar');
    expect(jarAnswer.status, JSON.stringify(jarAnswer.body)).toBe(200);
    const signedJar = (await download(jarAnswer.body.update!.id)).rawPayload;
    expect(
      verifySignatures(signedJar, { trustedRoots: [await publishedCertificate()] }).signers[0]!.trusted,
    ).toBe(true);
    const scratch = await mkdtemp(join(tmpdir(), 'mp-signed-jar-'));
    try {
      await writeFile(join(scratch, 'jarred.jar'), signedJar);
      const inspection = await inspectPluginArchive(join(scratch, 'jarred.jar'), { tempDir: scratch });
      expect(inspection.ok && inspection.descriptor.id).toBe('com.example.jarred');
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });
});

describe('a broken signature', () => {
  it('a damaged signature block: 400 with the reason, nothing stored', async () => {
    const archive = signed(await pluginZip('com.example.damaged', '1.0.0', 'Plain Vendor'), vendorChain);
    const { offset } = readSignatures(archive)!.block;
    archive[offset] = archive[offset]! ^ 0x01; // the block's size at its start no longer matches its end
    const before = await footprint();
    const answer = await uploadNew(archive);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(
      /^The signature block of this archive is damaged: the sizes at its start \(\d+\) and end \(\d+\) differ\.$/,
    );
    expect(await footprint()).toEqual(before);
  });

  it('a signature that does not verify: 400 naming the signer, nothing stored', async () => {
    const archive = signed(await pluginZip('com.example.forged', '1.0.0', 'Plain Vendor'), vendorChain);
    const signature = readSignatures(archive)!.signers[0]!.signatures[0]!.bytes;
    const at = archive.indexOf(signature);
    archive[at + 10] = archive[at + 10]! ^ 0xff;
    const before = await footprint();
    const answer = await uploadNew(archive);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(
      "The signature of this archive does not verify, so the IDE would refuse it: Signer 1 (Example Vendor Signer): The SHA256withRSA signature does not verify with the signer's certificate. Sign the final archive again and upload the signed file.",
    );
    expect(await footprint()).toEqual(before);
  });
});

describe('a vendor that must sign', () => {
  const xmlId = 'com.example.strict';
  const vendor = 'Strict Vendor';
  let vendorId: number;
  let pluginId: number;

  beforeAll(async () => {
    // Uploaded before the requirement: stays as it is.
    const first = await uploadNew(await pluginZip(xmlId, '1.0.0', vendor));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    pluginId = first.body.id;
  });

  it('is required by an administrator only, and the decision is in the audit log', async () => {
    const refused = await t.call(people.alice, {
      method: 'POST',
      url: '/api/admin/trust/signature-requirements',
      payload: { vendor },
    });
    expect(refused.statusCode).toBe(403);

    const unknown = await t.call(people.admin, {
      method: 'POST',
      url: '/api/admin/trust/signature-requirements',
      payload: { vendor: 'Nobody Ltd' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<{ message: string }>().message).toBe(
      'There is no vendor named "Nobody Ltd": a vendor exists once a plugin was uploaded under its name.',
    );

    const required = await t.call(people.admin, {
      method: 'POST',
      url: '/api/admin/trust/signature-requirements',
      payload: { vendor, reason: 'Signs with its company CA' },
    });
    expect(required.statusCode).toBe(200);
    expect(required.json()).toMatchObject({
      vendor: { name: vendor },
      requiredBy: 'admin',
      reason: 'Signs with its company CA',
    });
    vendorId = required.json<{ vendor: { id: number } }>().vendor.id;

    const again = await t.call(people.admin, {
      method: 'POST',
      url: '/api/admin/trust/signature-requirements',
      payload: { vendor },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toBe('Strict Vendor must sign its plugins already.');

    const list = await t.call(people.admin, { url: '/api/admin/trust/signature-requirements' });
    expect(list.json<SignatureRequirementsBody>()).toMatchObject({
      requirements: [{ vendor: { id: vendorId, name: vendor } }],
      trustedRoots: [],
    });
    const audit = await t.call(people.admin, { url: '/api/admin/audit?action=signatures.require' });
    expect(audit.json<AuditEntryBody[]>()).toEqual([
      expect.objectContaining({
        subject: `vendor:${vendorId}`,
        actorLogin: 'admin',
        reason: 'Signs with its company CA',
      }),
    ]);
  });

  it('refuses an unsigned archive with the reason, nothing stored', async () => {
    const before = await footprint();
    const answer = await uploadVersion(xmlId, await pluginZip(xmlId, '1.1.0', vendor));
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(
      'The vendor "Strict Vendor" must sign its plugins, and this archive is not signed: sign it with your certificate (the Gradle task signPlugin, or marketplace-zip-signer) and upload the signed file.',
    );
    // The site's new-plugin page is held to it too.
    const newPlugin = await uploadNew(await pluginZip('com.example.stricter', '1.0.0', vendor));
    expect(newPlugin.status).toBe(400);
    expect(newPlugin.body.message).toContain('must sign its plugins, and this archive is not signed');
    expect(await footprint()).toEqual(before);
  });

  it('refuses an expired chain with the reason, nothing stored', async () => {
    const before = await footprint();
    const answer = await uploadVersion(xmlId, signed(await pluginZip(xmlId, '1.1.0', vendor), expiredChain));
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(
      'The vendor "Strict Vendor" must sign its plugins with a valid certificate, and the certificate chain of this signature has expired: Expired Vendor Signer was valid until 2021-01-01. Renew the certificate and sign again.',
    );
    expect(await footprint()).toEqual(before);
  });

  it('refuses a self-signed certificate with the reason, nothing stored', async () => {
    const before = await footprint();
    const answer = await uploadVersion(
      xmlId,
      signed(await pluginZip(xmlId, '1.1.0', vendor), { leaf: selfSigned, chain: [selfSigned.certificate] }),
    );
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(
      'The vendor "Strict Vendor" must sign its plugins with a certificate issued by a certificate authority, and this archive is signed with a self-signed certificate (Self Signer): sign with a certificate your organisation\'s or a public authority issued, and include its chain.',
    );
    expect(await footprint()).toEqual(before);
  });

  it('refuses an incomplete chain with the reason, nothing stored', async () => {
    const before = await footprint();
    const withoutRoot = {
      leaf: vendorChain.leaf,
      chain: [vendorChain.leaf.certificate, vendorChain.intermediate.certificate],
    };
    const answer = await uploadVersion(xmlId, signed(await pluginZip(xmlId, '1.1.0', vendor), withoutRoot));
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(
      'The vendor "Strict Vendor" must sign its plugins with a complete certificate chain, and the chain of this signature is incomplete: it ends in Example Vendor Intermediate CA, which is not a root certificate. Sign again with every issuer up to the root (signPlugin\'s certificateChain).',
    );
    expect(await footprint()).toEqual(before);
  });

  it('refuses a chain in which a signer that is no certificate authority issued the signing certificate', async () => {
    const before = await footprint();
    // The vendor's own signer (no CA) makes a certificate of its own under the vendor's root.
    const issuedBySigner = await makeIdentity('Rogue Signer', { issuer: vendorChain.leaf });
    const rogue = {
      leaf: issuedBySigner,
      chain: [
        issuedBySigner.certificate,
        vendorChain.leaf.certificate,
        vendorChain.intermediate.certificate,
        vendorChain.root.certificate,
      ],
    };
    const answer = await uploadVersion(xmlId, signed(await pluginZip(xmlId, '1.1.0', vendor), rogue));
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(
      'The vendor "Strict Vendor" must sign its plugins with a chain of certificate authorities, and in the chain of this signature Example Vendor Signer issues a certificate without being an authority: sign with a certificate issued by a certificate authority.',
    );
    expect(await footprint()).toEqual(before);
  });

  it('accepts a valid chain; once the requirement is lifted, unsigned archives again', async () => {
    const accepted = await uploadVersion(xmlId, signed(await pluginZip(xmlId, '1.1.0', vendor), vendorChain));
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const versions = await versionsOf(pluginId);
    expect(versions.map((version) => [version.version, version.signature?.author?.signedBy ?? null])).toEqual(
      [
        ['1.1.0', 'Example Vendor Signer'],
        ['1.0.0', null],
      ],
    );

    const lifted = await t.call(people.admin, {
      method: 'POST',
      url: `/api/admin/trust/signature-requirements/${vendorId}/lift`,
      payload: { reason: 'Their CA is being replaced' },
    });
    expect(lifted.statusCode).toBe(200);
    expect(lifted.json()).toEqual({ vendor: { id: vendorId, name: vendor } });
    const liftedAgain = await t.call(people.admin, {
      method: 'POST',
      url: `/api/admin/trust/signature-requirements/${vendorId}/lift`,
    });
    expect(liftedAgain.statusCode).toBe(404);
    const unsigned = await uploadVersion(xmlId, await pluginZip(xmlId, '1.2.0', vendor));
    expect(unsigned.status, JSON.stringify(unsigned.body)).toBe(200);
  });
});
