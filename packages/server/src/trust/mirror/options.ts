import { PLATFORM_RELEASES } from '@marketplace/core';
import { publishingOptionsFromEnv } from '../../publishing/options';
import type { ArchiveLimits } from '../../archive';
import { TrustConfigError } from '../options';

const MEGABYTE = 1024 * 1024;

/** How mirroring behaves; read from the environment once, every value has a default. */
export interface MirrorOptions {
  /** How often the `trust-mirror` job looks for upstreams that are due (MIRROR_INTERVAL_SECONDS; 0: run now only). */
  jobIntervalMs: number;
  /** How long fetching one feed may take, body included (MIRROR_FEED_TIMEOUT_SECONDS, 60). */
  feedTimeoutMs: number;
  /** The largest feed read, after decompression (MIRROR_FEED_MAX_MB, 64). */
  maxFeedBytes: number;
  /** How long downloading one archive may take (MIRROR_DOWNLOAD_TIMEOUT_SECONDS, 600). */
  downloadTimeoutMs: number;
  /**
   * The most versions one run imports from one upstream (MIRROR_MAX_VERSIONS_PER_RUN, 200): the rest stay due
   * for the job's next turn, so a first sync of a large marketplace is spread over runs of bounded length.
   */
  maxVersionsPerRun: number;
  /** The largest archive taken, as for uploads (MAX_UPLOAD_MB, 400). */
  maxArchiveBytes: number;
  /** The upload pipeline's other archive bounds (MAX_ARCHIVE_ENTRIES, MAX_ARCHIVE_TOTAL_ENTRIES). */
  archiveLimits: Partial<ArchiveLimits>;
}

/** How often a new upstream is synced unless the administrator says otherwise. */
export const DEFAULT_UPSTREAM_INTERVAL_SECONDS = 3600;

/**
 * The builds a new upstream's feed is asked for unless others are given: the newest known build of the last
 * three platform releases (core's PLATFORM_RELEASES), as IntelliJ IDEA Ultimate. The feed answers the newest
 * version of each plugin that installs into each build.
 */
export const DEFAULT_MIRROR_BUILDS: readonly string[] = PLATFORM_RELEASES.slice(-3).map(
  (release) => `IU-${release.newestBuild}`,
);

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number) {
  const text = env[name]?.trim();
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new TrustConfigError(`${name} must be a whole number from ${min} to ${max}, got "${text}".`);
  }
  return value;
}

export function mirrorOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): MirrorOptions {
  const publishing = publishingOptionsFromEnv(env);
  return {
    jobIntervalMs: wholeNumber(env, 'MIRROR_INTERVAL_SECONDS', 300, 0, 30 * 86_400) * 1000,
    feedTimeoutMs: wholeNumber(env, 'MIRROR_FEED_TIMEOUT_SECONDS', 60, 1, 3600) * 1000,
    maxFeedBytes: wholeNumber(env, 'MIRROR_FEED_MAX_MB', 64, 1, 2048) * MEGABYTE,
    downloadTimeoutMs: wholeNumber(env, 'MIRROR_DOWNLOAD_TIMEOUT_SECONDS', 600, 1, 86_400) * 1000,
    maxVersionsPerRun: wholeNumber(env, 'MIRROR_MAX_VERSIONS_PER_RUN', 200, 1, 1_000_000),
    maxArchiveBytes: publishing.maxUploadBytes,
    archiveLimits: publishing.archiveLimits,
  };
}
