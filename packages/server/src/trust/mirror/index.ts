/**
 * Mirroring (issue 22): copies of another marketplace that speaks the IDE's feed, synced on a schedule by the
 * `trust-mirror` job ({@link syncMirrors}) or carried across an air gap (`mp mirror export|import`). See the
 * "Mirroring" section of src/trust/README.md.
 */
export { mirrorRoutes } from './routes';
export { syncMirrors, syncUpstream, type UpstreamSyncResult } from './sync';
export {
  DEFAULT_MIRROR_BUILDS,
  DEFAULT_UPSTREAM_INTERVAL_SECONDS,
  mirrorOptionsFromEnv,
  type MirrorOptions,
} from './options';
export {
  exportMirror,
  importMirror,
  MANIFEST_FORMAT,
  MANIFEST_NAME,
  MirrorTransferError,
  readManifest,
  type ExportResult,
  type ImportResult,
  type MirrorManifest,
} from './transfer';
export { parseFeed, FeedFormatError, type FeedEntry } from './feed';
