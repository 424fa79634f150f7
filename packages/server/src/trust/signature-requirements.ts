import type {
  SignatureRequirementBody,
  SignatureRequirementLiftedBody,
  VersionSignatureBody,
} from '@marketplace/api-contract';
import { sql } from 'drizzle-orm';
import { recordAdminAudit } from '../admin/audit';
import type { Database, Queryable } from '../db/client';
import { versionSignatures, type StoredCertificate } from '../db/schema';
import { ApiError } from '../plugins/app/errors';
import { epochMs, selectRows } from '../search/sql';

/** The vendor an upload is published under, and whether it must sign. */
export interface UploadVendor {
  /** Null for a vendor the upload is about to create (it cannot require anything yet). */
  id: number | null;
  name: string;
  signaturesRequired: boolean;
}

/** The vendor of an existing plugin (a new version of it), or null when the plugin has none. */
export async function vendorOfPlugin(db: Queryable, pluginId: number): Promise<UploadVendor | null> {
  const [row] = await selectRows<{ id: number; name: string; required: boolean }>(
    db,
    sql`SELECT v.id, v.name,
        EXISTS (SELECT 1 FROM vendor_signature_requirements r WHERE r.vendor_id = v.id) AS required
      FROM plugins p JOIN vendors v ON v.id = p.vendor_id WHERE p.id = ${pluginId}`,
  );
  return row ? { id: row.id, name: row.name, signaturesRequired: row.required } : null;
}

/** The vendor a new plugin names (an existing one by name, or one the upload will create). */
export async function vendorNamedForUpload(db: Queryable, name: string): Promise<UploadVendor> {
  const [row] = await selectRows<{ id: number; name: string; required: boolean }>(
    db,
    sql`SELECT v.id, v.name,
        EXISTS (SELECT 1 FROM vendor_signature_requirements r WHERE r.vendor_id = v.id) AS required
      FROM vendors v WHERE v.name = ${name}`,
  );
  return row
    ? { id: row.id, name: row.name, signaturesRequired: row.required }
    : { id: null, name, signaturesRequired: false };
}

/** What the upload found and did, as `version_signatures` keeps it. */
export interface SignatureRecord {
  signedBy: string | null;
  chain: StoredCertificate[];
  algorithm: string | null;
  selfSigned: boolean;
  expired: boolean;
  notYetValid: boolean;
  chainComplete: boolean;
  trusted: boolean;
  countersignedBy: string | null;
  countersignProblem: string | null;
}

/** Written in the version's own transaction. */
export async function recordVersionSignature(
  tx: Queryable,
  versionId: number,
  record: SignatureRecord,
): Promise<void> {
  await tx.insert(versionSignatures).values({ versionId, ...record });
}

interface SignatureRow {
  version_id: number;
  signed_by: string | null;
  chain: StoredCertificate[];
  algorithm: string | null;
  self_signed: boolean;
  expired: boolean;
  not_yet_valid: boolean;
  chain_complete: boolean;
  trusted: boolean;
  countersigned_by: string | null;
  countersign_problem: string | null;
  checked_at: number;
}

function toBody(row: SignatureRow): VersionSignatureBody {
  return {
    author:
      row.signed_by === null
        ? null
        : {
            signedBy: row.signed_by,
            chain: row.chain.map((certificate) => ({
              subject: certificate.subject,
              issuer: certificate.issuer,
              serialNumber: certificate.serialNumber,
              fingerprint256: certificate.fingerprint256,
              validFrom: Date.parse(certificate.validFrom),
              validTo: Date.parse(certificate.validTo),
            })),
            algorithm: row.algorithm,
            selfSigned: row.self_signed,
            expired: row.expired,
            notYetValid: row.not_yet_valid,
            chainComplete: row.chain_complete,
            trusted: row.trusted,
            checkedAt: Number(row.checked_at),
          },
    countersigned: row.countersigned_by !== null,
    countersignedBy: row.countersigned_by,
    countersignProblem: row.countersign_problem,
  };
}

/** The signatures of these versions, by version id (versions without a record are absent). */
export async function loadVersionSignatures(
  db: Queryable,
  versionIds: readonly number[],
): Promise<Map<number, VersionSignatureBody>> {
  if (versionIds.length === 0) return new Map();
  const rows = await selectRows<SignatureRow>(
    db,
    sql`SELECT version_id, signed_by, chain, algorithm, self_signed, expired, not_yet_valid, chain_complete,
        trusted, countersigned_by, countersign_problem, ${epochMs(sql`checked_at`)} AS checked_at
      FROM version_signatures
      WHERE version_id IN (${sql.join(
        versionIds.map((id) => sql`${id}`),
        sql`, `,
      )})`,
  );
  return new Map(rows.map((row) => [row.version_id, toBody(row)]));
}

interface RequirementRow {
  vendor_id: number;
  vendor: string;
  required_by: string | null;
  required_at: number;
  reason: string | null;
}

function toRequirement(row: RequirementRow): SignatureRequirementBody {
  return {
    vendor: { id: row.vendor_id, name: row.vendor },
    requiredBy: row.required_by,
    requiredAt: Number(row.required_at),
    reason: row.reason,
  };
}

const REQUIREMENT_SELECT = sql`SELECT r.vendor_id, v.name AS vendor, u.login AS required_by,
    ${epochMs(sql`r.required_at`)} AS required_at, r.reason
  FROM vendor_signature_requirements r JOIN vendors v ON v.id = r.vendor_id
  LEFT JOIN users u ON u.id = r.required_by`;

/** Every vendor that must sign, by name. */
export async function listSignatureRequirements(db: Queryable): Promise<SignatureRequirementBody[]> {
  const rows = await selectRows<RequirementRow>(db, sql`${REQUIREMENT_SELECT} ORDER BY lower(v.name), v.id`);
  return rows.map(toRequirement);
}

/** An administrator requires signatures of a vendor from now on (uploads already accepted stay). */
export async function requireSignatures(
  db: Database,
  input: { vendor: string; adminId: number; reason?: string },
): Promise<SignatureRequirementBody> {
  const name = input.vendor.trim();
  return db.transaction(async (tx) => {
    const [vendor] = await selectRows<{ id: number; name: string }>(
      tx,
      sql`SELECT id, name FROM vendors WHERE name = ${name}`,
    );
    if (!vendor) {
      throw new ApiError(
        'badRequest',
        `There is no vendor named "${name}": a vendor exists once a plugin was uploaded under its name.`,
      );
    }
    const [inserted] = await selectRows<{ vendor_id: number }>(
      tx,
      sql`INSERT INTO vendor_signature_requirements (vendor_id, required_by, reason)
        VALUES (${vendor.id}, ${input.adminId}, ${input.reason ?? null})
        ON CONFLICT (vendor_id) DO NOTHING RETURNING vendor_id`,
    );
    if (!inserted) throw new ApiError('conflict', `${vendor.name} must sign its plugins already.`);
    await recordAdminAudit(tx, {
      actorId: input.adminId,
      action: 'signatures.require',
      subject: `vendor:${vendor.id}`,
      ...(input.reason !== undefined ? { reason: input.reason } : {}),
      details: { vendor: vendor.name },
    });
    const [row] = await selectRows<RequirementRow>(
      tx,
      sql`${REQUIREMENT_SELECT} WHERE r.vendor_id = ${vendor.id}`,
    );
    return toRequirement(row!);
  });
}

/** An administrator lifts the requirement: the vendor's unsigned uploads are accepted again. */
export async function liftSignatureRequirement(
  db: Database,
  input: { vendorId: number; adminId: number; reason?: string },
): Promise<SignatureRequirementLiftedBody> {
  return db.transaction(async (tx) => {
    const [lifted] = await selectRows<{ id: number; name: string }>(
      tx,
      sql`DELETE FROM vendor_signature_requirements r USING vendors v
        WHERE r.vendor_id = ${input.vendorId} AND v.id = r.vendor_id RETURNING v.id, v.name`,
    );
    if (!lifted) {
      throw new ApiError('notFound', `Vendor ${input.vendorId} is not required to sign its plugins.`);
    }
    await recordAdminAudit(tx, {
      actorId: input.adminId,
      action: 'signatures.lift',
      subject: `vendor:${lifted.id}`,
      ...(input.reason !== undefined ? { reason: input.reason } : {}),
      details: { vendor: lifted.name },
    });
    return { vendor: { id: lifted.id, name: lifted.name } };
  });
}
