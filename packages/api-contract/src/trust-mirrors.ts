/**
 * Mirroring (server `src/trust/mirror`): other marketplaces that speak the IDE's feed (the vendor's public one,
 * another instance of this server) whose plugins this one copies on a schedule. Administrators only.
 *
 * Routes:
 * - `GET /api/admin/trust/mirrors`: every upstream with its last sync and recent runs, and the IDE builds a new
 *   upstream's feed is asked for unless others are given.
 * - `POST /api/admin/trust/mirrors`: add an upstream (`baseUrl`; `pluginIds` empty or absent for every plugin;
 *   `builds`; `intervalSeconds`). It is due at once: the `trust-mirror` job takes it on its next turn.
 * - `PUT /api/admin/trust/mirrors/{id}`: change any of those fields, or `enabled`.
 * - `DELETE /api/admin/trust/mirrors/{id}`: stop mirroring it; the items already mirrored stay, still marked.
 * - `POST /api/admin/trust/mirrors/{id}/sync`: make it due now (then run the job now, `POST
 *   /api/scheduler/trust-mirror/run`, to sync at once).
 * Every change takes an optional `reason` and is written to the audit log.
 */
import { Type, type Static } from 'typebox';
import { Nullable, Timestamp } from './common';

/** How often an upstream is synced, in seconds: from a minute to 30 days. */
export const MIRROR_INTERVAL_MIN_SECONDS = 60;
export const MIRROR_INTERVAL_MAX_SECONDS = 30 * 86_400;
/** How many IDE builds one upstream's feed may be asked for, and plugin ids chosen. */
export const MIRROR_MAX_BUILDS = 20;
export const MIRROR_MAX_PLUGIN_IDS = 1000;

/** Where a mirrored item came from (present on `GET /api/plugins/{id}` only for mirrored items). */
export const MirroredFromSchema = Type.Object({
  /** The marketplace's host name, e.g. `plugins.jetbrains.com`: the item page says "Mirrored from <host>". */
  host: Type.String(),
  /** The marketplace's base URL. */
  url: Type.String(),
  /** Where the newest mirrored version was fetched from there. */
  originalUrl: Type.String(),
});
export type MirroredFromBody = Static<typeof MirroredFromSchema>;

export const MirrorSyncRunSchema = Type.Object({
  id: Type.Integer(),
  startedAt: Timestamp,
  finishedAt: Nullable(Timestamp),
  outcome: Type.Enum(['running', 'succeeded', 'failed']),
  /** Versions fetched, verified and imported by this run. */
  imported: Type.Integer(),
  /** Versions the feed offered that were here already. */
  present: Type.Integer(),
  /** Versions that could not be imported (each explained in `problems`). */
  failed: Type.Integer(),
  problems: Type.Array(Type.String(), { description: 'Why the feed or a version failed, one sentence each' }),
  notes: Type.Array(Type.String(), {
    description: 'Plugins left alone, e.g. an item of that id that is not mirrored from here',
  }),
});
export type MirrorSyncRunBody = Static<typeof MirrorSyncRunSchema>;

export const MirrorUpstreamSchema = Type.Object({
  id: Type.Integer(),
  baseUrl: Type.String(),
  host: Type.String(),
  /** The plugin ids chosen; empty when every plugin of the feed is mirrored. */
  pluginIds: Type.Array(Type.String()),
  allPlugins: Type.Boolean(),
  builds: Type.Array(Type.String()),
  intervalSeconds: Type.Integer(),
  enabled: Type.Boolean(),
  createdAt: Timestamp,
  nextSyncAt: Timestamp,
  lastSyncAt: Nullable(Timestamp),
  lastOutcome: Nullable(Type.Enum(['succeeded', 'failed'])),
  lastSummary: Nullable(Type.String()),
  lastError: Nullable(Type.String()),
  /** Items of this marketplace mirrored from it. */
  mirroredItems: Type.Integer(),
  recentRuns: Type.Array(MirrorSyncRunSchema, { description: 'The newest runs first, at most 5' }),
});
export type MirrorUpstreamBody = Static<typeof MirrorUpstreamSchema>;

export const MirrorUpstreamListSchema = Type.Object({
  upstreams: Type.Array(MirrorUpstreamSchema),
  /** The builds asked for when an upstream is added without any. */
  defaultBuilds: Type.Array(Type.String()),
});
export type MirrorUpstreamListBody = Static<typeof MirrorUpstreamListSchema>;

const PluginIds = Type.Array(Type.String({ maxLength: 255 }), {
  maxItems: MIRROR_MAX_PLUGIN_IDS,
  description: 'plugin.xml ids to mirror; empty: every plugin the feed offers',
});
const Builds = Type.Array(Type.String({ maxLength: 100 }), {
  maxItems: MIRROR_MAX_BUILDS,
  description: 'IDE builds the feed is asked for, e.g. IU-243.28141.18',
});

export const CreateMirrorUpstreamBody = Type.Object({
  baseUrl: Type.String({ maxLength: 2000, description: 'e.g. https://plugins.jetbrains.com' }),
  pluginIds: Type.Optional(PluginIds),
  builds: Type.Optional(Builds),
  intervalSeconds: Type.Optional(Type.Integer()),
  enabled: Type.Optional(Type.Boolean()),
  reason: Type.Optional(Type.String({ maxLength: 2000 })),
});
export type CreateMirrorUpstreamBody = Static<typeof CreateMirrorUpstreamBody>;

export const UpdateMirrorUpstreamBody = Type.Object({
  baseUrl: Type.Optional(Type.String({ maxLength: 2000 })),
  pluginIds: Type.Optional(PluginIds),
  builds: Type.Optional(Builds),
  intervalSeconds: Type.Optional(Type.Integer()),
  enabled: Type.Optional(Type.Boolean()),
  reason: Type.Optional(Type.String({ maxLength: 2000 })),
});
export type UpdateMirrorUpstreamBody = Static<typeof UpdateMirrorUpstreamBody>;

export const MirrorReasonBody = Type.Optional(
  Type.Union([Type.Null(), Type.Object({ reason: Type.Optional(Type.String({ maxLength: 2000 })) })]),
);
export type MirrorReasonBody = Static<typeof MirrorReasonBody>;
