import { DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from '../archive';

const MEGABYTE = 1024 * 1024;

/** How publishing behaves; every value has a default and can be set from the environment. */
export interface PublishingOptions {
  /** Largest plugin archive accepted, in bytes (MAX_UPLOAD_MB, default 400). */
  maxUploadBytes: number;
  /** Further bounds for the archive inspection (entries, unpacked size); tests narrow them. */
  archiveLimits: Partial<ArchiveLimits>;
  /** Largest icon, screenshot or documentation file, in bytes (MAX_MEDIA_MB, default 10). */
  maxMediaBytes: number;
  /**
   * How old an unreferenced stored file, a file claim or a temporary upload must be before the sweep
   * removes it (ORPHAN_GRACE_SECONDS, default 3600). Longer than any upload takes from claim to commit.
   */
  orphanGraceMs: number;
  /** Time between two sweeps of orphaned files (SWEEP_INTERVAL_SECONDS, default 3600; 0: never by itself). */
  sweepIntervalMs: number;
}

export class PublishingConfigError extends Error {
  override name = 'PublishingConfigError';
}

function wholeNumber(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new PublishingConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}".`);
  }
  return value;
}

export function publishingOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): PublishingOptions {
  return {
    maxUploadBytes:
      wholeNumber(env, 'MAX_UPLOAD_MB', DEFAULT_ARCHIVE_LIMITS.maxArchiveBytes / MEGABYTE, 1, 4096) *
      MEGABYTE,
    archiveLimits: {
      maxEntries: wholeNumber(env, 'MAX_ARCHIVE_ENTRIES', DEFAULT_ARCHIVE_LIMITS.maxEntries, 10, 1_000_000),
      maxTotalEntries: wholeNumber(
        env,
        'MAX_ARCHIVE_TOTAL_ENTRIES',
        DEFAULT_ARCHIVE_LIMITS.maxTotalEntries,
        10,
        1_000_000,
      ),
    },
    maxMediaBytes: wholeNumber(env, 'MAX_MEDIA_MB', 10, 1, 100) * MEGABYTE,
    orphanGraceMs: wholeNumber(env, 'ORPHAN_GRACE_SECONDS', 3600, 0, 30 * 86_400) * 1000,
    sweepIntervalMs: wholeNumber(env, 'SWEEP_INTERVAL_SECONDS', 3600, 0, 30 * 86_400) * 1000,
  };
}
