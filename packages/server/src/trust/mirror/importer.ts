import { readFile, rm } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import {
  isValidWebsite,
  MAX_PLUGIN_TAGS,
  normalizeLink,
  parseBuildNumber,
  parseUntilBuild,
  type ProductFamily,
} from '@marketplace/core';
import { inspectPluginArchive, type PluginDescriptor } from '../../archive';
import { buildBoundColumns } from '../../db/catalogue-queries';
import type { Database, Transaction } from '../../db/client';
import {
  mirroredPlugins,
  mirroredVersions,
  pluginTags,
  plugins,
  pluginVersions,
  tags,
  vendors,
} from '../../db/schema';
import { recordAudit } from '../../publishing/audit';
import { claimStoredFile, releaseClaim } from '../../publishing/file-claims';
import { sanitizeDocumentHtml } from '../../publishing/sanitize';
import { selectRows } from '../../search/sql';
import type { FileStore } from '../../storage';
import { enqueueVerification } from '../../verification/queue';
import { renameRefusal } from '../checks';
import { vendorProtection } from '../namespaces';
import { enqueueScan } from '../scanning/queue';
import { SignatureFormatError, verifySignatures } from '../signatures';
import type { MirrorOptions } from './options';
import { hostOf, isUniqueViolation } from './repository';

/** What importing needs: the server's database and file store, and a scratch folder on the data disk. */
export interface MirrorImportEnvironment {
  db: Database;
  fileStore: FileStore;
  /** DATA_DIR/uploads: downloads are written there (the orphan sweep clears what a dead process left). */
  tempDir: string;
  options: Pick<MirrorOptions, 'maxArchiveBytes' | 'archiveLimits'>;
}

/** Where versions come from: a configured upstream's sync, or an export carried across an air gap. */
export interface MirrorSource {
  /** The configured upstream; null for `mp mirror import`. */
  upstreamId: number | null;
  /** The marketplace's base URL (shown as "Mirrored from <host>"). */
  mirroredFrom: string;
  via: 'sync' | 'import';
}

/** The metadata of one version to mirror, as the feed or the export's manifest gives it. */
export interface MirroredVersionInput {
  family: ProductFamily;
  xmlId: string;
  version: string;
  /** '' is the stable channel. */
  channel: string;
  name: string;
  /** HTML; sanitised here. */
  description: string;
  vendor: { name: string; email: string | null; url: string | null };
  tags: readonly string[];
  since: string | null;
  until: string | null;
  /** HTML change notes; sanitised here. */
  notes: string;
  /** Where the archive came from (its download URL at the source). */
  originalUrl: string;
  /** The licence address, when the source gives one (exports do). */
  licenseUrl?: string | null;
}

/** An archive on disk, hashed while it was written. */
export interface ArchiveFile {
  path: string;
  sha256: string;
  size: number;
}

/** A version that must not be imported: the message says why, naming the version and its source. */
export class MirrorImportRefusal extends Error {
  override name = 'MirrorImportRefusal';
}

export type MirrorTarget =
  /** Neither the item nor the version is here: import both. */
  | { kind: 'new-item' }
  /** The item is mirrored from this source and lacks the version; `name` is its name here. */
  | { kind: 'new-version'; pluginId: number; name: string }
  | { kind: 'present' }
  /**
   * The id belongs to an item this source may not change (published here, mirrored from elsewhere, or blocked,
   * deleted or frozen by an administrator); the note says which and why.
   */
  | { kind: 'left-alone'; note: string };

/**
 * Where a version of `xmlId` would go. A sync changes only items it created itself (or an export of the same
 * source brought); an import of an export adds to any mirrored item; items published here are never touched,
 * nor are items an administrator blocked (wholly or partly), deleted, or closed to changes.
 */
export async function mirrorTarget(
  db: Database | Transaction,
  source: MirrorSource,
  input: { family: ProductFamily; xmlId: string; version: string; channel: string },
): Promise<MirrorTarget> {
  const [row] = await selectRows<{
    id: number;
    name: string;
    upstream_id: number | null;
    mirrored_from: string | null;
    mirrored: boolean;
    has_version: boolean;
    block_state: string;
    lifecycle_state: string;
    modification_allowed: boolean;
  }>(
    db,
    sql`SELECT p.id, p.name, m.upstream_id, m.mirrored_from, m.plugin_id IS NOT NULL AS mirrored,
        EXISTS (SELECT 1 FROM plugin_versions pv WHERE pv.plugin_id = p.id AND pv.channel = ${input.channel}
          AND pv.version = ${input.version}) AS has_version,
        p.block_state, p.lifecycle_state, p.modification_allowed
      FROM plugins p LEFT JOIN mirrored_plugins m ON m.plugin_id = p.id
      WHERE p.family = ${input.family} AND p.xml_id = ${input.xmlId}`,
  );
  if (!row) return { kind: 'new-item' };
  if (!row.mirrored) {
    return {
      kind: 'left-alone',
      note: `${input.xmlId} is published on this marketplace (${row.name}), not mirrored: it was left alone.`,
    };
  }
  if (source.via === 'sync') {
    const ours =
      row.upstream_id === source.upstreamId ||
      (row.upstream_id === null && row.mirrored_from === source.mirroredFrom);
    if (!ours) {
      return {
        kind: 'left-alone',
        note: `${input.xmlId} is mirrored from ${row.mirrored_from ?? 'another marketplace'}, not from ${source.mirroredFrom}: it was left alone.`,
      };
    }
  }
  if (row.has_version) return { kind: 'present' };
  // An administrator's decision on this marketplace outranks the source, as it outranks an uploader.
  const decision = adminDecisionOn(row);
  if (decision !== undefined) {
    return {
      kind: 'left-alone',
      note: `${input.xmlId} (${row.name}) ${decision}: no new versions or changes were mirrored to it.`,
    };
  }
  return { kind: 'new-version', pluginId: row.id, name: row.name };
}

/** What an administrator decided that keeps the mirror away from an item, or undefined when nothing did. */
function adminDecisionOn(item: {
  block_state: string;
  lifecycle_state: string;
  modification_allowed: boolean;
}): string | undefined {
  if (item.lifecycle_state === 'deleted') return 'was deleted by an administrator of this marketplace';
  if (item.block_state === 'blocked') return 'is blocked by an administrator of this marketplace';
  if (item.block_state === 'partial') {
    return 'is partly blocked by an administrator of this marketplace';
  }
  if (!item.modification_allowed) {
    return 'may not be changed at the moment (an administrator of this marketplace disallowed changes)';
  }
  return undefined;
}

function versionLabel(input: MirroredVersionInput): string {
  return `${input.xmlId} ${input.version}`;
}

/**
 * Checks an archive before anything is written: the size and SHA-256 the source declared, a readable plugin
 * (the upload pipeline's inspection and limits) whose plugin.xml declares the expected id and version, and,
 * when it is signed, signatures that verify (marketplace-zip-signer's format, as the IDE checks them).
 */
export async function verifyMirroredArchive(
  env: MirrorImportEnvironment,
  input: MirroredVersionInput,
  archive: ArchiveFile,
  declared: { size?: number | undefined; sha256?: string | undefined },
): Promise<{ descriptor: PluginDescriptor; kind: 'jar' | 'zip' }> {
  const label = versionLabel(input);
  if (declared.size !== undefined && declared.size !== archive.size) {
    throw new MirrorImportRefusal(
      `The archive of ${label} from ${input.originalUrl} is ${archive.size} bytes, but the source says ${declared.size}.`,
    );
  }
  if (declared.sha256 !== undefined && declared.sha256.toLowerCase() !== archive.sha256) {
    throw new MirrorImportRefusal(
      `The archive of ${label} from ${input.originalUrl} has SHA-256 ${archive.sha256}, but the source says ${declared.sha256.toLowerCase()}.`,
    );
  }
  const inspection = await inspectPluginArchive(archive.path, {
    expectedXmlId: input.xmlId,
    limits: { ...env.options.archiveLimits, maxArchiveBytes: env.options.maxArchiveBytes },
    tempDir: env.tempDir,
  });
  if (!inspection.ok) {
    const reasons = inspection.result.errors.join(' ');
    throw new MirrorImportRefusal(
      `The archive of ${label} from ${input.originalUrl} is not a plugin this marketplace accepts: ${reasons}`,
    );
  }
  if (inspection.descriptor.version !== input.version) {
    throw new MirrorImportRefusal(
      `The archive of ${label} from ${input.originalUrl} declares version ${inspection.descriptor.version} in plugin.xml, not ${input.version}.`,
    );
  }
  // The signing block sits before the central directory: the archive is read whole (at most MAX_UPLOAD_MB).
  const bytes = await readFile(archive.path);
  try {
    const report = verifySignatures(bytes);
    if (report.signed && !report.valid) {
      const reasons = [
        ...report.problems,
        ...report.signers.flatMap((signer) => (signer.reason ? [signer.reason] : [])),
      ];
      throw new MirrorImportRefusal(
        `The signature of ${label} from ${input.originalUrl} does not verify: ${[...new Set(reasons)].join(' ')}`,
      );
    }
  } catch (error) {
    if (error instanceof SignatureFormatError) {
      // A jar or zip that is no plain zip to the signature reader (e.g. ZIP64) was still read by the inspection:
      // only a damaged signing block is a refusal.
      if (error.problem === 'damaged') {
        throw new MirrorImportRefusal(`The archive of ${label} from ${input.originalUrl}: ${error.message}`);
      }
    } else {
      throw error;
    }
  }
  return { descriptor: inspection.descriptor, kind: inspection.kind };
}

function buildBoundsOf(input: MirroredVersionInput, descriptor: PluginDescriptor) {
  // The source's range wins (its owner may have narrowed it after the upload); a malformed one does not.
  const since = input.since && parseBuildNumber(input.since) ? input.since : descriptor.sinceBuild;
  const until =
    input.until === null
      ? descriptor.untilBuild
      : input.until.trim() === '' || parseUntilBuild(input.until)
        ? input.until.trim() || null
        : descriptor.untilBuild;
  return { since, until };
}

function pricingModelOf(descriptor: PluginDescriptor): 'FREE' | 'PAID' | 'FREEMIUM' {
  const product = descriptor.productDescriptor;
  if (!product) return 'FREE';
  return product.optional ? 'FREEMIUM' : 'PAID';
}

/** The source's website address as the upload path keeps it (core links.ts), or null when it is not one. */
function websiteOf(url: string | null): string | null {
  return url !== null && isValidWebsite(url) ? normalizeLink(url) : null;
}

/**
 * The vendor a new mirrored item is shown under: the local vendor of that name, unless that vendor is one whose
 * name means something here (verified, owner of an approved namespace, or bound to sign its uploads); then a
 * vendor of its own, "<name> (mirrored from <host>)", so that an upstream cannot pose as it.
 */
async function vendorId(
  tx: Transaction,
  vendor: MirroredVersionInput['vendor'],
  source: MirrorSource,
): Promise<number | null> {
  const name = vendor.name.trim().slice(0, 255);
  if (name === '') return null;
  const suffix = ` (mirrored from ${hostOf(source.mirroredFrom)})`;
  const mirroredName = `${name.slice(0, Math.max(0, 255 - suffix.length))}${suffix}`;
  for (const candidate of [name, mirroredName]) {
    const found = await vendorNamed(tx, candidate);
    if (found) {
      if (!found.protected) return found.id;
      continue;
    }
    const [created] = await tx
      .insert(vendors)
      .values({ name: candidate, url: websiteOf(vendor.url), email: vendor.email })
      .onConflictDoNothing({ target: vendors.name })
      .returning({ id: vendors.id });
    if (created) return created.id;
    const raced = await vendorNamed(tx, candidate);
    if (raced && !raced.protected) return raced.id;
  }
  // Both names belong to protected vendors: the item is shown without one rather than under theirs.
  return null;
}

async function vendorNamed(
  tx: Transaction,
  name: string,
): Promise<{ id: number; protected: boolean } | undefined> {
  const [row] = await selectRows<{ id: number }>(tx, sql`SELECT id FROM vendors WHERE name = ${name}`);
  return row && { id: row.id, protected: (await vendorProtection(tx, row.id)) !== undefined };
}

/** The source's tags by name (case-insensitive), made when missing; privileged tags are never given. */
async function attachTags(tx: Transaction, pluginId: number, names: readonly string[]): Promise<void> {
  const wanted = [...new Set(names.map((name) => name.trim()).filter((name) => name !== ''))]
    .map((name) => name.slice(0, 100))
    .slice(0, MAX_PLUGIN_TAGS);
  const ids: number[] = [];
  for (const name of wanted) {
    const [found] = await selectRows<{ id: number; privileged: boolean }>(
      tx,
      sql`SELECT id, privileged FROM tags WHERE lower(name) = lower(${name}) ORDER BY id LIMIT 1`,
    );
    if (found) {
      if (!found.privileged) ids.push(found.id);
      continue;
    }
    const [created] = await tx
      .insert(tags)
      .values({ name })
      .onConflictDoNothing({ target: tags.name })
      .returning({ id: tags.id });
    if (created) ids.push(created.id);
  }
  if (ids.length === 0) return;
  await tx
    .insert(pluginTags)
    .values(ids.map((tagId) => ({ pluginId, tagId })))
    .onConflictDoNothing();
}

export interface ImportedVersion {
  pluginId: number;
  versionId: number;
  createdItem: boolean;
  /** What an administrator should know of the import (a rename from the source that was refused). */
  notes: string[];
}

/** The look-alike rule of a rename, asked of the source's new name for an item already mirrored here. */
interface RenameCheck {
  pluginId: number;
  name: string;
  /** Why the rename is refused; undefined when it is allowed. */
  refusal: string | undefined;
}

/**
 * Whether the source's name may replace the local name of the item this version goes to, decided before the
 * import's transaction (the look-alike index reads the database itself). Undefined when there is no rename.
 */
async function checkRename(
  db: Database,
  source: MirrorSource,
  input: MirroredVersionInput,
  name: string,
): Promise<RenameCheck | undefined> {
  const target = await mirrorTarget(db, source, input);
  if (target.kind !== 'new-version' || target.name === name) return undefined;
  // No user stands behind a mirrored item: every other item counts against the new name.
  return { pluginId: target.pluginId, name, refusal: await renameRefusal(db, target.pluginId, name, null) };
}

/**
 * Stores a verified archive byte for byte (never re-signed: the mirror serves what the source served) and
 * writes the item (when new), the version and their origin in one transaction. The file is claimed first, so
 * the orphan sweep leaves it alone until the rows exist; a failure after the file went in leaves at most an
 * unreferenced file, which the sweep removes. Mirrored versions are approved (the administrator chose the
 * source), queued for verification, and queued for scanning, which holds them back until it passes them, as
 * for uploads.
 */
export async function importVersion(
  env: MirrorImportEnvironment,
  source: MirrorSource,
  input: MirroredVersionInput,
  archive: ArchiveFile,
  verified: { descriptor: PluginDescriptor; kind: 'jar' | 'zip' },
): Promise<ImportedVersion | { present: true } | { leftAlone: string }> {
  const { descriptor } = verified;
  const bounds = buildBoundsOf(input, descriptor);
  const description = sanitizeDocumentHtml(input.description || descriptor.description);
  const notes = sanitizeDocumentHtml(input.notes || descriptor.changeNotes || '');
  const name = (input.name || descriptor.name).slice(0, 255);
  const vendor = input.vendor.name.trim() ? input.vendor : descriptor.vendor;
  const rename = await checkRename(env.db, source, input, name);
  const claimId = await claimStoredFile(env.db, archive.sha256);
  try {
    await env.fileStore.adopt(archive.path, { hash: archive.sha256, size: archive.size });
    return await env.db.transaction(async (tx) => {
      // Decided again inside the transaction: another run or an import may have written it meanwhile.
      const target = await mirrorTarget(tx, source, input);
      if (target.kind === 'present' || target.kind === 'left-alone') {
        await releaseClaim(tx, claimId);
        return target.kind === 'present' ? { present: true as const } : { leftAlone: target.note };
      }
      let pluginId: number;
      const adminNotes: string[] = [];
      const createdItem = target.kind === 'new-item';
      if (target.kind === 'new-item') {
        const [plugin] = await tx
          .insert(plugins)
          .values({
            family: input.family,
            xmlId: input.xmlId,
            name,
            description,
            email: vendor.email,
            vendorId: await vendorId(tx, vendor, source),
            ownerId: null,
            licenseUrl: input.licenseUrl ?? null,
            url: websiteOf(vendor.url),
            pricingModel: pricingModelOf(descriptor),
            lifecycleState: 'published',
            approved: true,
            publishedAt: new Date(),
          })
          .returning({ id: plugins.id });
        if (!plugin) throw new Error('The mirrored plugin row was not written.');
        pluginId = plugin.id;
        await tx.insert(mirroredPlugins).values({
          pluginId,
          upstreamId: source.upstreamId,
          mirroredFrom: source.mirroredFrom,
          originalUrl: input.originalUrl,
        });
      } else {
        pluginId = target.pluginId;
        // The source's current name and description: the item reads as it does there, unless the new name
        // breaks the look-alike rule of renames here (or the item changed since it was checked).
        const renameAllowed =
          target.name === name ||
          (rename?.pluginId === pluginId && rename.name === name && rename.refusal === undefined);
        if (!renameAllowed) {
          const reason =
            rename?.refusal ?? 'The new name could not be checked; the next version tries again.';
          adminNotes.push(
            `${input.xmlId} ${input.version} was mirrored, but keeps its name "${target.name}" here: the source renamed it to "${name}", which was refused. ${reason}`,
          );
        }
        await tx
          .update(plugins)
          .set(renameAllowed ? { name, description } : { description })
          .where(sql`${plugins.id} = ${pluginId}`);
        await tx
          .update(mirroredPlugins)
          .set({
            originalUrl: input.originalUrl,
            lastImportedAt: new Date(),
            ...(source.upstreamId !== null ? { upstreamId: source.upstreamId } : {}),
          })
          .where(sql`${mirroredPlugins.pluginId} = ${pluginId}`);
      }
      await attachTags(tx, pluginId, input.tags);
      const [version] = await tx
        .insert(pluginVersions)
        .values({
          pluginId,
          version: descriptor.version,
          channel: input.channel,
          sinceBuild: bounds.since,
          untilBuild: bounds.until,
          ...buildBoundColumns(bounds.since, bounds.until),
          fileHash: archive.sha256,
          fileSize: archive.size,
          fileName: `${descriptor.id}-${descriptor.version}.${verified.kind}`,
          notes,
          dependencies: descriptor.dependencies.filter((dependency) => !dependency.optional).map((d) => d.id),
          authorId: null,
          approvalState: 'approved',
          productCode: descriptor.productDescriptor?.code ?? null,
          productReleaseDate: descriptor.productDescriptor?.releaseDate ?? null,
          productReleaseVersion: descriptor.productDescriptor?.releaseVersion ?? null,
          productOptional: descriptor.productDescriptor?.optional ?? null,
        })
        .returning({ id: pluginVersions.id });
      if (!version) throw new Error('The mirrored version row was not written.');
      await tx.insert(mirroredVersions).values({
        versionId: version.id,
        upstreamId: source.upstreamId,
        mirroredFrom: source.mirroredFrom,
        originalUrl: input.originalUrl,
        via: source.via,
      });
      await enqueueVerification(tx, version.id);
      // Scanned like an upload before it is offered (held back until the trust-scan job passes it).
      await enqueueScan(tx, version.id);
      await recordAudit(tx, {
        pluginId,
        actorId: null,
        action: createdItem ? 'mirror-plugin' : 'mirror-version',
        details: {
          versionId: version.id,
          version: descriptor.version,
          channel: input.channel,
          mirroredFrom: source.mirroredFrom,
          originalUrl: input.originalUrl,
          fileHash: archive.sha256,
          via: source.via,
          ...(adminNotes.length > 0 ? { notes: adminNotes } : {}),
        },
      });
      await releaseClaim(tx, claimId);
      return { pluginId, versionId: version.id, createdItem, notes: adminNotes };
    });
  } catch (error) {
    await releaseClaim(env.db, claimId).catch(() => undefined);
    if (isUniqueViolation(error)) return { present: true };
    throw error;
  } finally {
    // adopt moved the file in; after a failure before that, the download is still here.
    await rm(archive.path, { force: true });
  }
}
