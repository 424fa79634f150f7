import { randomBytes } from 'node:crypto';
import type { NamespaceClaimBody, NamespaceState } from '@marketplace/api-contract';
import { sql } from 'drizzle-orm';
import { recordAdminAudit } from '../admin/audit';
import type { Database, Queryable } from '../db/client';
import { ApiError } from '../plugins/app/errors';
import { epochMs, selectRows } from '../search/sql';
import { normalizePrefix, type TrustOptions } from './options';
import { skeleton } from './skeleton';

/** Where the vendor publishes the TXT record of a claim: under the domain the prefix names, reversed. */
export const DNS_RECORD_LABEL = '_marketplace-namespace';
const DNS_VALUE_PREFIX = 'marketplace-namespace=';

/** 'com.acme.tools.' -> 'tools.acme.com'. */
export function domainOfPrefix(prefix: string): string {
  return prefix.slice(0, -1).split('.').reverse().join('.');
}

/** The TXT record that proves the claim: its name, and the value it must hold. */
export function dnsRecordOf(prefix: string, token: string): { name: string; value: string } {
  return { name: `${DNS_RECORD_LABEL}.${domainOfPrefix(prefix)}`, value: `${DNS_VALUE_PREFIX}${token}` };
}

/**
 * The forms an id or prefix is compared in: lower-cased, and Unicode confusables replaced by their prototype
 * (so `com.аcme.` with a Cyrillic а is under `com.acme.`). Separators stay: `com.acmetools.` is not under
 * `com.acme.`.
 */
function prefixForms(text: string): string[] {
  return [...new Set([skeleton(text.toLowerCase()), skeleton(text).toLowerCase()])];
}

/** Whether `id` (a plugin id or a longer prefix) is under `prefix`. */
export function isUnderPrefix(id: string, prefix: string): boolean {
  const ids = prefixForms(id);
  return prefixForms(prefix).some((form) => ids.some((candidate) => candidate.startsWith(form)));
}

/** Whether two prefixes overlap: one is the other or under it. */
function overlaps(a: string, b: string): boolean {
  return isUnderPrefix(a, b) || isUnderPrefix(b, a);
}

interface ClaimRow {
  id: number;
  prefix: string;
  vendor_id: number;
  vendor: string;
  state: NamespaceState;
  dns_token: string;
  requested_by: number | null;
  requested_by_login: string | null;
  requested_at: number;
  decided_by_login: string | null;
  decided_at: number | null;
  decision_reason: string | null;
}

const CLAIM_COLUMNS = sql`n.id, n.prefix, n.vendor_id, v.name AS vendor, n.state, n.dns_token, n.requested_by,
  ru.login AS requested_by_login, ${epochMs(sql`n.requested_at`)} AS requested_at,
  du.login AS decided_by_login,
  CASE WHEN n.decided_at IS NULL THEN NULL ELSE ${epochMs(sql`n.decided_at`)} END AS decided_at,
  n.decision_reason`;
const CLAIM_FROM = sql`trust_namespaces n JOIN vendors v ON v.id = n.vendor_id
  LEFT JOIN users ru ON ru.id = n.requested_by LEFT JOIN users du ON du.id = n.decided_by`;

function toClaim(row: ClaimRow): NamespaceClaimBody {
  return {
    id: row.id,
    prefix: row.prefix,
    vendor: { id: row.vendor_id, name: row.vendor },
    state: row.state,
    dnsRecord: dnsRecordOf(row.prefix, row.dns_token),
    requestedBy: row.requested_by_login,
    requestedAt: Number(row.requested_at),
    decidedBy: row.decided_by_login,
    decidedAt: row.decided_at === null ? null : Number(row.decided_at),
    reason: row.decision_reason,
  };
}

async function loadClaim(db: Queryable, id: number): Promise<NamespaceClaimBody | undefined> {
  const [row] = await selectRows<ClaimRow>(
    db,
    sql`SELECT ${CLAIM_COLUMNS} FROM ${CLAIM_FROM} WHERE n.id = ${id}`,
  );
  return row ? toClaim(row) : undefined;
}

/** Every claim and grant, those waiting for a decision first (administrators' queue). */
export async function listClaims(db: Queryable, state?: NamespaceState): Promise<NamespaceClaimBody[]> {
  const rows = await selectRows<ClaimRow>(
    db,
    sql`SELECT ${CLAIM_COLUMNS} FROM ${CLAIM_FROM}
      ${state === undefined ? sql`` : sql`WHERE n.state = ${state}`}
      ORDER BY (n.state = 'pending') DESC, n.requested_at DESC, n.id DESC LIMIT 500`,
  );
  return rows.map(toClaim);
}

/** Items of `p` the user owns or develops. */
const ownedOrDeveloped = (userId: number) =>
  sql`(p.owner_id = ${userId}
    OR EXISTS (SELECT 1 FROM plugin_developers d WHERE d.plugin_id = p.id AND d.user_id = ${userId}))`;

/**
 * The vendors a user works for: those of the items they own or develop (not deleted). Enough to ask for a
 * namespace and to read the vendor's claims: an administrator approves only what the vendor's DNS proves.
 */
async function vendorIdsOf(db: Queryable, userId: number): Promise<number[]> {
  const rows = await selectRows<{ vendor_id: number }>(
    db,
    sql`SELECT DISTINCT p.vendor_id FROM plugins p
      WHERE p.vendor_id IS NOT NULL AND p.lifecycle_state <> 'deleted' AND ${ownedOrDeveloped(userId)}`,
  );
  return rows.map((row) => row.vendor_id);
}

/**
 * The vendors whose people a user is where a vendor is protected (its namespaces, a verified name, required
 * signatures): the vendors of items they own or develop that the moderators approved (not deleted, not
 * blocked), and of namespaces whose approved claim they asked for while they still own or develop an item of
 * the vendor. An item only uploaded does not count: anybody can write any vendor's name in plugin.xml.
 */
export async function trustedVendorIdsOf(db: Queryable, userId: number): Promise<number[]> {
  const rows = await selectRows<{ vendor_id: number }>(
    db,
    sql`SELECT DISTINCT p.vendor_id FROM plugins p
        WHERE p.vendor_id IS NOT NULL AND p.approved AND p.lifecycle_state <> 'deleted'
          AND p.block_state <> 'blocked' AND ${ownedOrDeveloped(userId)}
      UNION
      SELECT n.vendor_id FROM trust_namespaces n
        WHERE n.requested_by = ${userId} AND n.state = 'approved'
          AND EXISTS (SELECT 1 FROM plugins p
            WHERE p.vendor_id = n.vendor_id AND p.lifecycle_state <> 'deleted' AND ${ownedOrDeveloped(userId)})`,
  );
  return rows.map((row) => row.vendor_id);
}

/**
 * Why only the vendor's people may publish new items under its name, or undefined when anybody may: a
 * verified vendor, one that owns an approved namespace, or one whose plugins must be signed.
 */
export async function vendorProtection(db: Queryable, vendorId: number): Promise<string | undefined> {
  const [row] = await selectRows<{ verified: boolean; prefix: string | null; must_sign: boolean }>(
    db,
    sql`SELECT v.verified,
        (SELECT n.prefix FROM trust_namespaces n WHERE n.vendor_id = v.id AND n.state = 'approved'
          ORDER BY n.prefix LIMIT 1) AS prefix,
        EXISTS (SELECT 1 FROM vendor_signature_requirements r WHERE r.vendor_id = v.id) AS must_sign
      FROM vendors v WHERE v.id = ${vendorId}`,
  );
  if (!row) return undefined;
  if (row.verified) return 'is verified';
  if (row.prefix !== null) return `owns the namespace ${row.prefix}`;
  if (row.must_sign) return 'must sign its plugins';
  return undefined;
}

/** The claims of the vendors the user acts for (the vendor's own view, with the TXT record to publish). */
export async function claimsOfUser(db: Queryable, userId: number): Promise<NamespaceClaimBody[]> {
  const vendorIds = await vendorIdsOf(db, userId);
  if (vendorIds.length === 0) return [];
  const rows = await selectRows<ClaimRow>(
    db,
    sql`SELECT ${CLAIM_COLUMNS} FROM ${CLAIM_FROM}
      WHERE n.vendor_id IN (${sql.join(
        vendorIds.map((id) => sql`${id}`),
        sql`, `,
      )})
      ORDER BY n.requested_at DESC, n.id DESC`,
  );
  return rows.map(toClaim);
}

interface ApprovedNamespace {
  id: number;
  prefix: string;
  vendorId: number;
  vendor: string;
}

async function approvedNamespaces(db: Queryable): Promise<ApprovedNamespace[]> {
  const rows = await selectRows<{ id: number; prefix: string; vendor_id: number; vendor: string }>(
    db,
    sql`SELECT n.id, n.prefix, n.vendor_id, v.name AS vendor
      FROM trust_namespaces n JOIN vendors v ON v.id = n.vendor_id WHERE n.state = 'approved'`,
  );
  return rows.map((row) => ({ id: row.id, prefix: row.prefix, vendorId: row.vendor_id, vendor: row.vendor }));
}

function checkedPrefix(text: string): string {
  const prefix = normalizePrefix(text);
  if (prefix === undefined) {
    throw new ApiError(
      'badRequest',
      `"${text.trim()}" is not an id prefix: write it like com.acme. (two segments or more of letters, digits, "-" and "_").`,
    );
  }
  return prefix;
}

async function vendorNamed(db: Queryable, name: string): Promise<{ id: number; name: string }> {
  const [vendor] = await selectRows<{ id: number; name: string }>(
    db,
    sql`SELECT id, name FROM vendors WHERE name = ${name.trim()}`,
  );
  if (!vendor) {
    throw new ApiError(
      'badRequest',
      `There is no vendor named "${name.trim()}": a vendor exists once a plugin was uploaded under its name.`,
    );
  }
  return vendor;
}

/** The approved namespace of another vendor that overlaps `prefix`, if any. */
async function refuseOverlap(db: Queryable, prefix: string, vendorId: number): Promise<void> {
  for (const namespace of await approvedNamespaces(db)) {
    if (!overlaps(prefix, namespace.prefix)) continue;
    if (namespace.vendorId === vendorId && namespace.prefix === prefix) {
      throw new ApiError('conflict', `The namespace ${prefix} already belongs to ${namespace.vendor}.`);
    }
    if (namespace.vendorId !== vendorId) {
      throw new ApiError(
        'conflict',
        `The namespace ${prefix} overlaps ${namespace.prefix}, which belongs to ${namespace.vendor}.`,
      );
    }
  }
}

function reservedOverlap(options: TrustOptions, prefix: string): string | undefined {
  return options.reservedPrefixes.find((reserved) => overlaps(prefix, reserved));
}

/**
 * A vendor's claim of a prefix, waiting for an administrator: made by one of the vendor's people (or an
 * administrator). Reserved prefixes cannot be claimed, only granted; nor can a prefix that overlaps another
 * vendor's. Claiming again what is already waiting answers the waiting claim.
 */
export async function claimNamespace(
  db: Database,
  options: TrustOptions,
  input: { prefix: string; vendor: string; userId: number; isAdmin: boolean },
): Promise<NamespaceClaimBody> {
  const prefix = checkedPrefix(input.prefix);
  const reserved = reservedOverlap(options, prefix);
  if (reserved !== undefined) {
    throw new ApiError(
      'badRequest',
      `The namespace ${reserved} is reserved by the marketplace: only an administrator can grant ${prefix}.`,
    );
  }
  const id = await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('trust_namespaces'))`);
    const vendor = await vendorNamed(tx, input.vendor);
    if (!input.isAdmin && !(await vendorIdsOf(tx, input.userId)).includes(vendor.id)) {
      throw new ApiError(
        'forbidden',
        `Only the people of ${vendor.name} (owners and developers of its plugins) can claim namespaces for it.`,
      );
    }
    await refuseOverlap(tx, prefix, vendor.id);
    const [waiting] = await selectRows<{ id: number }>(
      tx,
      sql`SELECT id FROM trust_namespaces
        WHERE prefix = ${prefix} AND vendor_id = ${vendor.id} AND state = 'pending'`,
    );
    if (waiting) return waiting.id;
    const [created] = await selectRows<{ id: number }>(
      tx,
      sql`INSERT INTO trust_namespaces (prefix, vendor_id, state, dns_token, requested_by)
        VALUES (${prefix}, ${vendor.id}, 'pending', ${randomBytes(16).toString('hex')}, ${input.userId})
        RETURNING id`,
    );
    if (!created) throw new Error('The namespace claim was not written.');
    await recordAdminAudit(tx, {
      actorId: input.userId,
      action: 'namespace.claim',
      subject: `namespace:${prefix}`,
      details: { claimId: created.id, vendor: vendor.name },
    });
    return created.id;
  });
  return (await loadClaim(db, id))!;
}

/** An administrator gives a prefix (reserved ones too) to a vendor at once, without a claim. */
export async function grantNamespace(
  db: Database,
  input: { prefix: string; vendor: string; adminId: number; reason?: string },
): Promise<NamespaceClaimBody> {
  const prefix = checkedPrefix(input.prefix);
  const id = await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('trust_namespaces'))`);
    const vendor = await vendorNamed(tx, input.vendor);
    await refuseOverlap(tx, prefix, vendor.id);
    const [created] = await selectRows<{ id: number }>(
      tx,
      sql`INSERT INTO trust_namespaces (prefix, vendor_id, state, dns_token, requested_by, decided_by, decided_at,
          decision_reason)
        VALUES (${prefix}, ${vendor.id}, 'approved', ${randomBytes(16).toString('hex')}, NULL, ${input.adminId},
          now(), ${input.reason ?? null})
        RETURNING id`,
    );
    if (!created) throw new Error('The namespace grant was not written.');
    await recordAdminAudit(tx, {
      actorId: input.adminId,
      action: 'namespace.grant',
      subject: `namespace:${prefix}`,
      ...(input.reason !== undefined ? { reason: input.reason } : {}),
      details: { claimId: created.id, vendor: vendor.name },
    });
    return created.id;
  });
  return (await loadClaim(db, id))!;
}

export type NamespaceDecision = 'approve' | 'refuse' | 'revoke';

const DECISIONS: Record<NamespaceDecision, { from: NamespaceState; to: NamespaceState; verb: string }> = {
  approve: { from: 'pending', to: 'approved', verb: 'approved' },
  refuse: { from: 'pending', to: 'refused', verb: 'refused' },
  revoke: { from: 'approved', to: 'revoked', verb: 'revoked' },
};

/**
 * An administrator's decision on a claim: approve or refuse one that waits, revoke an approved one. Approving
 * checks again that no other vendor owns an overlapping prefix by then. Recorded in the audit log.
 */
export async function decideClaim(
  db: Database,
  input: { id: number; decision: NamespaceDecision; adminId: number; reason?: string },
): Promise<NamespaceClaimBody> {
  const rule = DECISIONS[input.decision];
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('trust_namespaces'))`);
    const claim = await loadClaim(tx, input.id);
    if (!claim) throw new ApiError('notFound', `Namespace claim ${input.id} does not exist.`);
    if (claim.state !== rule.from) {
      throw new ApiError(
        'conflict',
        `The claim of ${claim.prefix} is ${claim.state}: only a ${rule.from} claim can be ${rule.verb}.`,
      );
    }
    if (input.decision === 'approve') await refuseOverlap(tx, claim.prefix, claim.vendor.id);
    await tx.execute(
      sql`UPDATE trust_namespaces SET state = ${rule.to}, decided_by = ${input.adminId}, decided_at = now(),
          decision_reason = ${input.reason ?? null}
        WHERE id = ${input.id}`,
    );
    await recordAdminAudit(tx, {
      actorId: input.adminId,
      action: `namespace.${input.decision}`,
      subject: `namespace:${claim.prefix}`,
      ...(input.reason !== undefined ? { reason: input.reason } : {}),
      details: { claimId: claim.id, vendor: claim.vendor.name },
    });
  });
  return (await loadClaim(db, input.id))!;
}

export async function claimById(db: Queryable, id: number): Promise<NamespaceClaimBody> {
  const claim = await loadClaim(db, id);
  if (!claim) throw new ApiError('notFound', `Namespace claim ${id} does not exist.`);
  return claim;
}

/**
 * Why a new plugin's id may not be used by this uploader, or undefined when it may: an id under another
 * vendor's approved namespace (the longest prefix that matches decides), or under a reserved prefix that no
 * vendor was granted. Ids are compared through their confusable skeletons, so a look-alike letter does not
 * slip past.
 */
export async function namespaceRefusal(
  db: Queryable,
  options: TrustOptions,
  input: { xmlId: string; uploaderId: number },
): Promise<string | undefined> {
  const owners = (await approvedNamespaces(db))
    .filter((namespace) => isUnderPrefix(input.xmlId, namespace.prefix))
    .sort((a, b) => b.prefix.length - a.prefix.length);
  const owner = owners[0];
  if (owner) {
    if ((await trustedVendorIdsOf(db, input.uploaderId)).includes(owner.vendorId)) return undefined;
    return `The id ${input.xmlId} is in the namespace ${owner.prefix}, which belongs to ${owner.vendor}: only its people (owners and developers of its approved plugins) can publish new plugins there. Choose an id in a namespace of your own.`;
  }
  const reserved = options.reservedPrefixes.find((prefix) => isUnderPrefix(input.xmlId, prefix));
  if (reserved !== undefined) {
    return `The id ${input.xmlId} is in the reserved namespace ${reserved}: only the vendor an administrator made its owner can publish there. Choose an id in a namespace of your own.`;
  }
  return undefined;
}
