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
