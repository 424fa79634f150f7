import type { UploadedPluginBody, UploadedVersionBody } from '@marketplace/api-contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  isProductFamily,
  isValidWebsite,
  MAX_PLUGIN_TAGS,
  normalizeLink,
  type PricingModel,
  type ProductFamily,
} from '@marketplace/core';
import { inspectPluginArchive, type PluginDescriptor } from '../archive';
import { buildBoundColumns } from '../db/catalogue-queries';
import { isDiskFull } from '../outage';
import type { Database, Transaction } from '../db/client';
import { pluginTags, plugins, pluginVersions, tags, vendors } from '../db/schema';
import { loadPlugin } from '../routes/api/plugin-queries';
import { selectRows } from '../search/sql';
import type { FileStore } from '../storage';
import {
  checkAndCountersign,
  checkNewItem,
  trustedVendorIdsOf,
  vendorProtection,
  flagForReview,
  recordVersionSignature,
  vendorNamedForUpload,
  vendorOfPlugin,
  type SignedUpload,
  type SigningOptions,
  type UploadVendor,
} from '../trust';
import { enqueueScan } from '../trust/scanning/queue';
import { enqueueVerification } from '../verification/queue';
import { recordAudit } from './audit';
import { claimStoredFile, releaseClaim } from './file-claims';
import type { PublishingOptions } from './options';
import { loadPluginState, pluginManagers } from './plugin-access';
import { sanitizeDocumentHtml } from './sanitize';
import { formFlag, UploadRefusal, type FormFields, type UploadForm } from './upload-form';

export interface UploadEnvironment {
  db: Database;
  fileStore: FileStore;
  options: PublishingOptions;
  /** The marketplace's countersigning key (or none: generated and kept in the database) and trusted roots. */
  signing: SigningOptions;
  publicUrl: string;
  /** Scratch space for the inspection (jars unpacked from zips), on the data disk. */
  tempDir: string;
  log: FastifyBaseLogger;
}

const CHANNEL = /^[a-z0-9][a-z0-9._-]{0,63}$/i;
const MAX_NOTES_LENGTH = 65_536;

type UploadedFile = NonNullable<UploadForm['file']>;

function requireFile(form: UploadForm): UploadedFile {
  if (!form.file) throw new UploadRefusal(400, 'The upload has no archive: send the .zip or .jar as "file".');
  return form.file;
}

function channelOf(form: UploadForm): string {
  const channel = (form.fields.get('channel') ?? '').trim();
  if (channel === '' || channel.toLowerCase() === 'stable') return '';
  if (!CHANNEL.test(channel)) {
    throw new UploadRefusal(
      400,
      `"${channel}" is not a channel name: use letters, digits, dots, dashes and underscores (e.g. "eap"), or leave it empty for stable.`,
    );
  }
  return channel;
}

function notesOf(form: UploadForm, descriptor: PluginDescriptor): string {
  const notes = form.fields.get('notes');
  const text = notes !== undefined && notes.trim() !== '' ? notes : (descriptor.changeNotes ?? '');
  if (text.length > MAX_NOTES_LENGTH) {
    throw new UploadRefusal(400, `The notes are longer than ${MAX_NOTES_LENGTH} characters.`);
  }
  return sanitizeDocumentHtml(text);
}

async function inspect(
  env: UploadEnvironment,
  file: UploadedFile,
  expected: { xmlId?: string; existingVersions?: readonly string[] },
) {
  const inspection = await inspectPluginArchive(file.path, {
    ...(expected.xmlId !== undefined ? { expectedXmlId: expected.xmlId } : {}),
    ...(expected.existingVersions ? { existingVersions: expected.existingVersions } : {}),
    limits: { ...env.options.archiveLimits, maxArchiveBytes: env.options.maxUploadBytes },
    tempDir: env.tempDir,
  });
  if (!inspection.ok) {
    // The disk filled up while a jar was unpacked for the inspection: 507, as for the upload itself.
    if (isDiskFull(inspection.internalError)) throw inspection.internalError;
    if (inspection.internalError !== undefined) {
      env.log.error({ err: inspection.internalError }, 'plugin archive inspection failed');
    }
    throw new UploadRefusal(400, inspection.result);
  }
  return inspection;
}

/**
 * The archive's signatures (src/trust): a damaged block, a signature that does not verify, or an archive the
 * vendor's requirement refuses is refused here, before anything is stored; an accepted one is countersigned
 * with the marketplace's key in its temporary file, and is stored and served under its new hash and size.
 */
async function countersign(
  env: UploadEnvironment,
  file: UploadedFile,
  vendor: UploadVendor | null,
  warnings: string[],
): Promise<{ file: UploadedFile; signature: SignedUpload }> {
  const verdict = await checkAndCountersign(file, vendor, {
    db: env.db,
    options: env.signing,
    publicUrl: env.publicUrl,
  });
  if ('refusal' in verdict) throw new UploadRefusal(400, verdict.refusal);
  const signature = verdict.accepted;
  warnings.push(...signature.warnings);
  return { file: { ...file, sha256: signature.sha256, size: signature.size }, signature };
}

/**
 * Puts the inspected archive into the file store and commits `writeRows` (which inserts the version row)
 * in one transaction. The hash is claimed first, so the orphan sweep leaves the file alone until the row
 * exists; the claim goes in the same transaction as the row. A crash at any moment leaves either the file
 * and its row, or at most an unreferenced file that the sweep removes later.
 */
async function storeAndCommit<T>(
  env: UploadEnvironment,
  file: UploadedFile,
  writeRows: (tx: Transaction) => Promise<T>,
): Promise<T> {
  const claimId = await claimStoredFile(env.db, file.sha256);
  try {
    // receiveUpload hashed the bytes as it wrote them: the file moves into the store instead of being copied.
    await env.fileStore.adopt(file.path, { hash: file.sha256, size: file.size });
    return await env.db.transaction(async (tx) => {
      const result = await writeRows(tx);
      await releaseClaim(tx, claimId);
      return result;
    });
  } catch (error) {
    await releaseClaim(env.db, claimId).catch((releaseError: unknown) =>
      env.log.error({ err: releaseError, claimId }, 'could not drop the claim of a failed upload'),
    );
    if (isUniqueViolation(error)) {
      throw new UploadRefusal(
        400,
        'This version has just been uploaded by another request: raise <version>.',
      );
    }
    throw error;
  }
}

function isUniqueViolation(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

async function insertVersion(
  tx: Transaction,
  input: {
    pluginId: number;
    descriptor: PluginDescriptor;
    file: UploadedFile;
    channel: string;
    notes: string;
    hidden: boolean;
    authorId: number;
    kind: 'jar' | 'zip';
  },
) {
  const { descriptor } = input;
  const [row] = await tx
    .insert(pluginVersions)
    .values({
      pluginId: input.pluginId,
      version: descriptor.version,
      channel: input.channel,
      sinceBuild: descriptor.sinceBuild,
      untilBuild: descriptor.untilBuild,
      ...buildBoundColumns(descriptor.sinceBuild, descriptor.untilBuild),
      fileHash: input.file.sha256,
      fileSize: input.file.size,
      fileName: `${descriptor.id}-${descriptor.version}.${input.kind}`,
      notes: input.notes,
      dependencies: descriptor.dependencies.filter((dependency) => !dependency.optional).map((d) => d.id),
      authorId: input.authorId,
      hidden: input.hidden,
      approvalState: 'pending',
      productCode: descriptor.productDescriptor?.code ?? null,
      productReleaseDate: descriptor.productDescriptor?.releaseDate ?? null,
      productReleaseVersion: descriptor.productDescriptor?.releaseVersion ?? null,
      productOptional: descriptor.productDescriptor?.optional ?? null,
    })
    .returning();
  if (!row) throw new Error('The version row was not written.');
  await enqueueVerification(tx, row.id); // verified later by the verification worker, never in the upload
  // Held back from visitors until its scan passes (src/trust/scanning); the upload route nudges the scanner.
  await enqueueScan(tx, row.id);
  return row;
}

function answer(
  env: UploadEnvironment,
  row: typeof pluginVersions.$inferSelect,
  warnings: string[],
): UploadedVersionBody {
  return {
    id: row.id,
    pluginId: row.pluginId,
    version: row.version,
    cdate: row.createdAt.getTime(),
    downloadUrl: `${env.publicUrl}/plugin/download?updateId=${row.id}`,
    notes: row.notes,
    since: row.sinceBuild,
    until: row.untilBuild ?? '',
    channel: row.channel,
    size: row.fileSize,
    downloads: row.downloads,
    hidden: row.hidden,
    warnings,
  };
}

/** Finds the plugin an update is for: by numeric `pluginId`, or by `xmlId` (+ `family`, default intellij). */
async function findTargetPlugin(db: Database, fields: FormFields): Promise<{ id: number; label: string }> {
  const pluginIdText = fields.get('pluginId')?.trim();
  const xmlId = fields.get('xmlId')?.trim();
  const family = fields.get('family')?.trim() || 'intellij';
  const notFound = (label: string) =>
    new UploadRefusal(
      404,
      `Plugin ${label} does not exist. Please upload the plugin manually at least once before uploading updates through the API.`,
    );
  if (pluginIdText) {
    if (!/^\d{1,10}$/.test(pluginIdText))
      throw new UploadRefusal(400, `"${pluginIdText}" is not a plugin id.`);
    const id = Number(pluginIdText);
    const [row] = await selectRows<{ id: number }>(
      db,
      sql`SELECT id FROM plugins WHERE id = ${id} AND lifecycle_state <> 'deleted'`,
    );
    if (!row) throw notFound(pluginIdText);
    return { id: row.id, label: pluginIdText };
  }
  if (xmlId) {
    if (!isProductFamily(family)) throw new UploadRefusal(400, `"${family}" is not a product family.`);
    const [row] = await selectRows<{ id: number }>(
      db,
      sql`SELECT id FROM plugins WHERE xml_id = ${xmlId} AND family = ${family} AND lifecycle_state <> 'deleted'`,
    );
    if (!row) throw notFound(`'${xmlId}'`);
    return { id: row.id, label: `'${xmlId}'` };
  }
  throw new UploadRefusal(400, 'Say which plugin this is an update of: send "pluginId" or "xmlId".');
}

/**
 * Whether this uploader may add a version to the plugin the form names: its developers and administrators
 * may, unless it is blocked or an administrator disallowed changes. Decided from the form's text fields
 * alone, so the upload route can ask before the archive is read (see readUploadForm's `beforeFile`).
 */
export async function authorizeVersionUpload(
  db: Database,
  fields: FormFields,
  uploader: { userId: number; isAdmin: boolean },
): Promise<{
  target: { id: number; label: string };
  state: NonNullable<Awaited<ReturnType<typeof loadPluginState>>>;
}> {
  const target = await findTargetPlugin(db, fields);
  const managers = (await pluginManagers(db, target.id)) ?? [];
  if (!uploader.isAdmin && !managers.includes(uploader.userId)) {
    throw new UploadRefusal(403, `Only the developers of plugin ${target.label} can upload its versions.`);
  }
  const state = await loadPluginState(db, target.id);
  if (!state) throw new UploadRefusal(404, `Plugin ${target.label} does not exist.`);
  if (state.blockState === 'blocked') {
    throw new UploadRefusal(409, `Plugin ${target.label} is blocked, so no new versions can be uploaded.`);
  }
  if (!state.modificationAllowed && !uploader.isAdmin) {
    throw new UploadRefusal(
      409,
      `Changes to plugin ${target.label} are not allowed at the moment (access was disallowed by an administrator).`,
    );
  }
  return { target, state };
}

/**
 * A new version of an existing plugin (`POST /api/updates/upload`, `POST /plugin/uploadPlugin`). Only the
 * plugin's developers and administrators may upload; the version waits for an administrator's approval.
 */
export async function uploadVersion(
  env: UploadEnvironment,
  form: UploadForm,
  uploader: { userId: number; isAdmin: boolean },
): Promise<UploadedVersionBody> {
  const file = requireFile(form);
  const { state } = await authorizeVersionUpload(env.db, form.fields, uploader);
  const channel = channelOf(form);
  const existing = await env.db
    .select({ version: pluginVersions.version })
    .from(pluginVersions)
    .where(and(eq(pluginVersions.pluginId, state.id), eq(pluginVersions.channel, channel)));
  const inspection = await inspect(env, file, {
    xmlId: state.xmlId,
    existingVersions: existing.map((row) => row.version),
  });
  requireProductDescriptor(state.pricingModel, inspection.descriptor, inspection.warnings);
  const notes = notesOf(form, inspection.descriptor);
  const hidden = hiddenFlagOf(form);
  const signed = await countersign(env, file, await vendorOfPlugin(env.db, state.id), inspection.warnings);
  const row = await storeAndCommit(env, signed.file, async (tx) => {
    const version = await insertVersion(tx, {
      pluginId: state.id,
      descriptor: inspection.descriptor,
      file: signed.file,
      channel,
      notes,
      hidden,
      authorId: uploader.userId,
      kind: inspection.kind,
    });
    await recordAudit(tx, {
      pluginId: state.id,
      actorId: uploader.userId,
      action: 'upload-version',
      details: {
        versionId: version.id,
        version: version.version,
        channel,
        fileHash: signed.file.sha256,
        warnings: inspection.warnings,
      },
    });
    await recordVersionSignature(tx, version.id, signed.signature.record);
    return version;
  });
  env.log.info({ pluginId: state.id, versionId: row.id, version: row.version }, 'plugin version uploaded');
  return answer(env, row, inspection.warnings);
}

/**
 * Paid items must declare `<product-descriptor>` in every version, as the vendor's marketplace requires
 * (the licence check and release-infos read it); freemium ones declare it with optional="true".
 */
function requireProductDescriptor(
  pricingModel: PricingModel,
  descriptor: PluginDescriptor,
  warnings: string[],
): void {
  if (pricingModel === 'FREE') return;
  const product = descriptor.productDescriptor;
  if (product === null) {
    throw new UploadRefusal(400, {
      errors: [
        `This plugin is ${pricingModel === 'PAID' ? 'paid' : 'freemium'}, so plugin.xml must declare its product: add <product-descriptor code="PYOURCODE" release-date="YYYYMMDD" release-version="NNNNN"${pricingModel === 'FREEMIUM' ? ' optional="true"' : ''}/>.`,
      ],
      warnings,
      isErrorUnknown: false,
    });
  }
  if (pricingModel === 'FREEMIUM' && !product.optional) {
    warnings.push(
      'This plugin is freemium, but its <product-descriptor> does not say optional="true": the IDE will ask for a licence before any feature works.',
    );
  }
}

/** Tags sent one part each (the vendor's REST client) or several in one part, separated by commas. */
function tagNamesOf(form: UploadForm): string[] {
  return [
    ...new Set(
      form.fields
        .getAll('tags')
        .flatMap((part) => part.split(','))
        .map((tag) => tag.trim())
        .filter((tag) => tag !== ''),
    ),
  ];
}

/** `isHidden` as the vendor's tooling sends it (a JSON boolean part, or text from curl); `hidden` also. */
function hiddenFlagOf(form: UploadForm): boolean {
  return formFlag(form.fields.get('isHidden') ?? form.fields.get('hidden'));
}

/**
 * A new plugin from its first archive (`POST /api/plugins/{family}/upload`): the plugin row in the draft
 * state, owned by the uploader, with its first version waiting for approval. `isHidden` hides the plugin
 * (and so its first version). The answer is the plugin, as the vendor's REST client parses it.
 */
export async function uploadNewPlugin(
  env: UploadEnvironment,
  form: UploadForm,
  familyText: string,
  uploader: { userId: number; isAdmin: boolean },
): Promise<UploadedPluginBody> {
  const file = requireFile(form);
  if (!isProductFamily(familyText)) throw new UploadRefusal(400, `"${familyText}" is not a product family.`);
  const family: ProductFamily = familyText;
  const licenseText = form.fields.get('licenseUrl')?.trim() ?? '';
  if (!isValidWebsite(licenseText)) {
    throw new UploadRefusal(400, 'Give the address of the plugin\'s license as "licenseUrl".');
  }
  const licenseUrl = normalizeLink(licenseText);
  const tagNames = tagNamesOf(form);
  if (tagNames.length === 0) {
    throw new UploadRefusal(400, 'Choose at least one tag for the plugin ("tags", separated by commas).');
  }
  if (tagNames.length > MAX_PLUGIN_TAGS) {
    throw new UploadRefusal(400, `Choose at most ${MAX_PLUGIN_TAGS} tags for the plugin.`);
  }
  const knownTags = await env.db
    .select({ id: tags.id, name: tags.name, privileged: tags.privileged })
    .from(tags)
    .where(inArray(tags.name, tagNames));
  const unknownTags = tagNames.filter(
    (name) => !knownTags.some((tag) => tag.name === name && !tag.privileged),
  );
  if (unknownTags.length > 0) {
    throw new UploadRefusal(400, `Unknown tags: ${unknownTags.join(', ')}.`);
  }
  const channel = channelOf(form);
  const inspection = await inspect(env, file, {});
  const descriptor = inspection.descriptor;
  const [taken] = await selectRows<{ id: number }>(
    env.db,
    sql`SELECT id FROM plugins WHERE family = ${family} AND xml_id = ${descriptor.id}`,
  );
  if (taken) {
    throw new UploadRefusal(
      400,
      `A plugin with the id '${descriptor.id}' already exists: upload new versions of it through its own page or /api/updates/upload.`,
    );
  }
  // Namespaces and look-alikes (src/trust): refused here, or accepted and flagged for the moderators below.
  const trust = await checkNewItem(env.db, {
    family,
    xmlId: descriptor.id,
    name: descriptor.name,
    uploaderId: uploader.userId,
  });
  if (trust.refusal !== undefined) throw new UploadRefusal(400, trust.refusal);
  const vendorName = form.fields.get('vendor')?.trim() || descriptor.vendor.name;
  const notes = notesOf(form, descriptor);
  const hidden = hiddenFlagOf(form);
  const signed = await countersign(
    env,
    file,
    await vendorNamedForUpload(env.db, vendorName),
    inspection.warnings,
  );
  const result = await storeAndCommit(env, signed.file, async (tx) => {
    const vendorId = await vendorFor(tx, vendorName, descriptor, uploader.userId);
    const [plugin] = await tx
      .insert(plugins)
      .values({
        family,
        xmlId: descriptor.id,
        name: descriptor.name,
        description: sanitizeDocumentHtml(descriptor.description),
        email: descriptor.vendor.email,
        vendorId,
        ownerId: uploader.userId,
        licenseUrl,
        url: descriptor.vendor.url,
        lifecycleState: 'draft',
        approved: false,
        hidden,
      })
      .returning({ id: plugins.id });
    if (!plugin) throw new Error('The plugin row was not written.');
    await tx
      .insert(pluginTags)
      .values(knownTags.map((tag) => ({ pluginId: plugin.id, tagId: tag.id })))
      .onConflictDoNothing();
    const version = await insertVersion(tx, {
      pluginId: plugin.id,
      descriptor,
      file: signed.file,
      channel,
      notes,
      hidden: false,
      authorId: uploader.userId,
      kind: inspection.kind,
    });
    await flagForReview(tx, trust, { pluginId: plugin.id, versionId: version.id, version: version.version });
    await recordVersionSignature(tx, version.id, signed.signature.record);
    await recordAudit(tx, {
      pluginId: plugin.id,
      actorId: uploader.userId,
      action: 'create-plugin',
      details: {
        versionId: version.id,
        version: version.version,
        family,
        xmlId: descriptor.id,
        warnings: inspection.warnings,
      },
    });
    return version;
  });
  env.log.info({ pluginId: result.pluginId, versionId: result.id }, 'new plugin uploaded');
  return uploadedPlugin(env, result.pluginId, answer(env, result, inspection.warnings));
}

/** The new plugin as the vendor's REST client reads it (its `PluginBean`), with the first version. */
async function uploadedPlugin(
  env: UploadEnvironment,
  pluginId: number,
  update: UploadedVersionBody,
): Promise<UploadedPluginBody> {
  // Read as an administrator would: the plugin is a draft nobody else may see yet.
  const plugin = await loadPlugin(env.db, pluginId, { userId: 0, isAdmin: true }, { fullInfo: false });
  if (!plugin) throw new Error(`The new plugin ${pluginId} could not be read back.`);
  const [vendor] = await selectRows<{
    id: number;
    name: string;
    url: string | null;
    email: string | null;
    verified: boolean;
  }>(
    env.db,
    sql`SELECT v.id, v.name, v.url, v.email, v.verified FROM plugins p JOIN vendors v ON v.id = p.vendor_id
      WHERE p.id = ${pluginId}`,
  );
  const { info, urls } = plugin;
  return {
    id: plugin.id,
    name: info.name,
    xmlId: info.xmlId,
    family: info.family,
    link: info.link,
    description: info.description,
    preview: info.preview,
    docText: info.docText,
    email: info.email,
    copyright: info.copyright,
    downloads: info.downloads,
    icon: info.icon,
    isHidden: info.isHidden,
    approve: info.approve,
    cdate: info.cdate,
    vendor: vendor
      ? {
          id: vendor.id,
          name: vendor.name,
          publicName: vendor.name,
          url: vendor.url,
          email: vendor.email,
          link: `/search?search=${encodeURIComponent(vendor.name)}`,
          countryCode: '',
          country: null,
          isVerified: vendor.verified,
          // A vendor made from plugin.xml at upload, until an administrator verifies it.
          type: vendor.verified ? 'organization' : 'xml',
        }
      : null,
    urls: {
      ...urls,
      donationLinks: urls.donationLinks.map((link) => ({ title: link.name, link: link.url })),
    },
    tags: plugin.tags.map(({ id, name, link, families }) => ({ id, name, link, families })),
    themes: plugin.themes,
    language: plugin.language,
    programmingLanguage: plugin.programmingLanguage,
    update,
    warnings: update.warnings,
  };
}

/**
 * The vendor a new plugin is published under: an existing one by name, unless that vendor is protected
 * (verified, owning a namespace, or signing its plugins) and the uploader is not one of its people (a name in
 * plugin.xml must not make anybody one), or a new unverified one.
 */
async function vendorFor(
  tx: Transaction,
  name: string,
  descriptor: PluginDescriptor,
  uploaderId: number,
): Promise<number> {
  const [existing] = await tx.select().from(vendors).where(eq(vendors.name, name));
  if (existing) {
    const protection = await vendorProtection(tx, existing.id);
    if (protection !== undefined && !(await trustedVendorIdsOf(tx, uploaderId)).includes(existing.id)) {
      throw new UploadRefusal(
        400,
        `The vendor "${name}" ${protection}, and only its people (owners and developers of its approved plugins) can publish new plugins under its name: ask its team to add you as a developer, or name your own vendor in plugin.xml.`,
      );
    }
    return existing.id;
  }
  const [created] = await tx
    .insert(vendors)
    .values({ name, url: descriptor.vendor.url, email: descriptor.vendor.email })
    .onConflictDoNothing({ target: vendors.name })
    .returning({ id: vendors.id });
  if (created) return created.id;
  const [raced] = await tx.select({ id: vendors.id }).from(vendors).where(eq(vendors.name, name));
  if (!raced) throw new Error(`The vendor "${name}" was neither found nor created.`);
  return raced.id;
}
