import type { SellerApplicationBody, SellerBody } from '@marketplace/api-contract';
import type { SellerStatus } from '@marketplace/core';
import { sql } from 'drizzle-orm';
import type { Database, Queryable } from '../db/client';
import { ApiError } from '../plugins/app/errors';
import { selectRows } from '../search/sql';

/*
 * A vendor sells once an administrator approved its application. A vendor's people are the owners and
 * developers of its plugins: they apply, see the application and its details, and manage the vendor's
 * selling; everyone else sees only whether the vendor sells.
 */

/** The users who act for a vendor: owners and developers of its plugins. Undefined: no such vendor. */
export async function vendorMembers(db: Queryable, vendorId: number): Promise<number[] | undefined> {
  const [vendor] = await selectRows<{ id: number }>(db, sql`SELECT id FROM vendors WHERE id = ${vendorId}`);
  if (!vendor) return undefined;
  const rows = await selectRows<{ user_id: number }>(
    db,
    sql`SELECT p.owner_id AS user_id FROM plugins p
        WHERE p.vendor_id = ${vendorId} AND p.owner_id IS NOT NULL AND p.lifecycle_state <> 'deleted'
      UNION
      SELECT d.user_id FROM plugin_developers d JOIN plugins p ON p.id = d.plugin_id
        WHERE p.vendor_id = ${vendorId} AND p.lifecycle_state <> 'deleted'`,
  );
  return rows.map((row) => row.user_id);
}

interface SellerRow {
  vendor_id: number;
  vendor_name: string;
  status: SellerStatus | null;
  legal_name: string | null;
  country_code: string | null;
  address: string | null;
  tax_id: string | null;
  billing_email: string | null;
  payout_method: 'BANK_TRANSFER' | 'PAYPAL' | null;
  payout_details: string | null;
  submitted_at: Date | null;
  decided_at: Date | null;
  decision_note: string | null;
}

const SELLER_COLUMNS = sql`v.id AS vendor_id, v.name AS vendor_name, s.status, s.legal_name, s.country_code,
  s.address, s.tax_id, s.billing_email, s.payout_method, s.payout_details, s.submitted_at, s.decided_at,
  s.decision_note`;

function sellerAnswer(row: SellerRow, withDetails: boolean): SellerBody {
  return {
    vendorId: row.vendor_id,
    vendorName: row.vendor_name,
    status: row.status,
    canSell: row.status === 'APPROVED',
    details:
      withDetails && row.status !== null
        ? {
            legalName: row.legal_name ?? '',
            countryCode: row.country_code ?? '',
            address: row.address ?? '',
            taxId: row.tax_id,
            billingEmail: row.billing_email ?? '',
            payoutMethod: row.payout_method ?? 'BANK_TRANSFER',
            payoutDetails: row.payout_details ?? '',
            submittedAt: new Date(row.submitted_at ?? 0).getTime(),
            decidedAt: row.decided_at ? new Date(row.decided_at).getTime() : null,
            decisionNote: row.decision_note,
          }
        : null,
  };
}

export async function loadSeller(
  db: Queryable,
  vendorId: number,
  withDetails: boolean,
): Promise<SellerBody | undefined> {
  const [row] = await selectRows<SellerRow>(
    db,
    sql`SELECT ${SELLER_COLUMNS} FROM vendors v LEFT JOIN sellers s ON s.vendor_id = v.id WHERE v.id = ${vendorId}`,
  );
  return row ? sellerAnswer(row, withDetails) : undefined;
}

/** Sellers by status, for the administrators' queue (pending first, oldest first). */
export async function listSellers(db: Queryable, status: SellerStatus | undefined): Promise<SellerBody[]> {
  const rows = await selectRows<SellerRow>(
    db,
    sql`SELECT ${SELLER_COLUMNS} FROM sellers s JOIN vendors v ON v.id = s.vendor_id
      ${status ? sql`WHERE s.status = ${status}` : sql``}
      ORDER BY (s.status = 'PENDING') DESC, s.submitted_at, v.id LIMIT 500`,
  );
  return rows.map((row) => sellerAnswer(row, true));
}

/**
 * A vendor's application to sell, by one of its people. Applying again replaces the details and puts an
 * approved or rejected vendor back in the queue, so an administrator sees every change of payout details.
 */
export async function submitSellerApplication(
  db: Database,
  applicantId: number,
  isAdmin: boolean,
  body: SellerApplicationBody,
): Promise<SellerBody> {
  const members = await vendorMembers(db, body.vendorId);
  if (members === undefined) throw new ApiError('notFound', `There is no vendor ${body.vendorId}.`);
  if (!isAdmin && !members.includes(applicantId)) {
    throw new ApiError(
      'forbidden',
      'Only the people of this vendor (its plugins’ developers) can apply for it.',
    );
  }
  const taxId = body.taxId?.trim() || null;
  await db.execute(
    sql`INSERT INTO sellers (vendor_id, status, legal_name, country_code, address, tax_id, billing_email,
        payout_method, payout_details, submitted_by, submitted_at)
      VALUES (${body.vendorId}, 'PENDING', ${body.legalName.trim()}, ${body.countryCode}, ${body.address.trim()},
        ${taxId}, ${body.billingEmail.trim()}, ${body.payoutMethod}, ${body.payoutDetails.trim()}, ${applicantId}, now())
      ON CONFLICT (vendor_id) DO UPDATE SET status = 'PENDING', legal_name = EXCLUDED.legal_name,
        country_code = EXCLUDED.country_code, address = EXCLUDED.address, tax_id = EXCLUDED.tax_id,
        billing_email = EXCLUDED.billing_email, payout_method = EXCLUDED.payout_method,
        payout_details = EXCLUDED.payout_details, submitted_by = EXCLUDED.submitted_by, submitted_at = now(),
        decided_by = NULL, decided_at = NULL, decision_note = NULL`,
  );
  const seller = await loadSeller(db, body.vendorId, true);
  if (!seller) throw new Error('The seller application was not stored.');
  return seller;
}

/** An administrator's decision on a pending application. */
export async function decideSeller(
  db: Database,
  vendorId: number,
  adminId: number,
  approve: boolean,
  note: string | undefined,
): Promise<SellerBody> {
  const rows = await selectRows<{ vendor_id: number }>(
    db,
    sql`UPDATE sellers SET status = ${approve ? 'APPROVED' : 'REJECTED'}, decided_by = ${adminId},
        decided_at = now(), decision_note = ${note?.trim() || null}
      WHERE vendor_id = ${vendorId} AND status = 'PENDING' RETURNING vendor_id`,
  );
  if (rows.length === 0) {
    const seller = await loadSeller(db, vendorId, false);
    if (!seller || seller.status === null) {
      throw new ApiError('notFound', `Vendor ${vendorId} has not applied to sell.`);
    }
    throw new ApiError(
      'conflict',
      `The application of vendor ${vendorId} was already decided (${seller.status}).`,
    );
  }
  const seller = await loadSeller(db, vendorId, true);
  if (!seller) throw new Error('The seller disappeared.');
  return seller;
}

/** The vendor of a plugin and whether it may sell. */
export async function sellerOfPlugin(
  db: Queryable,
  pluginId: number,
): Promise<{ vendorId: number | null; status: SellerStatus | null }> {
  const [row] = await selectRows<{ vendor_id: number | null; status: SellerStatus | null }>(
    db,
    sql`SELECT p.vendor_id, s.status FROM plugins p LEFT JOIN sellers s ON s.vendor_id = p.vendor_id
      WHERE p.id = ${pluginId}`,
  );
  return { vendorId: row?.vendor_id ?? null, status: row?.status ?? null };
}
