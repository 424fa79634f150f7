/**
 * Bounds that keep the inspection of an uploaded archive cheap whatever the archive claims. Every bound is
 * checked against what the archive declares before anything is decompressed, and again against the bytes
 * that really come out while streaming, so a lying header cannot get past either.
 */
export interface ArchiveLimits {
  /** Largest upload accepted, in bytes (the public marketplace's limit is 400 MB). */
  maxArchiveBytes: number;
  /** Most entries in one archive: the upload itself, and each jar opened inside a zip. */
  maxEntries: number;
  /** Most entries listed across the upload and all the jars opened inside it, together. */
  maxTotalEntries: number;
  /** Most bytes all entries of the upload may decompress to, together (zip bombs stop here). */
  maxTotalUncompressedBytes: number;
  /** Largest META-INF/plugin.xml read into memory; it is the only entry ever held whole in memory. */
  maxDescriptorBytes: number;
}

export const MEGABYTE = 1024 * 1024;

export const DEFAULT_ARCHIVE_LIMITS: Readonly<ArchiveLimits> = Object.freeze({
  maxArchiveBytes: 400 * MEGABYTE,
  // Real plugins list a few thousand entries (the demo catalogue's largest: under 100); the largest third-party
  // plugins bundle tens of thousands of classes across their jars. 40,000 in one jar and 60,000 in all leave
  // room for those while an upload of 100,000 tiny entries, however they are spread over nested jars, is
  // refused before anything is unpacked. Operators set both (MAX_ARCHIVE_ENTRIES, MAX_ARCHIVE_TOTAL_ENTRIES).
  maxEntries: 40_000,
  maxTotalEntries: 60_000,
  maxTotalUncompressedBytes: 1024 * MEGABYTE,
  maxDescriptorBytes: 4 * MEGABYTE,
});

/** Entry names longer than this are refused: no real plugin needs them and they only cost memory. */
export const MAX_ENTRY_NAME_LENGTH = 1024;

export function resolveLimits(overrides: Partial<ArchiveLimits> | undefined): ArchiveLimits {
  const limits = { ...DEFAULT_ARCHIVE_LIMITS, ...overrides };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new RangeError(`Archive limit ${name} must be a positive integer, got ${String(value)}`);
    }
  }
  return limits;
}

/** "1 GB", "400 MB", "1.5 KB", "512 bytes": sizes in messages a developer reads (binary units). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < MEGABYTE) return `${trimDecimal(bytes / 1024)} KB`;
  if (bytes < 1024 * MEGABYTE) return `${trimDecimal(bytes / MEGABYTE)} MB`;
  return `${trimDecimal(bytes / (1024 * MEGABYTE))} GB`;
}

function trimDecimal(value: number): string {
  return (Math.round(value * 10) / 10).toString();
}
