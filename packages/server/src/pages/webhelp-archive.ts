import { stat } from 'node:fs/promises';
import { CUSTOM_PAGE_LIMITS, WEBHELP_INDEX } from '@marketplace/core';
import { isDirectoryEntry, preview } from '../archive/entry-rules';
import { checkEntry, checkLocalHeader } from '../archive/inspect';
import { formatBytes, resolveLimits } from '../archive/limits';
import {
  ArchiveRejection,
  DecompressedBudget,
  entriesOf,
  openArchive,
  streamEntry,
} from '../archive/zip-stream';

export { ArchiveRejection } from '../archive/zip-stream';

export interface WebhelpLimits {
  maxArchiveBytes: number;
  maxEntries: number;
  maxUnpackedBytes: number;
  maxFileBytes: number;
}

export const DEFAULT_WEBHELP_LIMITS: Readonly<WebhelpLimits> = Object.freeze({
  maxArchiveBytes: CUSTOM_PAGE_LIMITS.maxWebhelpBytes,
  maxEntries: CUSTOM_PAGE_LIMITS.maxWebhelpEntries,
  maxUnpackedBytes: CUSTOM_PAGE_LIMITS.maxWebhelpUnpackedBytes,
  maxFileBytes: CUSTOM_PAGE_LIMITS.maxWebhelpFileBytes,
});

/** A file of a webhelp: its path below the webhelp's root, and its bytes (one file in memory at a time). */
export interface WebhelpFile {
  path: string;
  bytes: Buffer;
}

const LABEL = 'The webhelp archive';

/** Folders that zip tools of macOS add beside the content; they are neither served nor counted as a root. */
const TOOL_LITTER = /^__MACOSX\//;

/**
 * Reads a webhelp zip saved at `filePath` under the plugin uploads' rules (src/archive): a first pass over
 * the central directory refuses unsafe names (`..`, absolute paths, drive letters, backslashes, control
 * characters), symbolic links, encrypted entries, unknown compression, duplicate names, too many entries and
 * declared sizes past the limits; a second pass checks each local header against the central directory and
 * streams every entry through the size and CRC checks; only when all pass does a third pass read each file
 * into memory (at most `maxFileBytes`) and hand it to `onFile` before reading the next, so a damaged or
 * hostile zip is refused before `onFile` sees anything. The root is the zip's root, or its one top-level folder; it must hold
 * index.html. Throws ArchiveRejection with a message for the vendor.
 */
export async function readWebhelpArchive(
  filePath: string,
  onFile: (file: WebhelpFile) => Promise<void>,
  overrides: Partial<WebhelpLimits> = {},
): Promise<{ files: number; bytes: number }> {
  const limits = { ...DEFAULT_WEBHELP_LIMITS, ...overrides };
  const { size } = await stat(filePath);
  if (size > limits.maxArchiveBytes) {
    throw new ArchiveRejection(
      `${LABEL} is ${formatBytes(size)}; the largest accepted is ${formatBytes(limits.maxArchiveBytes)}.`,
    );
  }
  const archiveLimits = resolveLimits({
    maxArchiveBytes: limits.maxArchiveBytes,
    maxEntries: limits.maxEntries,
    maxTotalEntries: limits.maxEntries,
    maxTotalUncompressedBytes: limits.maxUnpackedBytes,
  });

  // First pass: names, kinds and declared sizes only; nothing is decompressed.
  const survey = await openArchive(filePath, LABEL);
  if (survey.entryCount > limits.maxEntries) {
    survey.close();
    throw tooManyEntries(limits.maxEntries);
  }
  const names = new Set<string>();
  let declared = 0;
  for await (const entry of entriesOf(survey, LABEL)) {
    if (names.size >= limits.maxEntries) throw tooManyEntries(limits.maxEntries);
    checkEntry(entry, LABEL, archiveLimits);
    if (names.has(entry.fileName)) {
      throw new ArchiveRejection(
        `${LABEL} lists the entry '${preview(entry.fileName)}' twice; tools would disagree on which copy is real.`,
      );
    }
    names.add(entry.fileName);
    if (entry.uncompressedSize > limits.maxFileBytes) {
      throw new ArchiveRejection(
        `${LABEL} holds '${preview(entry.fileName)}' of ${formatBytes(entry.uncompressedSize)}; one file may be at most ${formatBytes(limits.maxFileBytes)}.`,
      );
    }
    declared += entry.uncompressedSize;
    if (declared > limits.maxUnpackedBytes) {
      throw new ArchiveRejection(
        `${LABEL} would decompress to more than ${formatBytes(limits.maxUnpackedBytes)}, the most a webhelp may unpack to (zip bombs stop here).`,
      );
    }
  }
  const root = webhelpRoot([...names].filter((name) => !isDirectoryEntry(name) && !TOOL_LITTER.test(name)));

  // Second pass: every entry decompressed through the size and CRC checks and discarded, so a zip damaged
  // half way is refused before anything is stored; third pass: the files handed on, one at a time.
  await walkFiles(filePath, root, limits, undefined);
  return walkFiles(filePath, root, limits, onFile);
}

async function walkFiles(
  filePath: string,
  root: string,
  limits: WebhelpLimits,
  onFile: ((file: WebhelpFile) => Promise<void>) | undefined,
): Promise<{ files: number; bytes: number }> {
  const budget = new DecompressedBudget(limits.maxUnpackedBytes, LABEL);
  const zip = await openArchive(filePath, LABEL);
  let files = 0;
  for await (const entry of entriesOf(zip, LABEL)) {
    await checkLocalHeader(zip, entry, LABEL);
    const name = entry.fileName;
    const served = !isDirectoryEntry(name) && !TOOL_LITTER.test(name) && name.startsWith(root);
    if (!served || onFile === undefined) {
      await streamEntry(zip, entry, { kind: 'discard' }, budget, LABEL);
      if (served) files += 1;
      continue;
    }
    const bytes = await streamEntry(
      zip,
      entry,
      { kind: 'memory', maxBytes: limits.maxFileBytes },
      budget,
      LABEL,
    );
    await onFile({ path: name.slice(root.length), bytes: bytes ?? Buffer.alloc(0) });
    files += 1;
  }
  return { files, bytes: budget.bytes };
}

function tooManyEntries(max: number): ArchiveRejection {
  return new ArchiveRejection(
    `${LABEL} has more than ${max.toLocaleString('en-US')} entries, the most accepted in a webhelp.`,
  );
}

/** '' when index.html is at the root; 'docs/' when every file is in the one folder docs/ holding it. */
function webhelpRoot(files: readonly string[]): string {
  if (files.includes(WEBHELP_INDEX)) return '';
  const tops = new Set(files.map((name) => (name.includes('/') ? `${name.split('/')[0]}/` : name)));
  const [top] = tops;
  if (tops.size === 1 && top?.endsWith('/') && files.includes(`${top}${WEBHELP_INDEX}`)) return top;
  throw new ArchiveRejection(
    `${LABEL} has no ${WEBHELP_INDEX} at its root (or in its one top-level folder): upload the folder your documentation tool built, with its ${WEBHELP_INDEX}.`,
  );
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  json: 'application/json; charset=utf-8',
  map: 'application/json; charset=utf-8',
  webmanifest: 'application/manifest+json',
  xml: 'application/xml; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  md: 'text/plain; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
  eot: 'application/vnd.ms-fontobject',
  pdf: 'application/pdf',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
  wasm: 'application/wasm',
};

/** The content type a webhelp file is served with, by its extension (nosniff keeps browsers to it). */
export function webhelpContentType(path: string): string {
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? '';
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}
