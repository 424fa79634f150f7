import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UploadResult } from '@marketplace/core';
import type { Entry, LocalFileHeader, ZipFile } from 'yauzl';
import {
  DESCRIPTOR_PATH,
  isArchiveName,
  isDirectoryEntry,
  isSymbolicLink,
  libraryJarPluginFolder,
  preview,
  unsafeEntryNameReason,
} from './entry-rules';
import { readPluginDescriptor } from './descriptor';
import type { PluginDescriptor } from './descriptor';
import { formatBytes, resolveLimits } from './limits';
import type { ArchiveLimits } from './limits';
import {
  ArchiveRejection,
  DecompressedBudget,
  entriesOf,
  errorMessage,
  openArchive,
  streamEntry,
} from './zip-stream';

export interface InspectOptions {
  /** The xml id of the plugin this upload is a new version of; the descriptor must declare the same. */
  expectedXmlId?: string;
  /** Versions already uploaded for the plugin; uploading one again is refused. */
  existingVersions?: readonly string[];
  limits?: Partial<ArchiveLimits>;
  /** Where jars inside a zip are unpacked while they are inspected (a fresh folder inside it, removed after). */
  tempDir?: string;
  /** "Today", for telling real branches from made-up ones. */
  now?: Date;
}

export type ArchiveKind = 'jar' | 'zip';

export type ArchiveInspection =
  | { ok: true; descriptor: PluginDescriptor; warnings: string[]; kind: ArchiveKind }
  | {
      ok: false;
      /** The validation result the upload routes answer with HTTP 400. */
      result: UploadResult;
      /** Set when the inspection itself failed (disk, bug), for the server log; never shown to the uploader. */
      internalError?: unknown;
    };

export const DESCRIPTOR_NOT_FOUND =
  'plugin.xml not found: a plugin archive must contain META-INF/plugin.xml, or a jar with it under <name>/lib/.';

const UPLOAD = 'The upload';

/**
 * Inspects an uploaded plugin archive that has been saved to `filePath`: checks it is a safe zip or jar,
 * finds META-INF/plugin.xml (in the jar itself, or in a jar under `<name>/lib/` of a zip) and reads it.
 *
 * Every entry is streamed and checked (size against its header, CRC, the limits) without being held in
 * memory; only plugin.xml is read into memory. Nothing is unpacked except jars under lib/ of a zip, each
 * into a temporary folder that is removed before this returns. It never throws for anything the archive
 * contains: every outcome is a descriptor or an error result.
 */
export async function inspectPluginArchive(
  filePath: string,
  options: InspectOptions = {},
): Promise<ArchiveInspection> {
  const limits = resolveLimits(options.limits);
  const scratch = new ScratchFolder(options.tempDir ?? tmpdir());
  try {
    const found = await findDescriptor(filePath, limits, scratch);
    const reading = readPluginDescriptor(found.bytes, options.now ?? new Date());
    const warnings = reading.warnings;
    if (!reading.ok) return rejected(reading.errors, warnings);
    const descriptor = reading.descriptor;
    const errors: string[] = [];
    if (options.expectedXmlId !== undefined && descriptor.id !== options.expectedXmlId) {
      errors.push(
        `plugin.xml declares the id '${descriptor.id}', but this plugin's id is '${options.expectedXmlId}': a new version must keep the plugin's id.`,
      );
    }
    if (options.existingVersions?.includes(descriptor.version)) {
      errors.push(
        `Version ${descriptor.version} has already been uploaded for this plugin: raise <version> in plugin.xml.`,
      );
    }
    if (errors.length > 0) return rejected(errors, warnings);
    return { ok: true, descriptor, warnings, kind: found.kind };
  } catch (error) {
    if (error instanceof ArchiveRejection) return rejected([error.message], []);
    return {
      ok: false,
      result: {
        errors: ['The archive could not be inspected because of a server problem; please try again later.'],
        warnings: [],
        isErrorUnknown: true,
      },
      internalError: error,
    };
  } finally {
    await scratch.remove();
  }
}

function rejected(errors: string[], warnings: string[]): ArchiveInspection {
  return { ok: false, result: { errors, warnings, isErrorUnknown: false } };
}

interface FoundDescriptor {
  bytes: Buffer;
  kind: ArchiveKind;
}

/** What a first pass over the central directory learns, before a single byte is decompressed. */
interface Survey {
  hasDescriptor: boolean;
  libraryJars: Set<string>;
  topLevelNames: Set<string>;
  /** Archives that are not opened (not `<name>/lib/*.jar`), named in the message when plugin.xml is missing. */
  unopenedArchives: string[];
  /** Two names that differ only in letter case: one file on Windows and macOS, where the IDE unpacks zips. */
  caseCollision?: [string, string];
}

async function findDescriptor(
  filePath: string,
  limits: ArchiveLimits,
  scratch: ScratchFolder,
): Promise<FoundDescriptor> {
  const { size } = await stat(filePath);
  if (size > limits.maxArchiveBytes) {
    throw new ArchiveRejection(
      `The upload is ${formatBytes(size)}; the largest plugin archive accepted is ${formatBytes(limits.maxArchiveBytes)}.`,
    );
  }
  const entryCounter = new EntryCounter(limits.maxTotalEntries);
  const survey = await surveyArchive(filePath, UPLOAD, limits, entryCounter, true);
  const kind: ArchiveKind = survey.hasDescriptor ? 'jar' : 'zip';
  if (kind === 'zip') checkZipLayout(survey);

  // Second pass: every entry is decompressed once, verified, and either discarded, kept in memory
  // (plugin.xml) or unpacked to a scratch file (jars under lib/ of a zip) to be opened in turn.
  const budget = new DecompressedBudget(limits.maxTotalUncompressedBytes, UPLOAD);
  const zip = await openArchive(filePath, UPLOAD);
  let descriptor: Buffer | undefined;
  const jarsWithDescriptor: string[] = [];
  const deeperArchives: string[] = [];
  for await (const entry of entriesOf(zip, UPLOAD)) {
    await checkLocalHeader(zip, entry, UPLOAD);
    if (isDirectoryEntry(entry.fileName)) continue;
    if (kind === 'jar' && entry.fileName === DESCRIPTOR_PATH) {
      descriptor = await streamEntry(
        zip,
        entry,
        { kind: 'memory', maxBytes: limits.maxDescriptorBytes },
        budget,
        UPLOAD,
      );
    } else if (kind === 'zip' && survey.libraryJars.has(entry.fileName)) {
      const jarPath = await scratch.newFile();
      await streamEntry(zip, entry, { kind: 'file', path: jarPath }, budget, UPLOAD);
      const inner = await readDescriptorFromJar(jarPath, entry.fileName, limits, entryCounter);
      await rm(jarPath, { force: true });
      if (inner.bytes !== undefined) {
        jarsWithDescriptor.push(entry.fileName);
        descriptor ??= inner.bytes;
      }
      if (deeperArchives.length < 3) deeperArchives.push(...inner.nestedArchives);
    } else {
      await streamEntry(zip, entry, { kind: 'discard' }, budget, UPLOAD);
    }
  }
  if (jarsWithDescriptor.length > 1) {
    throw new ArchiveRejection(
      `plugin.xml was found in more than one jar (${jarsWithDescriptor.map((jar) => `'${preview(jar)}'`).join(', ')}): the IDE could not tell which one describes the plugin. Keep META-INF/plugin.xml in one jar only.`,
    );
  }
  if (descriptor === undefined) {
    const deeper = deeperArchives[0];
    if (deeper !== undefined) {
      throw new ArchiveRejection(
        `Nested archives too deep: plugin.xml must be in the uploaded jar itself, or in a jar directly under <name>/lib/ of the uploaded zip; archives inside those jars (such as '${preview(deeper)}') are never opened. ${DESCRIPTOR_NOT_FOUND}`,
      );
    }
    const misplaced = survey.unopenedArchives[0];
    if (misplaced !== undefined) {
      throw new ArchiveRejection(
        `${DESCRIPTOR_NOT_FOUND} The upload holds '${preview(misplaced)}' outside <name>/lib/, where archives are neither loaded by the IDE nor opened here.`,
      );
    }
    throw new ArchiveRejection(DESCRIPTOR_NOT_FOUND);
  }
  return { bytes: descriptor, kind };
}

/**
 * First pass over the central directory only: names, links, encryption, compression methods, duplicate
 * names, the entry count and the declared sizes. A zip bomb or a zip slip is refused here, before any data
 * is decompressed.
 */
async function surveyArchive(
  path: string,
  label: string,
  limits: ArchiveLimits,
  entryCounter: EntryCounter,
  isUpload: boolean,
): Promise<Survey> {
  const zip = await openArchive(path, label);
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    throw new ArchiveRejection(
      `${label} has ${zip.entryCount.toLocaleString('en-US')} entries; at most ${limits.maxEntries.toLocaleString('en-US')} are accepted in one archive.`,
    );
  }
  const survey: Survey = {
    hasDescriptor: false,
    libraryJars: new Set(),
    topLevelNames: new Set(),
    unopenedArchives: [],
  };
  const names = new Set<string>();
  const foldedNames = new Map<string, string>();
  let declaredTotal = 0;
  let entries = 0;
  for await (const entry of entriesOf(zip, label)) {
    entries += 1;
    // The count in the end-of-archive record can lie; the entries really listed are counted too.
    if (entries > limits.maxEntries) {
      throw new ArchiveRejection(
        `${label} has more than ${limits.maxEntries.toLocaleString('en-US')} entries, the most accepted in one archive.`,
      );
    }
    entryCounter.count();
    checkEntry(entry, label, limits);
    const name = entry.fileName;
    if (names.has(name)) {
      throw new ArchiveRejection(
        `${label} lists the entry '${preview(name)}' twice; tools would disagree on which copy is real.`,
      );
    }
    names.add(name);
    if (isUpload && survey.caseCollision === undefined) {
      const folded = name.toLowerCase();
      const earlier = foldedNames.get(folded);
      if (earlier !== undefined) survey.caseCollision = [earlier, name];
      else foldedNames.set(folded, name);
    }
    if (isUpload) {
      declaredTotal += entry.uncompressedSize;
      if (declaredTotal > limits.maxTotalUncompressedBytes) {
        throw new ArchiveRejection(
          `${label} would decompress to more than ${formatBytes(limits.maxTotalUncompressedBytes)}, the most an upload may unpack to (zip bombs stop here).`,
        );
      }
    }
    survey.topLevelNames.add(name.split('/')[0] + (name.includes('/') ? '/' : ''));
    if (name === DESCRIPTOR_PATH) {
      survey.hasDescriptor = true;
      if (entry.uncompressedSize > limits.maxDescriptorBytes) {
        throw new ArchiveRejection(
          `plugin.xml in ${label.toLowerCase()} is ${formatBytes(entry.uncompressedSize)}; at most ${formatBytes(limits.maxDescriptorBytes)} is accepted.`,
        );
      }
    } else if (!isDirectoryEntry(name) && libraryJarPluginFolder(name) !== undefined) {
      survey.libraryJars.add(name);
    } else if (!isDirectoryEntry(name) && isArchiveName(name) && survey.unopenedArchives.length < 3) {
      survey.unopenedArchives.push(name);
    }
  }
  return survey;
}

export function checkEntry(entry: Entry, label: string, limits: ArchiveLimits): void {
  const name = entry.fileName;
  // A Unicode Path extra field lets yauzl show a clean name while tools that ignore the field (Java's
  // zip classes among them) use the raw one, so the raw bytes must be safe too. latin1 keeps every byte,
  // and with it every '/', '.', '\\' and control character, where it was.
  const rawName = entry.fileNameRaw.toString('latin1');
  const unsafe =
    unsafeEntryNameReason(name) ?? (rawName === name ? undefined : unsafeEntryNameReason(rawName));
  if (unsafe !== undefined) {
    throw new ArchiveRejection(
      `${label} contains an unsafe path: ${unsafe}. Every entry must stay inside the folder the archive is unpacked into.`,
    );
  }
  if (isSymbolicLink(entry.externalFileAttributes)) {
    throw new ArchiveRejection(
      `${label} contains a symbolic link, '${preview(name)}': links could point anywhere on the machine that installs the plugin, so archives with links are refused.`,
    );
  }
  if (entry.isEncrypted()) {
    throw new ArchiveRejection(
      `${label} contains the encrypted entry '${preview(name)}'; plugin archives must not be encrypted.`,
    );
  }
  if (!entry.canDecodeFileData()) {
    throw new ArchiveRejection(
      `${label} stores '${preview(name)}' with compression method ${entry.compressionMethod}; only stored and deflated entries are accepted.`,
    );
  }
  if (isDirectoryEntry(name) && entry.uncompressedSize > 0) {
    throw new ArchiveRejection(`${label} is damaged: the folder entry '${preview(name)}' carries data.`);
  }
  if (entry.uncompressedSize > limits.maxTotalUncompressedBytes) {
    throw new ArchiveRejection(
      `${label} holds '${preview(name)}', which would decompress to ${formatBytes(entry.uncompressedSize)}; an upload may unpack to at most ${formatBytes(limits.maxTotalUncompressedBytes)} (zip bombs stop here).`,
    );
  }
}

const DATA_DESCRIPTOR_FLAG = 0x0008;
const ZIP64_SIZE_MARKER = 0xffffffff;

/**
 * Streaming unzip tools read the local header in front of each entry's data, not the central directory
 * yauzl reads. When the two disagree about the name, the method or the sizes, such a tool unpacks
 * something other than what was inspected, so the archive is refused.
 */
export async function checkLocalHeader(zip: ZipFile, entry: Entry, label: string): Promise<void> {
  let local: LocalFileHeader;
  try {
    local = await zip.readLocalFileHeaderPromise(entry);
  } catch (error) {
    throw new ArchiveRejection(
      `${label} is damaged: the local header of '${preview(entry.fileName)}' cannot be read (${errorMessage(error)}).`,
    );
  }
  const where = `'${preview(entry.fileName)}'`;
  if (!local.fileName.equals(entry.fileNameRaw)) {
    throw new ArchiveRejection(
      `${label} is forged: the entry ${where} carries another name ('${preview(local.fileName.toString('latin1'))}') in its local header, so unzip tools would unpack something else than what was checked.`,
    );
  }
  if (local.compressionMethod !== entry.compressionMethod) {
    throw new ArchiveRejection(
      `${label} is forged: the two headers of ${where} name different compression methods.`,
    );
  }
  const sizesInLocalHeader =
    (local.generalPurposeBitFlag & DATA_DESCRIPTOR_FLAG) === 0 &&
    local.compressedSize !== ZIP64_SIZE_MARKER &&
    local.uncompressedSize !== ZIP64_SIZE_MARKER;
  if (
    sizesInLocalHeader &&
    (local.compressedSize !== entry.compressedSize || local.uncompressedSize !== entry.uncompressedSize)
  ) {
    throw new ArchiveRejection(`${label} is forged: the two headers of ${where} declare different sizes.`);
  }
}

/** The IDE unpacks a plugin zip into one folder named after the plugin: `<name>/lib/*.jar` and nothing beside. */
function checkZipLayout(survey: Survey): void {
  if (survey.caseCollision !== undefined) {
    const [first, second] = survey.caseCollision;
    throw new ArchiveRejection(
      `The upload holds both '${preview(first)}' and '${preview(second)}', which are the same file on Windows and macOS: one would overwrite the other when the IDE unpacks the plugin.`,
    );
  }
  if (survey.libraryJars.size === 0) return; // reported as "plugin.xml not found" after the data is verified
  const folders = new Set([...survey.libraryJars].map((jar) => libraryJarPluginFolder(jar)));
  const strays = [...survey.topLevelNames].filter((name) => !folders.has(name.replace(/\/$/, '')));
  if (folders.size > 1 || strays.length > 0) {
    const listed = [...survey.topLevelNames]
      .slice(0, 4)
      .map((name) => `'${preview(name)}'`)
      .join(', ');
    throw new ArchiveRejection(
      `A plugin zip must hold exactly one top-level folder, <name>/ with the plugin's jars in <name>/lib/; this one holds ${listed}${survey.topLevelNames.size > 4 ? ' and more' : ''}.`,
    );
  }
}

/** Opens a jar unpacked from lib/ of a zip: its own entries are checked, and only plugin.xml is read. */
async function readDescriptorFromJar(
  jarPath: string,
  jarName: string,
  limits: ArchiveLimits,
  entryCounter: EntryCounter,
): Promise<{ bytes: Buffer | undefined; nestedArchives: string[] }> {
  const label = `The jar '${preview(jarName)}'`;
  const survey = await surveyArchive(jarPath, label, limits, entryCounter, false);
  const nestedArchives = [...survey.libraryJars, ...survey.unopenedArchives]
    .slice(0, 3)
    .map((name) => `${jarName}!/${name}`);
  if (!survey.hasDescriptor) return { bytes: undefined, nestedArchives };
  const zip = await openArchive(jarPath, label);
  const budget = new DecompressedBudget(limits.maxDescriptorBytes, label);
  for await (const entry of entriesOf(zip, label)) {
    if (entry.fileName === DESCRIPTOR_PATH) {
      const bytes = await streamEntry(
        zip,
        entry,
        { kind: 'memory', maxBytes: limits.maxDescriptorBytes },
        budget,
        label,
      );
      return { bytes, nestedArchives };
    }
  }
  return { bytes: undefined, nestedArchives };
}

/**
 * Entries listed across the upload and every jar opened inside it. Each jar stays under `maxEntries`, but
 * thousands of jars of thousands of entries would still cost minutes of central-directory parsing.
 */
class EntryCounter {
  private listed = 0;

  constructor(private readonly limit: number) {}

  count(): void {
    this.listed += 1;
    if (this.listed > this.limit) {
      throw new ArchiveRejection(
        `The upload and the jars inside it list more than ${this.limit.toLocaleString('en-US')} entries together, the most accepted.`,
      );
    }
  }
}

/** A private folder for unpacked jars, created on first use and removed with everything in it. */
class ScratchFolder {
  private folder: string | undefined;
  private count = 0;

  constructor(private readonly parent: string) {}

  async newFile(): Promise<string> {
    this.folder ??= await mkdtemp(join(this.parent, 'plugin-archive-'));
    this.count += 1;
    return join(this.folder, `nested-${this.count}.jar`);
  }

  /** Never fails: a folder left in the temp dir must not turn the uploader's answer into a server error. */
  async remove(): Promise<void> {
    if (this.folder === undefined) return;
    await rm(this.folder, { recursive: true, force: true, maxRetries: 2 }).catch(() => undefined);
  }
}
