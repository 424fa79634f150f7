/**
 * The exception analyzer (the insight domain): IDEs post a plugin's error reports to
 * `POST /trackerRpc/idea/createScr` (the IDE's own form, answered with the report id as plain text); the
 * item's people and administrators read the groups of reports under `/api/plugins/{id}/exceptions`.
 * Instants are milliseconds since 1970.
 */
import { EXCEPTION_STATUSES, RECENT_EXCEPTION_DAYS } from '@marketplace/core';
import { Type, type Static } from 'typebox';
import { Nullable, Timestamp } from './common';

const DatabaseId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
const Count = Type.Integer({ minimum: 0 });

export const ExceptionStatusSchema = Type.Enum([...EXCEPTION_STATUSES], {
  description: 'new, investigating, fixed (in `fixedInVersion`), ignored',
});

/** /api/plugins/{id}/exceptions/{groupId}. */
export const ExceptionGroupParams = Type.Object({ id: DatabaseId, groupId: DatabaseId });
export type ExceptionGroupParams = Static<typeof ExceptionGroupParams>;

export const ExceptionGroupsQuery = Type.Object({
  page: Type.Integer({ minimum: 1, maximum: 100_000, default: 1 }),
  size: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  status: Type.Optional(ExceptionStatusSchema),
});
export type ExceptionGroupsQuery = Static<typeof ExceptionGroupsQuery>;

const groupProperties = {
  id: DatabaseId,
  exceptionClass: Type.String({ description: 'The outermost exception class' }),
  message: Type.String({
    description: "The first line of the latest report's message (shown, not grouped by)",
  }),
  status: ExceptionStatusSchema,
  fixedInVersion: Nullable(Type.String({ description: 'status fixed: the version the fix shipped in' })),
  statusNote: Type.String({ description: 'Why the status is what it is, e.g. why a fixed group reopened' }),
  statusChangedAt: Nullable(Timestamp),
  firstSeen: Timestamp,
  lastSeen: Timestamp,
  total: Count,
  recent: Type.Integer({
    minimum: 0,
    description: `Reports of the last ${RECENT_EXCEPTION_DAYS} days, today included`,
  }),
  installations: Type.Integer({
    minimum: 0,
    description: 'Distinct installations that reported it (counted exactly up to 10,000)',
  }),
  versions: Type.Array(Type.String(), {
    description: 'The plugin versions it was reported from, newest first ("" when a report named none)',
  }),
};

/** A group in the list: one defect, by the fingerprint of its normalised stack trace. */
export const ExceptionGroupSummarySchema = Type.Object(groupProperties);
export type ExceptionGroupSummary = Static<typeof ExceptionGroupSummarySchema>;

/** GET /api/plugins/{id}/exceptions: the groups, most reported in the recent days first. */
export const ExceptionGroupsSchema = Type.Object({
  recentDays: Type.Integer({ minimum: 1 }),
  total: Count,
  groups: Type.Array(ExceptionGroupSummarySchema),
});
export type ExceptionGroupsBody = Static<typeof ExceptionGroupsSchema>;

export const ExceptionCountSchema = Type.Object({ value: Type.String(), reports: Count });
export type ExceptionCount = Static<typeof ExceptionCountSchema>;

export const ExceptionReportSchema = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  receivedAt: Timestamp,
  pluginVersion: Type.String(),
  build: Type.String({ description: 'The IDE build with its product code, e.g. IU-241.14494.240' }),
  productName: Type.String({ description: 'The IDE, e.g. IntelliJ IDEA 2024.1' }),
  os: Type.String({ description: 'Operating system name, version and architecture' }),
  java: Type.String({ description: 'Java runtime version and vendor' }),
  message: Type.String(),
  stackTrace: Type.String({ description: 'The whole trace as the IDE sent it: text, never markup' }),
  lastAction: Type.String({ description: 'The IDE action run last before the error' }),
  attachmentNames: Type.Array(Type.String(), {
    description: 'Attachments the IDE sent; their content is not kept',
  }),
  automatic: Type.Boolean({ description: 'Sent by the IDE without the user asking' }),
});
export type ExceptionReportBody = Static<typeof ExceptionReportSchema>;

export const ExceptionCommentSchema = Type.Object({
  reportId: Type.Integer({ minimum: 1 }),
  receivedAt: Timestamp,
  pluginVersion: Type.String(),
  build: Type.String(),
  text: Type.String({ description: "The user's words, as text" }),
});
export type ExceptionCommentBody = Static<typeof ExceptionCommentSchema>;

/** GET /api/plugins/{id}/exceptions/{groupId}: the group, its latest report, environments and comments. */
export const ExceptionGroupSchema = Type.Object({
  ...groupProperties,
  normalisedTrace: Type.String({
    description:
      'What the reports are grouped by: exception classes and the plugin’s frames, lines and numbers removed',
  }),
  pluginPackage: Type.String({
    description: "The package taken as the plugin's own ('' when none was found)",
  }),
  latest: Nullable(ExceptionReportSchema),
  environment: Type.Object({
    versions: Type.Array(ExceptionCountSchema),
    builds: Type.Array(ExceptionCountSchema),
    operatingSystems: Type.Array(ExceptionCountSchema),
    javaVersions: Type.Array(ExceptionCountSchema),
  }),
  comments: Type.Array(ExceptionCommentSchema, { description: 'Newest first, up to 100' }),
  storedReports: Type.Integer({
    minimum: 0,
    description: 'Reports kept whole (the newest; older ones only counted)',
  }),
});
export type ExceptionGroupBody = Static<typeof ExceptionGroupSchema>;

/** PUT /api/plugins/{id}/exceptions/{groupId}/status. */
export const ExceptionStatusBody = Type.Object({
  status: ExceptionStatusSchema,
  fixedInVersion: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: 'Required with status fixed' }),
  ),
});
export type ExceptionStatusBody = Static<typeof ExceptionStatusBody>;

/** The answer to the IDE: the report id as plain text (the IDE reads `responseText.trim().toLong()`). */
export const ExceptionReportIdText = Type.String({ pattern: '^\\d+$', description: 'The numeric report id' });
