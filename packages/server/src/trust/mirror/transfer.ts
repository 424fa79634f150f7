import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isProductFamily, type ProductFamily } from '@marketplace/core';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { pluginVisibleTo, selectRows, versionVisibleTo } from '../../search/sql';
import type { FileStore } from '../../storage';
import {
  importVersion,
  MirrorImportRefusal,
  mirrorTarget,
  verifyMirroredArchive,
  type MirrorImportEnvironment,
  type MirroredVersionInput,
  type MirrorSource,
} from './importer';

/** What `mp mirror export` writes and `mp mirror import` reads: `mirror.json` beside `archives/`. */
export const MANIFEST_NAME = 'mirror.json';
export const MANIFEST_FORMAT = 'marketplace-mirror/1';
const ARCHIVES = 'archives';
/** A manifest larger than this is not one (100,000 versions take about 100 MB). */
const MAX_MANIFEST_BYTES = 256 * 1024 * 1024;

export interface ManifestVersion {
  version: string;
  /** '' is the stable channel. */
  channel: string;
  since: string;
  until: string | null;
  /** HTML change notes. */
  notes: string;
  /** The archive, relative to the export's directory (`archives/<id>-<version>.zip`). */
  file: string;
  size: number;
  /** Lower-case hex SHA-256 of the archive. */
  sha256: string;
  /** Where the version came from (a download URL of the marketplace it was first published on). */
  originalUrl: string;
}

export interface ManifestPlugin {
  family: ProductFamily;
  xmlId: string;
  name: string;
  /** HTML. */
  description: string;
  vendor: { name: string; email: string | null; url: string | null };
  tags: string[];
  licenseUrl: string | null;
  /** The marketplace the item is from: the exporting one, or the one it mirrored it from. */
  mirroredFrom: string;
  versions: ManifestVersion[];
}

export interface MirrorManifest {
  format: typeof MANIFEST_FORMAT;
  exportedAt: string;
  /** The exporting marketplace's public address. */
  source: string;
  plugins: ManifestPlugin[];
}

/** A refusal of the whole export or import, as a sentence (the command prints it and exits 1). */
export class MirrorTransferError extends Error {
  override name = 'MirrorTransferError';
}

function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9._+-]/g, '_').slice(0, 120);
}

/** Copies a stream into a new file, hashing it; answers the hash and size. Removes the file on failure. */
async function writeHashed(content: Readable, path: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      hash.update(chunk);
      callback(null, chunk);
    },
  });
  try {
    await pipeline(content, meter, createWriteStream(path, { flags: 'wx', mode: 0o644 }));
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
  return { sha256: hash.digest('hex'), size };
}

async function hashFile(path: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    size += chunk.length;
    hash.update(chunk);
  }
  return { sha256: hash.digest('hex'), size };
}

interface ExportRow {
  plugin_id: number;
  family: ProductFamily;
  xml_id: string;
  name: string;
  description: string;
  vendor_name: string | null;
  vendor_email: string | null;
  vendor_url: string | null;
  license_url: string | null;
  tags: string[];
  plugin_mirrored_from: string | null;
  version_id: number;
  version: string;
  channel: string;
  since_build: string;
  until_build: string | null;
  notes: string;
  file_hash: string;
  file_size: number;
  file_name: string;
  original_url: string | null;
}

export interface ExportResult {
  plugins: number;
  versions: number;
  bytes: number;
  /** Chosen ids that are not listed here (nothing of them was exported). */
  missing: string[];
}

/**
 * Writes every listed item (or the chosen ids) with its offered versions into `directory`, which must be new
 * or empty: the archives byte for byte under `archives/`, then `mirror.json` with the metadata and each
 * archive's SHA-256 (written last, so an export cut short has no manifest). Each archive's hash is checked
 * against the stored one while it is copied.
 */
export async function exportMirror(
  env: { db: Database; fileStore: FileStore },
  directory: string,
  options: { source: string; pluginIds?: readonly string[]; progress?: (line: string) => void },
): Promise<ExportResult> {
  const existing = await readdir(directory).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  if (existing.length > 0) {
    throw new MirrorTransferError(`${directory} is not empty: export into a new or empty directory.`);
  }
  const chosen =
    options.pluginIds && options.pluginIds.length > 0 ? [...new Set(options.pluginIds)] : undefined;
  const rows = await selectRows<ExportRow>(
    env.db,
    sql`SELECT p.id AS plugin_id, p.family, p.xml_id, p.name, p.description, v.name AS vendor_name,
        v.email AS vendor_email, v.url AS vendor_url, p.license_url,
        (SELECT coalesce(array_agg(t.name ORDER BY t.name), '{}') FROM plugin_tags pt JOIN tags t ON t.id = pt.tag_id
          WHERE pt.plugin_id = p.id AND NOT t.privileged) AS tags,
        mp.mirrored_from AS plugin_mirrored_from,
        pv.id AS version_id, pv.version, pv.channel, pv.since_build, pv.until_build, pv.notes, pv.file_hash,
        pv.file_size::float8 AS file_size, pv.file_name, mv.original_url
      FROM plugins p JOIN plugin_versions pv ON pv.plugin_id = p.id
        LEFT JOIN vendors v ON v.id = p.vendor_id
        LEFT JOIN mirrored_plugins mp ON mp.plugin_id = p.id
        LEFT JOIN mirrored_versions mv ON mv.version_id = pv.id
      WHERE ${pluginVisibleTo(undefined)} AND ${versionVisibleTo(undefined)}
        ${
          chosen
            ? sql`AND p.xml_id IN (${sql.join(
                chosen.map((id) => sql`${id}`),
                sql`, `,
              )})`
            : sql``
        }
      ORDER BY p.family, p.xml_id, pv.created_at, pv.id`,
  );
  const missing = chosen ? chosen.filter((id) => !rows.some((row) => row.xml_id === id)) : [];
  await mkdir(join(directory, ARCHIVES), { recursive: true });
  const plugins = new Map<number, ManifestPlugin>();
  const usedNames = new Set<string>();
  let bytes = 0;
  for (const row of rows) {
    let plugin = plugins.get(row.plugin_id);
    if (!plugin) {
      plugin = {
        family: row.family,
        xmlId: row.xml_id,
        name: row.name,
        description: row.description,
        vendor: { name: row.vendor_name ?? '', email: row.vendor_email, url: row.vendor_url },
        tags: row.tags,
        licenseUrl: row.license_url,
        mirroredFrom: row.plugin_mirrored_from ?? options.source,
        versions: [],
      };
      plugins.set(row.plugin_id, plugin);
    }
    const extension = row.file_name.toLowerCase().endsWith('.jar') ? '.jar' : '.zip';
    const base = `${safeName(row.xml_id)}-${safeName(row.version)}${row.channel ? `-${safeName(row.channel)}` : ''}`;
    let name = `${base}${extension}`;
    for (let suffix = 2; usedNames.has(name); suffix += 1) name = `${base}-${suffix}${extension}`;
    usedNames.add(name);
    const file = `${ARCHIVES}/${name}`;
    const opened = await env.fileStore.open(row.file_hash);
    if (!opened) {
      throw new MirrorTransferError(
        `The archive of ${row.xml_id} ${row.version} (${row.file_hash}) is missing from the file store.`,
      );
    }
    const written = await writeHashed(opened.stream, join(directory, file));
    if (written.sha256 !== row.file_hash) {
      throw new MirrorTransferError(
        `The stored archive of ${row.xml_id} ${row.version} does not match its hash (${row.file_hash}): the file store is damaged.`,
      );
    }
    bytes += written.size;
    plugin.versions.push({
      version: row.version,
      channel: row.channel,
      since: row.since_build,
      until: row.until_build,
      notes: row.notes,
      file,
      size: written.size,
      sha256: written.sha256,
      originalUrl: row.original_url ?? `${options.source}/plugin/download?updateId=${row.version_id}`,
    });
    options.progress?.(`  ${file}`);
  }
  const manifest: MirrorManifest = {
    format: MANIFEST_FORMAT,
    exportedAt: new Date().toISOString(),
    source: options.source,
    plugins: [...plugins.values()],
  };
  // Written under another name and renamed: a manifest is there only once it is complete.
  const partial = join(directory, `.${MANIFEST_NAME}.partial`);
  await writeFile(partial, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o644 });
  await rename(partial, join(directory, MANIFEST_NAME));
  return {
    plugins: manifest.plugins.length,
    versions: manifest.plugins.reduce((total, plugin) => total + plugin.versions.length, 0),
    bytes,
    missing,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** Reads and checks `mirror.json`; any deviation is a refusal naming the manifest and the place. */
export async function readManifest(directory: string): Promise<MirrorManifest> {
  const path = join(directory, MANIFEST_NAME);
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile()) {
    throw new MirrorTransferError(`${path} does not exist: give the directory \`mp mirror export\` wrote.`);
  }
  if (info.size > MAX_MANIFEST_BYTES)
    throw new MirrorTransferError(`${path} is too large to be a mirror manifest.`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new MirrorTransferError(`${path} is not JSON: ${(error as Error).message}`);
  }
  const wrong = (where: string) => new MirrorTransferError(`${path} is not a mirror manifest: ${where}.`);
  if (!isRecord(parsed) || parsed.format !== MANIFEST_FORMAT) {
    throw wrong(`"format" is not "${MANIFEST_FORMAT}"`);
  }
  if (typeof parsed.source !== 'string' || !/^https?:\/\//.test(parsed.source)) {
    throw wrong('"source" is not an http(s) address');
  }
  if (!Array.isArray(parsed.plugins)) throw wrong('"plugins" is not a list');
  const text = (value: unknown, where: string, optional = false): string | null => {
    if (value === null && optional) return null;
    if (value === undefined && optional) return null;
    if (typeof value !== 'string') throw wrong(`${where} is not text`);
    return value;
  };
  const plugins: ManifestPlugin[] = parsed.plugins.map((plugin: unknown, pluginIndex: number) => {
    const at = `plugins[${pluginIndex}]`;
    if (!isRecord(plugin)) throw wrong(`${at} is not an object`);
    if (!isProductFamily(plugin.family)) throw wrong(`${at}.family is not a product family`);
    const vendor = isRecord(plugin.vendor) ? plugin.vendor : {};
    if (!Array.isArray(plugin.versions)) throw wrong(`${at}.versions is not a list`);
    return {
      family: plugin.family,
      xmlId: text(plugin.xmlId, `${at}.xmlId`)!,
      name: text(plugin.name, `${at}.name`)!,
      description: text(plugin.description, `${at}.description`, true) ?? '',
      vendor: {
        name: text(vendor.name, `${at}.vendor.name`, true) ?? '',
        email: text(vendor.email, `${at}.vendor.email`, true),
        url: text(vendor.url, `${at}.vendor.url`, true),
      },
      tags: Array.isArray(plugin.tags)
        ? plugin.tags.filter((tag): tag is string => typeof tag === 'string')
        : [],
      licenseUrl: text(plugin.licenseUrl, `${at}.licenseUrl`, true),
      mirroredFrom: text(plugin.mirroredFrom, `${at}.mirroredFrom`, true) ?? (parsed.source as string),
      versions: plugin.versions.map((version: unknown, versionIndex: number) => {
        const vat = `${at}.versions[${versionIndex}]`;
        if (!isRecord(version)) throw wrong(`${vat} is not an object`);
        const sha256 = text(version.sha256, `${vat}.sha256`)!.toLowerCase();
        if (!SHA256_HEX.test(sha256)) throw wrong(`${vat}.sha256 is not a SHA-256 in hex`);
        if (typeof version.size !== 'number' || !Number.isSafeInteger(version.size) || version.size < 0) {
          throw wrong(`${vat}.size is not a size in bytes`);
        }
        return {
          version: text(version.version, `${vat}.version`)!,
          channel: text(version.channel, `${vat}.channel`, true) ?? '',
          since: text(version.since, `${vat}.since`)!,
          until: text(version.until, `${vat}.until`, true),
          notes: text(version.notes, `${vat}.notes`, true) ?? '',
          file: text(version.file, `${vat}.file`)!,
          size: version.size,
          sha256,
          originalUrl: text(version.originalUrl, `${vat}.originalUrl`)!,
        };
      }),
    };
  });
  return {
    format: MANIFEST_FORMAT,
    exportedAt: typeof parsed.exportedAt === 'string' ? parsed.exportedAt : '',
    source: parsed.source,
    plugins,
  };
}

/** The archive's path inside the export, refusing names that leave it (`../`, absolute paths). */
function archivePath(directory: string, file: string): string {
  const root = resolve(directory);
  const path = resolve(root, file);
  const inside = relative(root, path);
  if (inside === '' || inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside)) {
    throw new MirrorTransferError(`The manifest names ${file}, which is outside the export's directory.`);
  }
  return path;
}

export interface ImportResult {
  imported: number;
  present: number;
  failed: number;
  /** One sentence per version not imported. */
  problems: string[];
  /** Items left alone (published here, or blocked, deleted or frozen by an administrator) and refused renames. */
  notes: string[];
}

/**
 * Imports an export: first every archive's size and SHA-256 is checked against the manifest, and a single
 * difference refuses the whole import, naming each file (a changed export is not half trusted). Then each
 * version is verified like a synced one (a readable plugin of that id and version, signatures that verify)
 * and imported in its own transaction: all of a version or nothing of it.
 */
export async function importMirror(
  env: MirrorImportEnvironment,
  directory: string,
  options: { progress?: (line: string) => void } = {},
): Promise<ImportResult> {
  const manifest = await readManifest(directory);
  const mismatches: string[] = [];
  for (const plugin of manifest.plugins) {
    for (const version of plugin.versions) {
      const path = archivePath(directory, version.file);
      const found = await hashFile(path).catch((error: NodeJS.ErrnoException) => {
        mismatches.push(`${version.file}: ${error.code === 'ENOENT' ? 'missing' : error.message}.`);
        return undefined;
      });
      if (!found) continue;
      if (found.size !== version.size) {
        mismatches.push(`${version.file}: ${found.size} bytes, but the manifest says ${version.size}.`);
      } else if (found.sha256 !== version.sha256) {
        mismatches.push(
          `${version.file}: its SHA-256 is ${found.sha256}, but the manifest says ${version.sha256}.`,
        );
      }
    }
  }
  if (mismatches.length > 0) {
    throw new MirrorTransferError(
      `The export in ${directory} does not match its manifest, so nothing was imported: ${mismatches.join(' ')}`,
    );
  }
  await mkdir(env.tempDir, { recursive: true });
  const result: ImportResult = { imported: 0, present: 0, failed: 0, problems: [], notes: [] };
  for (const plugin of manifest.plugins) {
    const source: MirrorSource = { upstreamId: null, mirroredFrom: plugin.mirroredFrom, via: 'import' };
    for (const version of plugin.versions) {
      const input: MirroredVersionInput = {
        family: plugin.family,
        xmlId: plugin.xmlId,
        version: version.version,
        channel: version.channel,
        name: plugin.name,
        description: plugin.description,
        vendor: plugin.vendor,
        tags: plugin.tags,
        since: version.since,
        until: version.until,
        notes: version.notes,
        originalUrl: version.originalUrl,
        licenseUrl: plugin.licenseUrl,
      };
      const target = await mirrorTarget(env.db, source, input);
      if (target.kind === 'present') {
        result.present += 1;
        continue;
      }
      if (target.kind === 'left-alone') {
        if (!result.notes.includes(target.note)) result.notes.push(target.note);
        continue;
      }
      // Copied (never moved) out of the export, hashed again on the way: the bytes imported are the ones checked.
      const copy = join(env.tempDir, `upload-${randomBytes(12).toString('hex')}.part`);
      try {
        const copied = await writeHashed(createReadStream(archivePath(directory, version.file)), copy);
        const archive = { path: copy, ...copied };
        const verified = await verifyMirroredArchive(env, input, archive, {
          size: version.size,
          sha256: version.sha256,
        });
        const outcome = await importVersion(env, source, input, archive, verified);
        if ('present' in outcome) result.present += 1;
        else if ('leftAlone' in outcome) result.notes.push(outcome.leftAlone);
        else {
          result.imported += 1;
          result.notes.push(...outcome.notes);
          options.progress?.(`  ${plugin.xmlId} ${version.version}`);
        }
      } catch (error) {
        if (!(error instanceof MirrorImportRefusal)) throw error;
        result.failed += 1;
        result.problems.push(`${version.file}: ${error.message}`);
      } finally {
        await rm(copy, { force: true });
      }
    }
  }
  return result;
}
