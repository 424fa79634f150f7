/**
 * Supply-chain trust (server `src/trust`): id namespaces that vendors claim and administrators approve, and
 * the look-alike rules of new ids and names (those answer through the upload routes' refusals).
 *
 * Routes:
 * - `GET /api/trust/namespaces/mine`: the namespace claims of the vendors the signed-in user acts for (owns
 *   or develops one of their plugins), each with the DNS TXT record that proves it.
 * - `POST /api/trust/namespaces`: claim `prefix` for `vendor` (one of the vendor's people); answers the claim,
 *   waiting for an administrator. A reserved prefix (com.jetbrains. ...) or one overlapping another vendor's
 *   answers 400/409.
 * - `GET /api/admin/trust/namespaces[?state=]`: every claim and grant, waiting ones first, and the reserved
 *   prefixes (administrators).
 * - `POST /api/admin/trust/namespaces`: grant `prefix` to `vendor` at once, reserved ones too (administrators).
 * - `POST /api/admin/trust/namespaces/{id}/{approve|refuse|revoke}` with an optional `reason` (administrators;
 *   kept in the audit log). A decision the claim's state does not allow answers 409.
 * - `GET /api/admin/trust/namespaces/{id}/dns`: looks the claim's TXT record up once, with a time limit, and
 *   shows what was found; it decides nothing (administrators).
 */
import { Type, type Static } from 'typebox';
import { Nullable, Timestamp } from './common';

/** A prefix as stored and compared: lower case, at least two segments, ending with a dot ('com.acme.'). */
export const ID_PREFIX_PATTERN = /^[a-z0-9_-]+(\.[a-z0-9_-]+)+\.$/;
/** The longest prefix a vendor may claim. */
export const ID_PREFIX_MAX_LENGTH = 200;

export const NAMESPACE_STATES = ['pending', 'approved', 'refused', 'revoked'] as const;
export type NamespaceState = (typeof NAMESPACE_STATES)[number];
export const NamespaceStateSchema = Type.Union([
  Type.Literal('pending'),
  Type.Literal('approved'),
  Type.Literal('refused'),
  Type.Literal('revoked'),
]);

export const NAMESPACE_DECISIONS = ['approve', 'refuse', 'revoke'] as const;
export type NamespaceDecisionAction = (typeof NAMESPACE_DECISIONS)[number];

export const DnsRecordSchema = Type.Object({
  /** The name to publish the TXT record at, e.g. `_marketplace-namespace.acme.com`. */
  name: Type.String(),
  /** What the record must hold. */
  value: Type.String(),
});
export type DnsRecordBody = Static<typeof DnsRecordSchema>;

export const NamespaceClaimSchema = Type.Object({
  id: Type.Integer(),
  /** Lower case, ending with a dot: `com.acme.`. */
  prefix: Type.String(),
  vendor: Type.Object({ id: Type.Integer(), name: Type.String() }),
  state: NamespaceStateSchema,
  dnsRecord: DnsRecordSchema,
  /** Login of who claimed it; null for an administrator's direct grant. */
  requestedBy: Nullable(Type.String()),
  requestedAt: Timestamp,
  decidedBy: Nullable(Type.String()),
  decidedAt: Nullable(Timestamp),
  /** The administrator's reason, if one was given. */
  reason: Nullable(Type.String()),
});
export type NamespaceClaimBody = Static<typeof NamespaceClaimSchema>;

export const NamespaceClaimsSchema = Type.Array(NamespaceClaimSchema);

export const ClaimNamespaceBody = Type.Object({
  prefix: Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'e.g. com.acme. (the final dot may be left out)',
  }),
  vendor: Type.String({ minLength: 1, maxLength: 200, description: 'the vendor name, as on its plugins' }),
});
export type ClaimNamespaceBody = Static<typeof ClaimNamespaceBody>;

export const GrantNamespaceBody = Type.Object({
  prefix: Type.String({ minLength: 1, maxLength: 200 }),
  vendor: Type.String({ minLength: 1, maxLength: 200 }),
  reason: Type.Optional(Type.String({ maxLength: 2000 })),
});
export type GrantNamespaceBody = Static<typeof GrantNamespaceBody>;

export const NamespaceDecisionParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  decision: Type.Union([Type.Literal('approve'), Type.Literal('refuse'), Type.Literal('revoke')]),
});
export type NamespaceDecisionParams = Static<typeof NamespaceDecisionParams>;

export const NamespaceDecisionBody = Type.Optional(
  Type.Union([Type.Null(), Type.Object({ reason: Type.Optional(Type.String({ maxLength: 2000 })) })]),
);
export type NamespaceDecisionBody = Static<typeof NamespaceDecisionBody>;

export const NamespaceListQuery = Type.Object({ state: Type.Optional(NamespaceStateSchema) });
export type NamespaceListQuery = Static<typeof NamespaceListQuery>;

/** The administrators' queue: every claim and grant, and the prefixes reserved by the operator. */
export const NamespaceAdminListSchema = Type.Object({
  reservedPrefixes: Type.Array(Type.String()),
  claims: NamespaceClaimsSchema,
});
export type NamespaceAdminListBody = Static<typeof NamespaceAdminListSchema>;

/** What one look at the claim's TXT record found (shown to the administrator, never acted on). */
export const NamespaceDnsCheckSchema = Type.Object({
  name: Type.String(),
  value: Type.String(),
  /** Every TXT record found at `name`. */
  records: Type.Array(Type.String()),
  /** Whether one of them is `value`. */
  found: Type.Boolean(),
  /** Why nothing could be read (no record, a time-out, a failed lookup); null when the lookup answered. */
  error: Nullable(Type.String()),
});
export type NamespaceDnsCheckBody = Static<typeof NamespaceDnsCheckSchema>;

/*
 * Scanning (server `src/trust/scanning`): every uploaded version is scanned by a job before it is offered;
 * a version whose findings warrant it is quarantined (offered to nobody but its developers and
 * administrators) until an administrator releases or rejects it.
 *
 * Routes:
 * - `GET /api/admin/trust/scans[?state=&max=&offset=]`: versions by scan state (quarantined by default), each
 *   with its latest scan and job (administrators).
 * - `POST /api/admin/trust/scans/{versionId}/{release|reject|rescan}` with an optional `reason`
 *   (administrators; kept in the audit log). `release` and `reject` take a quarantined version only (409
 *   otherwise); `rescan` queues a new scan without taking an offered version away meanwhile.
 * - `GET /api/trust/scans/{versionId}`: the version's scan state and latest scan (the item's developers and
 *   administrators).
 * - `GET /api/plugins/{id}/scans`: the same for each of the item's versions that scanning holds back or an
 *   administrator decided on (the item's developers and administrators), for its manage page.
 */

export const SCAN_STATES = ['unscanned', 'pending', 'passed', 'quarantined', 'released', 'rejected'] as const;
export type ScanState = (typeof SCAN_STATES)[number];
export const ScanStateSchema = Type.Union([
  Type.Literal('unscanned'),
  Type.Literal('pending'),
  Type.Literal('passed'),
  Type.Literal('quarantined'),
  Type.Literal('released'),
  Type.Literal('rejected'),
]);

export const SCAN_FINDING_SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type ScanFindingSeverity = (typeof SCAN_FINDING_SEVERITIES)[number];
export const ScanFindingSeveritySchema = Type.Union([
  Type.Literal('low'),
  Type.Literal('medium'),
  Type.Literal('high'),
  Type.Literal('critical'),
]);

export const ScanFindingSchema = Type.Object({
  /** known-malware, clamav, clamav-failed, secret, native-binary, script, look-alike, unreadable. */
  kind: Type.String(),
  severity: ScanFindingSeveritySchema,
  /** The entry (`lib/x.jar!/a/b.so` inside nested archives), `(archive)` or `(id and name)`. */
  path: Type.String(),
  /** One sentence; never the secret itself. */
  message: Type.String(),
});
export type ScanFindingBody = Static<typeof ScanFindingSchema>;

export const ScanDecisionActionSchema = Type.Union([Type.Literal('release'), Type.Literal('reject')]);
export type ScanDecisionAction = Static<typeof ScanDecisionActionSchema>;

export const VersionScanSchema = Type.Object({
  id: Type.Integer(),
  verdict: Type.Union([Type.Literal('passed'), Type.Literal('quarantined')]),
  scannedAt: Timestamp,
  /** `built-in`, and `clamav <version>` when ClamAV ran. */
  engines: Type.Array(Type.String()),
  archiveSha256: Type.String(),
  entriesScanned: Type.Integer(),
  /** Most severe first. */
  findings: Type.Array(ScanFindingSchema),
  decision: Nullable(
    Type.Object({
      action: ScanDecisionActionSchema,
      /** The administrator's login (null for others than administrators, or an account since removed). */
      by: Nullable(Type.String()),
      at: Timestamp,
      reason: Nullable(Type.String()),
    }),
  ),
});
export type VersionScanBody = Static<typeof VersionScanSchema>;

export const ScanJobSchema = Type.Object({
  state: Type.Union([
    Type.Literal('queued'),
    Type.Literal('running'),
    Type.Literal('done'),
    Type.Literal('failed'),
  ]),
  attempts: Type.Integer(),
  maxAttempts: Type.Integer(),
  /** Why the last attempt failed (it is retried until maxAttempts). */
  lastError: Nullable(Type.String()),
});
export type ScanJobBody = Static<typeof ScanJobSchema>;

export const ScanQueueEntrySchema = Type.Object({
  versionId: Type.Integer(),
  version: Type.String(),
  channel: Type.String(),
  uploaded: Timestamp,
  /** The version's approval (pending, approved, rejected, blocked): scanning and approval are separate. */
  approvalState: Type.String(),
  plugin: Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    xmlId: Type.String(),
    vendor: Nullable(Type.String()),
  }),
  state: ScanStateSchema,
  /** The latest finished scan. */
  scan: Nullable(VersionScanSchema),
  /** The latest job. */
  job: Nullable(ScanJobSchema),
});
export type ScanQueueEntryBody = Static<typeof ScanQueueEntrySchema>;

export const SCAN_QUEUE_FILTERS = ['quarantined', 'pending', 'passed', 'released', 'rejected'] as const;
export type ScanQueueFilter = (typeof SCAN_QUEUE_FILTERS)[number];

export const ScanQueueQuery = Type.Object({
  state: Type.Optional(
    Type.Union([
      Type.Literal('quarantined'),
      Type.Literal('pending'),
      Type.Literal('passed'),
      Type.Literal('released'),
      Type.Literal('rejected'),
    ]),
  ),
  max: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
});
export type ScanQueueQuery = Static<typeof ScanQueueQuery>;

export const ScanQueueSchema = Type.Object({
  total: Type.Integer(),
  entries: Type.Array(ScanQueueEntrySchema),
  /** Findings of this severity or above quarantine a version (SCAN_QUARANTINE_SEVERITY). */
  quarantineSeverity: ScanFindingSeveritySchema,
  /** The engines this server scans with: `built-in`, and `clamav` when the operator set it up. */
  engines: Type.Array(Type.String()),
});
export type ScanQueueBody = Static<typeof ScanQueueSchema>;

export const ScanActionParams = Type.Object({
  versionId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  action: Type.Union([Type.Literal('release'), Type.Literal('reject'), Type.Literal('rescan')]),
});
export type ScanActionParams = Static<typeof ScanActionParams>;
export type ScanAction = ScanActionParams['action'];

export const ScanActionBody = Type.Optional(
  Type.Union([Type.Null(), Type.Object({ reason: Type.Optional(Type.String({ maxLength: 2000 })) })]),
);
export type ScanActionBody = Static<typeof ScanActionBody>;

export const VersionScanParams = Type.Object({
  versionId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
});
export type VersionScanParams = Static<typeof VersionScanParams>;

/** A version's standing with scanning, for its developers and administrators. */
export const VersionScanStatusSchema = Type.Object({
  versionId: Type.Integer(),
  state: ScanStateSchema,
  scan: Nullable(VersionScanSchema),
  job: Nullable(ScanJobSchema),
});
export type VersionScanStatusBody = Static<typeof VersionScanStatusSchema>;

/**
 * The item's versions whose scan is more than a plain pass: pending, quarantined, rejected or released,
 * the newest first (at most PLUGIN_SCANS_MAX). A version not in the list is offered as far as scanning goes
 * (its scan passed, or it was never scanned).
 */
export const PluginScansSchema = Type.Object({
  versions: Type.Array(VersionScanStatusSchema),
});
export type PluginScansBody = Static<typeof PluginScansSchema>;
export const PLUGIN_SCANS_MAX = 100;
