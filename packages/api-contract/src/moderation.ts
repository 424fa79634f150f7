import { Type, type Static } from 'typebox';
import { FamilySchema, Nullable, Timestamp } from './common';

/** GET /api/admin/plugins/pending: max/offset paging, as the search, with Link and X-Total-Count headers. */
export const ApprovalQueueQuery = Type.Object({
  max: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  offset: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }),
});
export type ApprovalQueueQuery = Static<typeof ApprovalQueueQuery>;

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
