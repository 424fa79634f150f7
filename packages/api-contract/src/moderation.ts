import { Type, type Static } from 'typebox';
import { FamilySchema, Nullable, Timestamp } from './common';

/** max/offset paging of the moderation lists (audit log, reports, approval queue), as the search pages. */
export const ModerationPageQuery = Type.Object({
  max: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  offset: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }),
});
export type ModerationPageQuery = Static<typeof ModerationPageQuery>;

/** GET /api/admin/plugins/pending: max/offset paging, as the search, with Link and X-Total-Count headers. */
export const ApprovalQueueQuery = ModerationPageQuery;
export type ApprovalQueueQuery = ModerationPageQuery;

export const PendingVersionSchema = Type.Object({
  id: Type.Integer(),
  version: Type.String(),
  /** '' is the stable channel. */
  channel: Type.String(),
  uploaded: Timestamp,
});
export type PendingVersionBody = Static<typeof PendingVersionSchema>;

/** One plugin waiting for an administrator: published and not approved, or with versions pending approval. */
export const ApprovalQueueEntrySchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  xmlId: Type.String(),
  family: FamilySchema,
  vendor: Nullable(Type.String()),
  /** 'new': published and not approved; 'update': approved, with versions waiting. */
  kind: Type.Union([Type.Literal('new'), Type.Literal('update')]),
  /** Oldest upload first. */
  pendingVersions: Type.Array(PendingVersionSchema),
  /** When it started waiting: its publication (new items) or its oldest pending upload (updates). */
  waitingSince: Timestamp,
});
export type ApprovalQueueEntryBody = Static<typeof ApprovalQueueEntrySchema>;

/** The queue page, oldest waiting first. */
export const ApprovalQueueSchema = Type.Array(ApprovalQueueEntrySchema);
export type ApprovalQueueBody = Static<typeof ApprovalQueueSchema>;

/**
 * POST /api/plugins/{id}/{block, partial-block, delete} and DELETE /api/plugins/{id}: an optional DSA
 * statement of reasons, as free fields (category, facts, legal ground...), kept in the audit log.
 */
export const DsaReportBody = Type.Optional(
  Type.Union([
    Type.Null(),
    Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 10_000 }), { maxProperties: 16 }),
  ]),
);
export type DsaReportBody = Static<typeof DsaReportBody>;

/** What the lifecycle actions (POST /api/plugins/{id}/{action}) answer: the plugin's state after it. */
export const PluginStateSchema = Type.Object({
  id: Type.Integer(),
  /** draft, published, removal_requested or deleted. */
  lifecycleState: Type.String(),
  approved: Type.Boolean(),
  /** none, partial or blocked. */
  blockState: Type.String(),
  modificationAllowed: Type.Boolean(),
  hasUnapprovedUpdate: Type.Boolean(),
  /** Whether visitors see it: published, approved, not blocked, not hidden. */
  listed: Type.Boolean(),
});
export type PluginStateBody = Static<typeof PluginStateSchema>;

/** POST /api/plugins/{id}/admin-notes. */
export const NewAdminNoteBody = Type.Object({ text: Type.String({ minLength: 1, maxLength: 10_000 }) });
export type NewAdminNoteBody = Static<typeof NewAdminNoteBody>;

/** POST /api/plugins/{id}/admin-notes/{noteId}/resolve. */
export const AdminNoteParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  noteId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
});
export type AdminNoteParams = Static<typeof AdminNoteParams>;

/** An administrators' note on a plugin (GET /api/plugins/{id}/admin-notes lists them, newest first). */
export const AdminNoteSchema = Type.Object({
  id: Type.Integer(),
  text: Type.String(),
  /** null when the author's account is gone. */
  authorId: Nullable(Type.Integer()),
  cdate: Timestamp,
  resolved: Type.Boolean(),
  resolvedAt: Nullable(Timestamp),
  resolvedBy: Nullable(Type.Integer()),
});
export type AdminNoteBody = Static<typeof AdminNoteSchema>;

/** POST /api/plugins/{id}/reports: anyone who can see a plugin may report it. */
export const NewPluginReportBody = Type.Object({
  reason: Type.String({ minLength: 1, maxLength: 200 }),
  message: Type.Optional(Type.String({ maxLength: 5000 })),
});
export type NewPluginReportBody = Static<typeof NewPluginReportBody>;

/** A visitor's report of a plugin (GET /api/plugins/{id}/reports and /api/admin/reports, newest first). */
export const PluginReportSchema = Type.Object({
  id: Type.Integer(),
  pluginId: Type.Integer(),
  /** null for a guest, or when the reporter's account is gone. */
  reporterId: Nullable(Type.Integer()),
  reason: Type.String(),
  /** '' when the reporter wrote only a reason. */
  message: Type.String(),
  cdate: Timestamp,
});
export type PluginReportBody = Static<typeof PluginReportSchema>;
