/**
 * Verification (spec §7 `/api/verifications/...`): every uploaded version is checked, in a background job,
 * against the IDE builds it claims (the newest build of each released branch its since/until range reaches)
 * by the built-in checks (descriptor, dependencies, bytecode level, installation without restart, archive
 * contents) and, where the operator configured it, the external IntelliJ Plugin Verifier. A result is per
 * product build: compatible, compatible with warnings, or problems, each finding with its text. The item's
 * people may mark a finding a false positive for their plugin, administrators for every plugin; findings
 * so marked count for nothing. A version with problems is flagged for moderation (an admin note), never
 * refused. Instants are milliseconds since 1970.
 *
 * Routes, all below `/api/verifications`:
 * - `GET /api/verifications?state=&max=&offset=`: the job queue (administrators).
 * - `GET intellij-verifier-version`: the checks that run and the external verifier's version (public).
 * - `GET application/{pluginId}`: the latest verification of each version of a plugin.
 * - `GET update/{updateId}?verificationType=`: the version's latest job and verification (findings of one check
 *   only with `verificationType`); `POST update/{updateId}`: verify it again (202, the queued job).
 * - `GET update/{updateId}/products`: the product builds the version claims, with each one's status.
 * - `POST discard/{verificationId}`: set a verification aside (no longer the version's result).
 * - `GET {verificationId}[?verificationType=]`: one verification; `GET {verificationId}/previous`: compared with the
 *   latest verification of the version uploaded before it in the same channel.
 * - `POST false-positive` (the item's people), `POST false-positive/global` (administrators): mark a finding;
 *   `DELETE false-positive?id=`: unmark; `GET false-positive/global`, `GET false-positive/plugin/{pluginId}`: list.
 */
import { PROBLEM_SEVERITIES, VERIFICATION_STATUSES, VERIFICATION_TYPES } from '@marketplace/core';
import { Type, type Static } from 'typebox';
import { Nullable, Timestamp } from './common';

const DatabaseId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
const Count = Type.Integer({ minimum: 0 });

export const VerificationTypeSchema = Type.Enum([...VERIFICATION_TYPES], {
  description:
    'A check: descriptor, dependencies, bytecode, dynamic-loading, archive-hygiene, plugin-verifier (external)',
});
export const VerificationStatusSchema = Type.Enum([...VERIFICATION_STATUSES], {
  description:
    'compatible, warnings (compatible with warnings) or problems; false positives count for nothing',
});
export const ProblemSeveritySchema = Type.Enum([...PROBLEM_SEVERITIES]);
export const VERIFICATION_JOB_STATES = ['queued', 'running', 'done', 'failed'] as const;
export type VerificationJobState = (typeof VERIFICATION_JOB_STATES)[number];
export const VerificationJobStateSchema = Type.Enum([...VERIFICATION_JOB_STATES], {
  description:
    'queued (waiting, or waiting for a retry), running (leased by a worker), done, failed (gave up)',
});

/** `?verificationType=` of `update/{id}` and `{id}`: only the findings of that check. */
export const VerificationTypeQuery = Type.Object({ verificationType: Type.Optional(VerificationTypeSchema) });
export type VerificationTypeQuery = Static<typeof VerificationTypeQuery>;

export const VerificationQueueQuery = Type.Object({
  state: Type.Optional(VerificationJobStateSchema),
  max: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  offset: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }),
});
export type VerificationQueueQuery = Static<typeof VerificationQueueQuery>;

export const FalsePositiveRef = Type.Object({
  id: DatabaseId,
  scope: Type.Enum(['plugin', 'global']),
});

export const VerificationProblemSchema = Type.Object({
  id: DatabaseId,
  type: VerificationTypeSchema,
  kind: Type.String({ description: 'What was found, e.g. class-file-too-new, missing-dependency' }),
  severity: ProblemSeveritySchema,
  message: Type.String(),
  fingerprint: Type.String({
    description: 'check/kind/subject: the same finding in another version or build has the same fingerprint',
  }),
  builds: Type.Array(Type.String(), { description: 'The product builds it concerns; empty: every build' }),
  falsePositive: Nullable(FalsePositiveRef),
});
export type VerificationProblem = Static<typeof VerificationProblemSchema>;

const targetProperties = {
  productBuild: Type.String({ description: 'IU-241.19416.15' }),
  productName: Type.String(),
  branch: Type.Integer(),
  release: Type.String({ description: '2024.1; empty for a build of the external verifier’s IDEs' }),
  javaLevel: Type.Integer({ description: 'The Java the IDE runs on (0 when not known)' }),
};
export const VerificationTargetSchema = Type.Object(targetProperties);
export type VerificationTarget = Static<typeof VerificationTargetSchema>;

export const VerificationBuildResultSchema = Type.Object({
  ...targetProperties,
  status: VerificationStatusSchema,
  problems: Count,
  warnings: Count,
});
export type VerificationBuildResult = Static<typeof VerificationBuildResultSchema>;

const summaryProperties = {
  id: DatabaseId,
  updateId: DatabaseId,
  pluginId: DatabaseId,
  version: Type.String(),
  channel: Type.String(),
  status: VerificationStatusSchema,
  problems: Count,
  warnings: Count,
  verifierVersion: Type.String(),
  created: Timestamp,
  discarded: Type.Boolean(),
};

export const VerificationSummarySchema = Type.Object(summaryProperties);
export type VerificationSummary = Static<typeof VerificationSummarySchema>;

export const VerificationSchema = Type.Object({
  ...summaryProperties,
  types: Type.Array(VerificationTypeSchema, { description: 'The checks that ran' }),
  results: Type.Array(VerificationBuildResultSchema),
  findings: Type.Array(VerificationProblemSchema),
});
export type Verification = Static<typeof VerificationSchema>;

export const VerificationJobSchema = Type.Object({
  id: DatabaseId,
  updateId: DatabaseId,
  pluginId: DatabaseId,
  pluginName: Type.String(),
  version: Type.String(),
  state: VerificationJobStateSchema,
  attempts: Count,
  created: Timestamp,
  finished: Nullable(Timestamp),
  lastError: Nullable(Type.String()),
  verification: Nullable(VerificationSummarySchema),
});
export type VerificationJob = Static<typeof VerificationJobSchema>;

export const VerificationQueueSchema = Type.Object({
  total: Count,
  jobs: Type.Array(VerificationJobSchema),
});
export type VerificationQueue = Static<typeof VerificationQueueSchema>;

export const VerifierVersionSchema = Type.Object({
  verifierVersion: Type.String({ description: 'The version of the built-in checks' }),
  types: Type.Array(VerificationTypeSchema, { description: 'The checks that run on every version' }),
  external: Type.Object({
    configured: Type.Boolean(),
    version: Nullable(Type.String({ description: 'The IntelliJ Plugin Verifier’s version, from its jar' })),
    timeoutSeconds: Count,
  }),
});
export type VerifierVersion = Static<typeof VerifierVersionSchema>;

/** `GET update/{id}`: the newest job and the version's current (not discarded) verification. */
export const UpdateVerificationSchema = Type.Object({
  updateId: DatabaseId,
  job: Nullable(VerificationJobSchema),
  verification: Nullable(VerificationSchema),
});
export type UpdateVerification = Static<typeof UpdateVerificationSchema>;

export const UpdateProductsSchema = Type.Object({
  updateId: DatabaseId,
  since: Type.String(),
  until: Type.String({ description: 'empty: no upper bound' }),
  products: Type.Array(Type.Object({ ...targetProperties, status: Nullable(VerificationStatusSchema) }), {
    description: 'Claimed builds, oldest first; status null until verified',
  }),
});
export type UpdateProducts = Static<typeof UpdateProductsSchema>;

export const VerificationComparisonSchema = Type.Object({
  current: VerificationSchema,
  previous: Nullable(VerificationSchema),
  newFindings: Type.Array(VerificationProblemSchema, { description: 'In current, not in previous' }),
  resolvedFindings: Type.Array(VerificationProblemSchema, { description: 'In previous, gone from current' }),
  unchangedFindings: Type.Array(VerificationProblemSchema),
});
export type VerificationComparison = Static<typeof VerificationComparisonSchema>;

export const FalsePositiveInputSchema = Type.Object({
  problemId: DatabaseId,
  reason: Type.Optional(Type.String({ maxLength: 2000 })),
});
export type FalsePositiveInput = Static<typeof FalsePositiveInputSchema>;

export const FalsePositiveDeleteQuery = Type.Object({ id: DatabaseId });
export type FalsePositiveDeleteQuery = Static<typeof FalsePositiveDeleteQuery>;

export const FalsePositiveSchema = Type.Object({
  id: DatabaseId,
  scope: Type.Enum(['plugin', 'global']),
  pluginId: Nullable(DatabaseId),
  type: VerificationTypeSchema,
  kind: Type.String(),
  fingerprint: Type.String(),
  message: Type.String({ description: 'The finding’s text when it was marked' }),
  reason: Type.String(),
  markedBy: Nullable(DatabaseId),
  created: Timestamp,
});
export type FalsePositive = Static<typeof FalsePositiveSchema>;
export const FalsePositiveListSchema = Type.Array(FalsePositiveSchema);
export const VerificationSummaryListSchema = Type.Array(VerificationSummarySchema);
