import type {
  MonetizationBody,
  MonetizationStepBody,
  ProgramApplicationAnswer,
  ProgramApplicationBody,
  ReleaseInfoBody,
} from '@marketplace/api-contract';
import {
  MONETIZATION_STEP_LABELS,
  type CommunityProgram,
  type Currency,
  type MonetizationStep,
  type ProgramApplicationStatus,
} from '@marketplace/core';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { ApiError } from '../plugins/app/errors';
import { selectRows } from '../search/sql';
import { loadPricing, loadPrograms, loadTerms, type SellableItem } from './pricing';
import { sellerOfPlugin } from './sellers';

/** The product releases a paid item declared, oldest first: one per release version, with its first version. */
export async function releaseInfos(db: Queryable, pluginId: number): Promise<ReleaseInfoBody[]> {
  const rows = await selectRows<{
    product_code: string;
    product_release_version: number;
    product_release_date: string;
    version: string;
    product_optional: boolean | null;
  }>(
    db,
    sql`SELECT DISTINCT ON (product_code, product_release_version) product_code, product_release_version,
        product_release_date::text AS product_release_date, version, product_optional
      FROM plugin_versions WHERE plugin_id = ${pluginId} AND product_code IS NOT NULL
        AND approval_state <> 'rejected'
      ORDER BY product_code, product_release_version, created_at`,
  );
  return rows
    .map((row) => ({
      productCode: row.product_code,
      releaseVersion: row.product_release_version,
      releaseDate: row.product_release_date,
      version: row.version,
      optional: row.product_optional === true,
    }))
    .sort((a, b) => a.releaseDate.localeCompare(b.releaseDate) || a.releaseVersion - b.releaseVersion);
}

/** Where selling stands for an item, as the monetization tab lists it: each step done or what to do next. */
export async function monetizationOf(
  db: Queryable,
  item: SellableItem,
  currency: Currency,
): Promise<MonetizationBody> {
  const [seller, pricing, releases, terms] = await Promise.all([
    sellerOfPlugin(db, item.id),
    loadPricing(db, item, currency),
    releaseInfos(db, item.id),
    loadTerms(db, item.id),
  ]);
  const latestRelease = releases.at(-1);
  const sellerHint =
    seller.status === 'PENDING'
      ? 'Your application to sell is waiting for an administrator.'
      : seller.status === 'REJECTED'
        ? 'Your application to sell was rejected: correct the details and apply again.'
        : 'Apply to sell with your legal and payout details (Selling in the dashboard).';
  const done: Record<MonetizationStep, boolean> = {
    SELLER_APPROVED: seller.status === 'APPROVED',
    PRICES_SET: pricing.prices.length > 0,
    PRODUCT_DESCRIPTOR: latestRelease !== undefined,
    LICENSE_CHECK: terms.licenseCheckDocumented,
    ITEM_APPROVED: item.approved,
  };
  const hints: Record<MonetizationStep, string> = {
    SELLER_APPROVED: sellerHint,
    PRICES_SET: 'Set a price for each licence kind and billing period you sell.',
    PRODUCT_DESCRIPTOR:
      'Upload a version whose plugin.xml declares <product-descriptor code="P..." release-date="YYYYMMDD" release-version="..."/>.',
    LICENSE_CHECK:
      'Make the item check its licence with the marketplace’s public key (see the licensing guide), then confirm it in the selling details.',
    ITEM_APPROVED: 'Publish the item; an administrator approves it.',
  };
  const steps: MonetizationStepBody[] = (Object.keys(done) as MonetizationStep[]).map((step) => ({
    step,
    title: MONETIZATION_STEP_LABELS[step],
    done: done[step],
    hint: done[step] ? null : hints[step],
  }));
  return {
    pluginId: item.id,
    pricingModel: item.pricingModel,
    vendorId: seller.vendorId,
    sellerStatus: seller.status,
    productCode: latestRelease?.productCode ?? null,
    forSale: pricing.forSale,
    steps,
  };
}

// ---- Program applications ----------------------------------------------------------------------------------

interface ApplicationRow {
  id: number;
  plugin_id: number;
  program: CommunityProgram;
  evidence: string;
  status: ProgramApplicationStatus;
  user_id: number;
  user_name: string;
  created_at: Date;
  decided_at: Date | null;
}

function applicationAnswer(row: ApplicationRow): ProgramApplicationAnswer {
  return {
    id: row.id,
    pluginId: row.plugin_id,
    program: row.program,
    evidence: row.evidence,
    status: row.status,
    applicant: { id: row.user_id, name: row.user_name },
    createdAt: new Date(row.created_at).getTime(),
    decidedAt: row.decided_at ? new Date(row.decided_at).getTime() : null,
  };
}

const APPLICATION_SELECT = sql`SELECT a.id, a.plugin_id, a.program, a.evidence, a.status, a.user_id,
    u.name AS user_name, a.created_at, a.decided_at
  FROM program_applications a JOIN users u ON u.id = a.user_id`;

/** The applications to an item's programs: a buyer's own (userId), or all of them for its vendor. */
export async function listProgramApplications(
  db: Queryable,
  pluginId: number,
  userId: number | null,
): Promise<ProgramApplicationAnswer[]> {
  const rows = await selectRows<ApplicationRow>(
    db,
    sql`${APPLICATION_SELECT} WHERE a.plugin_id = ${pluginId} ${userId === null ? sql`` : sql`AND a.user_id = ${userId}`}
      ORDER BY (a.status = 'PENDING') DESC, a.created_at DESC LIMIT 1000`,
  );
  return rows.map(applicationAnswer);
}

export async function applyToProgram(
  db: Queryable,
  pluginId: number,
  userId: number,
  body: ProgramApplicationBody,
): Promise<ProgramApplicationAnswer> {
  const offered = await loadPrograms(db, pluginId);
  if (!offered.some((offer) => offer.program === body.program)) {
    throw new ApiError('validation', `This item does not take part in the ${body.program} program.`);
  }
  const rows = await selectRows<{ id: number }>(
    db,
    sql`INSERT INTO program_applications (plugin_id, user_id, program, evidence)
      VALUES (${pluginId}, ${userId}, ${body.program}, ${body.evidence.trim()})
      ON CONFLICT (plugin_id, user_id, program) DO UPDATE SET evidence = EXCLUDED.evidence, status = 'PENDING',
        created_at = now(), decided_at = NULL, decided_by = NULL
        WHERE program_applications.status = 'REJECTED'
      RETURNING id`,
  );
  if (rows.length === 0) {
    throw new ApiError('conflict', `You have already applied to the ${body.program} program of this item.`);
  }
  const [row] = await selectRows<ApplicationRow>(db, sql`${APPLICATION_SELECT} WHERE a.id = ${rows[0]!.id}`);
  return applicationAnswer(row!);
}

export async function decideProgramApplication(
  db: Queryable,
  pluginId: number,
  applicationId: number,
  deciderId: number,
  approve: boolean,
): Promise<ProgramApplicationAnswer> {
  const rows = await selectRows<{ id: number }>(
    db,
    sql`UPDATE program_applications SET status = ${approve ? 'APPROVED' : 'REJECTED'}, decided_at = now(),
        decided_by = ${deciderId}
      WHERE id = ${applicationId} AND plugin_id = ${pluginId} RETURNING id`,
  );
  if (rows.length === 0)
    throw new ApiError('notFound', `This item has no program application ${applicationId}.`);
  const [row] = await selectRows<ApplicationRow>(
    db,
    sql`${APPLICATION_SELECT} WHERE a.id = ${applicationId}`,
  );
  return applicationAnswer(row!);
}
