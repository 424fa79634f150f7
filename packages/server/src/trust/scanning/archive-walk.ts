import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Entry, ZipFile } from 'yauzl';
import { isArchiveName, isDirectoryEntry, preview } from '../../archive/entry-rules';
import { formatBytes, resolveLimits, type ArchiveLimits } from '../../archive/limits';
import {
  ArchiveRejection,
  DecompressedBudget,
  entriesOf,
  openArchive,
  streamEntry,
} from '../../archive/zip-stream';
import { WHOLE_ARCHIVE, type ScanFinding } from './findings';

/** One entry of the archive, or of an archive inside it, as the checks see it. */
export interface ScannedEntry {
  /** Shown in findings: `demo/lib/helper.jar!/native/x.so` inside nested archives. */
  path: string;
  /** The entry's name inside its own archive. */
  name: string;
  /** 0: an entry of the uploaded archive; 1: of an archive inside it, and so on. */
  depth: number;
  /**
   * Whether the archive holding it is a jar (the uploaded jar itself, or any archive inside the upload):
   * a class path, where JNI libraries are carried as resources. False for the entries of a plugin zip.
   */
  inClassPath: boolean;
  size: number;
  sha256: string;
  /** The first bytes of the entry (at most `maxContentBytes`): all of it when `complete`. */
  content: Buffer;
  complete: boolean;
  /** A zip, jar, war or ear: its entries are walked too (up to MAX_NESTING deep). */
  isArchive: boolean;
}

export interface WalkResult {
  /** SHA-256 of the archive file itself. */
  sha256: string;
  /** Entries handed to the visitor (directories aside), nested ones included. */
  entries: number;
  /** What could not be read, and so was not scanned. */
  problems: ScanFinding[];
}

/** Archives inside archives are opened this deep; deeper ones are hashed as files, not opened. */
export const MAX_NESTING = 4;

/** Bytes of a nested archive kept as its content (the checks only look at its first bytes). */
const ARCHIVE_HEAD_BYTES = 4096;

/** Thrown when a limit of the whole walk is reached: nothing further can be scanned. */
class WalkStopped extends Error {
  override name = 'WalkStopped';
}

interface WalkState {
  limits: ArchiveLimits;
  budget: DecompressedBudget;
  listed: number;
  entries: number;
  scratch: string;
  maxContentBytes: number;
  problems: ScanFinding[];
  visit: (entry: ScannedEntry) => Promise<void>;
}

/**
 * Reads every entry of a stored plugin archive, and of every archive inside it, once: the SHA-256 of each,
 * and its first bytes for the content checks. Uses the upload pipeline's zip reader (src/archive: size, CRC
 * and budget checks on every byte) and its limits (entries per archive and in total, bytes decompressed in
 * total); nested archives are written to a private scratch folder one at a time and removed. Nothing is
 * ever run, and entry names are never used as paths. What cannot be read becomes a finding, never a crash.
 */
export async function walkArchive(
  path: string,
  options: {
    kind: 'jar' | 'zip';
    limits?: Partial<ArchiveLimits>;
    tempDir: string;
    maxContentBytes: number;
    visit: (entry: ScannedEntry) => Promise<void>;
  },
): Promise<WalkResult> {
  const limits = resolveLimits(options.limits);
  const sha256 = await hashFile(path);
  const state: WalkState = {
    limits,
    budget: new DecompressedBudget(limits.maxTotalUncompressedBytes, 'The archive'),
    listed: 0,
    entries: 0,
    scratch: await mkdtemp(join(options.tempDir, 'scan-')),
    maxContentBytes: options.maxContentBytes,
    problems: [],
    visit: options.visit,
  };
  try {
    const { size } = await stat(path);
    if (size > limits.maxArchiveBytes) {
      throw new WalkStopped(
        `The archive is ${formatBytes(size)}; at most ${formatBytes(limits.maxArchiveBytes)} is scanned.`,
      );
    }
    await walkOne(state, path, {
      label: 'The archive',
      prefix: '',
      depth: 0,
      inClassPath: options.kind === 'jar',
    });
  } catch (error) {
    if (!(error instanceof WalkStopped || error instanceof ArchiveRejection)) throw error;
    state.problems.push({
      kind: 'unreadable',
      severity: 'high',
      path: WHOLE_ARCHIVE,
      message: `The scan stopped before the end of the archive: ${error.message} What it could not read was not scanned.`,
    });
  } finally {
    await rm(state.scratch, { recursive: true, force: true, maxRetries: 2 }).catch(() => undefined);
  }
  return { sha256, entries: state.entries, problems: state.problems };
}

async function walkOne(
  state: WalkState,
  path: string,
  where: { label: string; prefix: string; depth: number; inClassPath: boolean },
): Promise<void> {
  const zip = await openArchive(path, where.label);
  if (zip.entryCount > state.limits.maxEntries) {
    zip.close();
    throw new WalkStopped(
      `${where.label} has ${zip.entryCount.toLocaleString('en-US')} entries; at most ${state.limits.maxEntries.toLocaleString('en-US')} are scanned in one archive.`,
    );
  }
  for await (const entry of entriesOf(zip, where.label)) {
    state.listed += 1;
    if (state.listed > state.limits.maxTotalEntries) {
      throw new WalkStopped(
        `the upload and the archives inside it list more than ${state.limits.maxTotalEntries.toLocaleString('en-US')} entries.`,
      );
    }
    if (isDirectoryEntry(entry.fileName)) continue;
    const path = `${where.prefix}${entry.fileName}`;
    if (isArchiveName(entry.fileName) && where.depth < MAX_NESTING) {
      await visitNestedArchive(state, zip, entry, path, where);
    } else {
      await visitFile(state, zip, entry, path, where);
    }
  }
}

async function visitFile(
  state: WalkState,
  zip: ZipFile,
  entry: Entry,
  path: string,
  where: { label: string; depth: number; inClassPath: boolean },
): Promise<void> {
  const hash = createHash('sha256');
  const kept: Buffer[] = [];
  let keptBytes = 0;
  await streamEntry(
    zip,
    entry,
    {
      kind: 'observe',
      onChunk: (chunk) => {
        hash.update(chunk);
        if (keptBytes < state.maxContentBytes) {
          const part = chunk.subarray(0, state.maxContentBytes - keptBytes);
          kept.push(part);
          keptBytes += part.length;
        }
      },
    },
    state.budget,
    where.label,
  );
  state.entries += 1;
  await state.visit({
    path,
    name: entry.fileName,
    depth: where.depth,
    inClassPath: where.inClassPath,
    size: entry.uncompressedSize,
    sha256: hash.digest('hex'),
    content: Buffer.concat(kept),
    complete: entry.uncompressedSize <= state.maxContentBytes,
    isArchive: false,
  });
}

async function visitNestedArchive(
  state: WalkState,
  zip: ZipFile,
  entry: Entry,
  path: string,
  where: { label: string; depth: number },
): Promise<void> {
  const nestedPath = join(state.scratch, `nested-${state.listed}.zip`);
  try {
    await streamEntry(zip, entry, { kind: 'file', path: nestedPath }, state.budget, where.label);
    state.entries += 1;
    await state.visit({
      path,
      name: entry.fileName,
      depth: where.depth,
      inClassPath: true,
      size: entry.uncompressedSize,
      sha256: await hashFile(nestedPath),
      content: await readHead(nestedPath, ARCHIVE_HEAD_BYTES),
      complete: entry.uncompressedSize <= ARCHIVE_HEAD_BYTES,
      isArchive: true,
    });
    try {
      await walkOne(state, nestedPath, {
        label: `The archive '${preview(path)}'`,
        prefix: `${path}!/`,
        depth: where.depth + 1,
        inClassPath: true,
      });
    } catch (error) {
      // A damaged archive inside is reported and skipped; a limit of the whole walk ends it.
      if (
        !(error instanceof ArchiveRejection) ||
        state.budget.bytes > state.limits.maxTotalUncompressedBytes
      ) {
        throw error;
      }
      state.problems.push({
        kind: 'unreadable',
        severity: 'medium',
        path,
        message: `This archive inside the upload could not be read, so its contents were not scanned: ${error.message}`,
      });
    }
  } finally {
    await rm(nestedPath, { force: true });
  }
}

async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function readHead(path: string, bytes: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
