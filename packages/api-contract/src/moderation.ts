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
  /**
   * What automatic checks asked the moderators to look at (unresolved notes written by no person: a
   * look-alike name, verification problems), oldest first.
   */
  flags: Type.Array(Type.String()),
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

// Moderation completed (admin area, issue 17): partial blocks of chosen versions, the administrators' view of
// an item, visitors' reports of items and reviews with their resolution, the audit log of every action.

/**
 * The fields of a DSA statement of reasons (EU Digital Services Act, art. 17) the admin screens fill in for
 * block, partial-block and delete; sent as the text fields of DsaReportBody and kept in the audit log.
 */
export const DSA_STATEMENT_FIELDS = [
  'decisionGround',
  'legalGround',
  'termsGround',
  'facts',
  'automatedDetection',
  'territorialScope',
  'redress',
] as const;
export type DsaStatementField = (typeof DSA_STATEMENT_FIELDS)[number];
/** Why the content is restricted: illegal content, or content against the marketplace's terms. */
export const DSA_DECISION_GROUNDS = ['ILLEGAL_CONTENT', 'INCOMPATIBLE_WITH_TERMS'] as const;
export type DsaDecisionGround = (typeof DSA_DECISION_GROUNDS)[number];

/** POST /api/plugins/{id}/partial-block: the versions to block (of this plugin, approved) and the DSA report. */
export const PartialBlockBody = Type.Optional(
  Type.Union([
    Type.Null(),
    Type.Object(
      {
        versions: Type.Optional(
          Type.Array(Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), { maxItems: 500 }),
        ),
        report: DsaReportBody,
      },
      { additionalProperties: false },
    ),
  ]),
);
export type PartialBlockBody = Static<typeof PartialBlockBody>;

/** A version as the administrators see it: every state, with what visitors are offered. */
export const AdminVersionSchema = Type.Object({
  id: Type.Integer(),
  version: Type.String(),
  /** '' is the stable channel. */
  channel: Type.String(),
  /** pending, approved, rejected or blocked (by a partial block). */
  approvalState: Type.String(),
  hidden: Type.Boolean(),
  size: Type.Integer(),
  uploaded: Timestamp,
});
export type AdminVersionBody = Static<typeof AdminVersionSchema>;

/** GET /api/admin/plugins/{id}/state: an item's state, the actions that apply to it and its versions. */
export const AdminPluginStateSchema = Type.Object({
  state: PluginStateSchema,
  name: Type.String(),
  xmlId: Type.String(),
  family: FamilySchema,
  /** The lifecycle actions an administrator may take now (spec §4 names; the server refuses the others). */
  actions: Type.Array(Type.String()),
  versions: Type.Array(AdminVersionSchema),
  openReports: Type.Integer(),
});
export type AdminPluginStateBody = Static<typeof AdminPluginStateSchema>;

/** GET /api/admin/plugins/{id}/versions: every version of the item, newest first. */
export const AdminVersionsSchema = Type.Array(AdminVersionSchema);

/** POST /api/comments/{id}/reports: a visitor reports a review (same fields as a plugin's report). */
export const NewReviewReportBody = NewPluginReportBody;
export type NewReviewReportBody = NewPluginReportBody;

export const REPORT_STATES = ['open', 'resolved', 'all'] as const;
export type ReportState = (typeof REPORT_STATES)[number];

/** GET /api/admin/reports: open reports unless `state` says otherwise, newest first. */
export const AdminReportsQuery = Type.Object({
  max: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  offset: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }),
  state: Type.Enum([...REPORT_STATES], { default: 'open' }),
  pluginId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
});
export type AdminReportsQuery = Static<typeof AdminReportsQuery>;

/** A report in the administrators' queue: the report, what it is about and how it was resolved. */
export const AdminReportSchema = Type.Object({
  id: Type.Integer(),
  pluginId: Type.Integer(),
  pluginName: Type.String(),
  /** The reported review, when the report is of a review. */
  reviewId: Nullable(Type.Integer()),
  reviewText: Nullable(Type.String()),
  reporterId: Nullable(Type.Integer()),
  reporterLogin: Nullable(Type.String()),
  reason: Type.String(),
  message: Type.String(),
  cdate: Timestamp,
  resolved: Type.Boolean(),
  resolvedAt: Nullable(Timestamp),
  resolvedBy: Nullable(Type.Integer()),
  resolution: Nullable(Type.String()),
});
export type AdminReportBody = Static<typeof AdminReportSchema>;

/** POST /api/admin/reports/{id}/resolve: what the administrator did about it. */
export const ResolveReportBody = Type.Object({
  note: Type.String({ minLength: 1, maxLength: 5000 }),
});
export type ResolveReportBody = Static<typeof ResolveReportBody>;

/** GET /api/admin/audit: every entry of the audit log, newest first, filtered. */
export const AuditLogQuery = Type.Object({
  max: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
  offset: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }),
  pluginId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
  /** The actor's login (or user id). */
  actor: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  action: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
});
export type AuditLogQuery = Static<typeof AuditLogQuery>;

/** One entry of the audit log: an item's action (pluginId set) or an admin action on something else (subject). */
export const AuditEntrySchema = Type.Object({
  id: Type.Integer(),
  pluginId: Nullable(Type.Integer()),
  pluginName: Nullable(Type.String()),
  /** What a non-item action acted on, e.g. "user:12"; null for item actions. */
  subject: Nullable(Type.String()),
  actorId: Nullable(Type.Integer()),
  actorLogin: Nullable(Type.String()),
  action: Type.String(),
  /** The reason given (a ban's reason, a DSA statement's facts), when there is one. */
  reason: Nullable(Type.String()),
  details: Type.Record(Type.String(), Type.Unknown()),
  date: Timestamp,
});
export type AuditEntryBody = Static<typeof AuditEntrySchema>;

/** GET /api/plugins/{id}/upload/details: what the item's last upload contained. */
export const UploadDetailsSchema = Type.Object({
  pluginId: Type.Integer(),
  versionId: Type.Integer(),
  version: Type.String(),
  channel: Type.String(),
  fileName: Type.String(),
  size: Type.Integer(),
  /** SHA-256 of the archive as stored. */
  fileHash: Type.String(),
  since: Type.String(),
  until: Nullable(Type.String()),
  dependencies: Type.Array(Type.String()),
  notes: Type.String(),
  approvalState: Type.String(),
  hidden: Type.Boolean(),
  uploaded: Timestamp,
  uploaderId: Nullable(Type.Integer()),
  uploaderLogin: Nullable(Type.String()),
  /** The inspection's warnings at upload time (kept since this feature; [] before). */
  warnings: Type.Array(Type.String()),
});
export type UploadDetailsBody = Static<typeof UploadDetailsSchema>;

/** GET /api/admin/install?pluginId=&updateId=: an administrator downloads any version of an item. */
export const AdminInstallQuery = Type.Object({
  pluginId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  updateId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
});
export type AdminInstallQuery = Static<typeof AdminInstallQuery>;

/** GET /apps/download?pluginId=[&updateId=]: the package of an app (YouTrack, Space, Hub...), newest by default. */
export const AppsDownloadQuery = Type.Object({
  pluginId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  updateId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
});
export type AppsDownloadQuery = Static<typeof AppsDownloadQuery>;
