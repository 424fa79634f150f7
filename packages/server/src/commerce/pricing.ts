import type {
  PriceBody,
  PricingBody,
  ScheduledPriceChangeBodyAnswer,
  SellingDetailsBody,
  SubscriptionsBody,
} from '@marketplace/api-contract';
import {
  BILLING_PERIODS,
  COMMUNITY_PROGRAMS,
  DEFAULT_CONTINUITY_DISCOUNTS,
  formatMoney,
  isValidWebsite,
  LICENSE_KINDS,
  MAX_TRIAL_DAYS,
  MIN_TRIAL_DAYS,
  type BillingPeriod,
  type CommunityProgram,
  type ContinuityStep,
  type Currency,
  type LicenseKind,
  type PricingModel,
  type VolumeTier,
} from '@marketplace/core';
import { sql } from 'drizzle-orm';
import type { Database, Queryable } from '../db/client';
import { ApiError } from '../plugins/app/errors';
import { selectRows } from '../search/sql';
import { sellerOfPlugin } from './sellers';

/*
 * An item's prices are price lists that take effect at a time. The current list is the newest one whose
 * time has come; lists still to come are scheduled changes, announced on the pricing tab. Changing prices
 * "now" adds a list effective now, so every past quote and order keeps the prices it was made with.
 */

export interface SellingTerms {
  trialDays: number;
  licenseKinds: LicenseKind[];
  billingPeriods: BillingPeriod[];
  eulaUrl: string | null;
  supportEmail: string | null;
  licenseCheckDocumented: boolean;
}

interface TermsRow {
  trial_days: number;
  monthly_enabled: boolean;
  yearly_enabled: boolean;
  personal_enabled: boolean;
  organization_enabled: boolean;
  eula_url: string | null;
  support_email: string | null;
  license_check_documented: boolean;
}

const DEFAULT_TERMS: TermsRow = {
  trial_days: 30,
  monthly_enabled: true,
  yearly_enabled: true,
  personal_enabled: true,
  organization_enabled: true,
  eula_url: null,
  support_email: null,
  license_check_documented: false,
};

export async function loadTerms(db: Queryable, pluginId: number): Promise<SellingTerms> {
  const [row = DEFAULT_TERMS] = await selectRows<TermsRow>(
    db,
    sql`SELECT trial_days, monthly_enabled, yearly_enabled, personal_enabled, organization_enabled, eula_url,
        support_email, license_check_documented FROM plugin_selling_terms WHERE plugin_id = ${pluginId}`,
  );
  return {
    trialDays: row.trial_days,
    licenseKinds: LICENSE_KINDS.filter((kind) =>
      kind === 'PERSONAL' ? row.personal_enabled : row.organization_enabled,
    ),
    billingPeriods: BILLING_PERIODS.filter((period) =>
      period === 'MONTHLY' ? row.monthly_enabled : row.yearly_enabled,
    ),
    eulaUrl: row.eula_url,
    supportEmail: row.support_email,
    licenseCheckDocumented: row.license_check_documented,
  };
}

function checkTrialDays(days: number): void {
  if (days !== 0 && (days < MIN_TRIAL_DAYS || days > MAX_TRIAL_DAYS)) {
    throw new ApiError(
      'validation',
      `A trial lasts from ${MIN_TRIAL_DAYS} to ${MAX_TRIAL_DAYS} days (0 for no trial), not ${days}.`,
    );
  }
}

export function subscriptionsOf(terms: SellingTerms): SubscriptionsBody {
  return {
    trialDays: terms.trialDays,
    monthly: terms.billingPeriods.includes('MONTHLY'),
    yearly: terms.billingPeriods.includes('YEARLY'),
    personal: terms.licenseKinds.includes('PERSONAL'),
    organization: terms.licenseKinds.includes('ORGANIZATION'),
  };
}

export async function saveSubscriptions(
  db: Queryable,
  pluginId: number,
  body: SubscriptionsBody,
): Promise<void> {
  checkTrialDays(body.trialDays);
  if (!body.monthly && !body.yearly) {
    throw new ApiError('validation', 'Sell at least one billing period: monthly, yearly or both.');
  }
  if (!body.personal && !body.organization) {
    throw new ApiError('validation', 'Sell at least one kind of licence: personal, organization or both.');
  }
  await db.execute(
    sql`INSERT INTO plugin_selling_terms (plugin_id, trial_days, monthly_enabled, yearly_enabled,
        personal_enabled, organization_enabled, updated_at)
      VALUES (${pluginId}, ${body.trialDays}, ${body.monthly}, ${body.yearly}, ${body.personal},
        ${body.organization}, now())
      ON CONFLICT (plugin_id) DO UPDATE SET trial_days = EXCLUDED.trial_days,
        monthly_enabled = EXCLUDED.monthly_enabled, yearly_enabled = EXCLUDED.yearly_enabled,
        personal_enabled = EXCLUDED.personal_enabled, organization_enabled = EXCLUDED.organization_enabled,
        updated_at = now()`,
  );
}

export async function saveTrialDays(db: Queryable, pluginId: number, trialDays: number): Promise<void> {
  checkTrialDays(trialDays);
  await db.execute(
    sql`INSERT INTO plugin_selling_terms (plugin_id, trial_days, updated_at) VALUES (${pluginId}, ${trialDays}, now())
      ON CONFLICT (plugin_id) DO UPDATE SET trial_days = EXCLUDED.trial_days, updated_at = now()`,
  );
}

export function sellingDetailsOf(terms: SellingTerms): SellingDetailsBody {
  return {
    eulaUrl: terms.eulaUrl,
    supportEmail: terms.supportEmail,
    licenseCheckDocumented: terms.licenseCheckDocumented,
  };
}

export async function saveSellingDetails(
  db: Queryable,
  pluginId: number,
  body: SellingDetailsBody,
): Promise<void> {
  const eulaUrl = body.eulaUrl?.trim() || null;
  const supportEmail = body.supportEmail?.trim() || null;
  if (eulaUrl !== null && (!/^https?:\/\//i.test(eulaUrl) || !isValidWebsite(eulaUrl))) {
    throw new ApiError('validation', `The licence agreement address "${eulaUrl}" is not an http(s) address.`);
  }
  if (supportEmail !== null && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(supportEmail)) {
    throw new ApiError('validation', `The support address "${supportEmail}" is not an e-mail address.`);
  }
  await db.execute(
    sql`INSERT INTO plugin_selling_terms (plugin_id, eula_url, support_email, license_check_documented, updated_at)
      VALUES (${pluginId}, ${eulaUrl}, ${supportEmail}, ${body.licenseCheckDocumented}, now())
      ON CONFLICT (plugin_id) DO UPDATE SET eula_url = EXCLUDED.eula_url, support_email = EXCLUDED.support_email,
        license_check_documented = EXCLUDED.license_check_documented, updated_at = now()`,
  );
}

// ---- Price lists -----------------------------------------------------------------------------------------

interface PriceRow {
  list_id: number;
  effective_at: Date;
  license_kind: LicenseKind;
  billing_period: BillingPeriod;
  amount_minor: string | number;
}

/** The current price list and the scheduled ones, each with its prices, at `now`. */
export async function loadPriceLists(
  db: Queryable,
  pluginId: number,
  now: Date = new Date(),
): Promise<{ current: PriceBody[]; scheduled: ScheduledPriceChangeBodyAnswer[] }> {
  const rows = await selectRows<PriceRow>(
    db,
    sql`WITH current_list AS (
        SELECT id FROM plugin_price_lists WHERE plugin_id = ${pluginId} AND effective_at <= ${now}
        ORDER BY effective_at DESC LIMIT 1)
      SELECT l.id AS list_id, l.effective_at, p.license_kind, p.billing_period, p.amount_minor
      FROM plugin_price_lists l JOIN plugin_prices p ON p.price_list_id = l.id
      WHERE l.plugin_id = ${pluginId} AND (l.id IN (SELECT id FROM current_list) OR l.effective_at > ${now})
      ORDER BY l.effective_at, p.license_kind DESC, p.billing_period`,
  );
  const current: PriceBody[] = [];
  const scheduled = new Map<number, ScheduledPriceChangeBodyAnswer>();
  for (const row of rows) {
    const price = {
      licenseKind: row.license_kind,
      billingPeriod: row.billing_period,
      amountMinor: Number(row.amount_minor),
    };
    if (new Date(row.effective_at) <= now) {
      current.push(price);
      continue;
    }
    let change = scheduled.get(row.list_id);
    if (!change) {
      change = {
        id: row.list_id,
        effectiveDate: new Date(row.effective_at).toISOString().slice(0, 10),
        prices: [],
      };
      scheduled.set(row.list_id, change);
    }
    change.prices.push(price);
  }
  return { current, scheduled: [...scheduled.values()] };
}

function checkPriceList(prices: readonly PriceBody[]): void {
  const seen = new Set<string>();
  for (const price of prices) {
    const key = `${price.licenseKind} ${price.billingPeriod}`;
    if (seen.has(key)) {
      throw new ApiError(
        'validation',
        `The ${price.licenseKind.toLowerCase()} ${price.billingPeriod.toLowerCase()} price is given twice.`,
      );
    }
    seen.add(key);
  }
}

/**
 * Adds a price list effective at `effectiveAt` (now, or the start of a future day). One list per instant:
 * scheduling a second list for the same day replaces the first.
 */
export async function addPriceList(
  db: Database,
  pluginId: number,
  authorId: number,
  prices: readonly PriceBody[],
  effectiveAt: Date,
): Promise<number> {
  checkPriceList(prices);
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`DELETE FROM plugin_price_lists WHERE plugin_id = ${pluginId} AND effective_at = ${effectiveAt}`,
    );
    const [list] = await selectRows<{ id: number }>(
      tx,
      sql`INSERT INTO plugin_price_lists (plugin_id, effective_at, created_by, applied_at)
        VALUES (${pluginId}, ${effectiveAt}, ${authorId}, CASE WHEN ${effectiveAt}::timestamptz <= now() THEN now() END)
        RETURNING id`,
    );
    if (!list) throw new Error('The price list was not stored.');
    for (const price of prices) {
      await tx.execute(
        sql`INSERT INTO plugin_prices (price_list_id, license_kind, billing_period, amount_minor)
          VALUES (${list.id}, ${price.licenseKind}, ${price.billingPeriod}, ${price.amountMinor})`,
      );
    }
    return list.id;
  });
}

/** Cancels a scheduled change that has not taken effect. */
export async function cancelScheduledChange(db: Queryable, pluginId: number, listId: number): Promise<void> {
  const rows = await selectRows<{ id: number }>(
    db,
    sql`DELETE FROM plugin_price_lists WHERE id = ${listId} AND plugin_id = ${pluginId} AND effective_at > now()
      RETURNING id`,
  );
  if (rows.length === 0) {
    throw new ApiError(
      'notFound',
      `There is no scheduled price change ${listId} of this item still to come.`,
    );
  }
}

/**
 * The scheduled job: marks the price lists whose time has come as applied. Reading prices never depends on
 * it (the newest list in effect is the current one), so it may run late or on two nodes at once; it keeps
 * the record of when each change took effect and tells the caller which items changed.
 */
export async function applyDuePriceChanges(db: Queryable, now: Date = new Date()): Promise<number[]> {
  const rows = await selectRows<{ plugin_id: number }>(
    db,
    sql`UPDATE plugin_price_lists SET applied_at = ${now}
      WHERE applied_at IS NULL AND effective_at <= ${now} RETURNING plugin_id`,
  );
  return [...new Set(rows.map((row) => row.plugin_id))];
}

// ---- Discounts and programs ------------------------------------------------------------------------------

export async function loadVolumeTiers(db: Queryable, pluginId: number): Promise<VolumeTier[]> {
  const rows = await selectRows<{ min_quantity: number; percent: number }>(
    db,
    sql`SELECT min_quantity, percent FROM plugin_volume_discounts WHERE plugin_id = ${pluginId} ORDER BY min_quantity`,
  );
  return rows.map((row) => ({ minQuantity: row.min_quantity, percent: row.percent }));
}

export async function saveVolumeTiers(
  db: Database,
  pluginId: number,
  tiers: readonly VolumeTier[],
): Promise<void> {
  const sorted = [...tiers].sort((a, b) => a.minQuantity - b.minQuantity);
  for (let index = 1; index < sorted.length; index += 1) {
    const previous = sorted[index - 1]!;
    const tier = sorted[index]!;
    if (tier.minQuantity === previous.minQuantity) {
      throw new ApiError('validation', `Two volume tiers start at ${tier.minQuantity} licences.`);
    }
    if (tier.percent <= previous.percent) {
      throw new ApiError(
        'validation',
        `A volume tier for more licences must give more off: ${tier.minQuantity}+ gives ${tier.percent}%, ${previous.minQuantity}+ already gives ${previous.percent}%.`,
      );
    }
  }
  await db.transaction(async (tx) => {
    await tx.execute(sql`DELETE FROM plugin_volume_discounts WHERE plugin_id = ${pluginId}`);
    for (const tier of sorted) {
      await tx.execute(
        sql`INSERT INTO plugin_volume_discounts (plugin_id, min_quantity, percent)
          VALUES (${pluginId}, ${tier.minQuantity}, ${tier.percent})`,
      );
    }
  });
}

/** The item's continuity discount; an item whose vendor never set one has the marketplace's default. */
export async function loadContinuitySteps(db: Queryable, pluginId: number): Promise<ContinuityStep[]> {
  const [terms] = await selectRows<{ continuity_customized: boolean }>(
    db,
    sql`SELECT continuity_customized FROM plugin_selling_terms WHERE plugin_id = ${pluginId}`,
  );
  if (!terms?.continuity_customized) return DEFAULT_CONTINUITY_DISCOUNTS.map((step) => ({ ...step }));
  const rows = await selectRows<{ year: number; percent: number }>(
    db,
    sql`SELECT year, percent FROM plugin_continuity_discounts WHERE plugin_id = ${pluginId} ORDER BY year`,
  );
  return rows.map((row) => ({ year: row.year, percent: row.percent }));
}

export async function saveContinuitySteps(
  db: Database,
  pluginId: number,
  steps: readonly ContinuityStep[],
): Promise<void> {
  const sorted = [...steps].sort((a, b) => a.year - b.year);
  for (let index = 1; index < sorted.length; index += 1) {
    if (sorted[index]!.year === sorted[index - 1]!.year) {
      throw new ApiError('validation', `Subscription year ${sorted[index]!.year} is given twice.`);
    }
  }
  await db.transaction(async (tx) => {
    await tx.execute(sql`DELETE FROM plugin_continuity_discounts WHERE plugin_id = ${pluginId}`);
    for (const step of sorted) {
      await tx.execute(
        sql`INSERT INTO plugin_continuity_discounts (plugin_id, year, percent)
          VALUES (${pluginId}, ${step.year}, ${step.percent})`,
      );
    }
    // The vendor chose (even "none"), so the default no longer applies.
    await tx.execute(
      sql`INSERT INTO plugin_selling_terms (plugin_id, continuity_customized, updated_at) VALUES (${pluginId}, true, now())
        ON CONFLICT (plugin_id) DO UPDATE SET continuity_customized = true, updated_at = now()`,
    );
  });
}

export interface ProgramOffer {
  program: CommunityProgram;
  percent: number;
}

export async function loadPrograms(db: Queryable, pluginId: number): Promise<ProgramOffer[]> {
  const rows = await selectRows<{ program: CommunityProgram; percent: number }>(
    db,
    sql`SELECT program, percent FROM plugin_programs WHERE plugin_id = ${pluginId}`,
  );
  return rows.sort((a, b) => COMMUNITY_PROGRAMS.indexOf(a.program) - COMMUNITY_PROGRAMS.indexOf(b.program));
}

export async function savePrograms(
  db: Database,
  pluginId: number,
  programs: readonly ProgramOffer[],
): Promise<void> {
  const seen = new Set<string>();
  for (const offer of programs) {
    if (seen.has(offer.program))
      throw new ApiError('validation', `The program ${offer.program} is given twice.`);
    seen.add(offer.program);
  }
  await db.transaction(async (tx) => {
    await tx.execute(sql`DELETE FROM plugin_programs WHERE plugin_id = ${pluginId}`);
    for (const offer of programs) {
      await tx.execute(
        sql`INSERT INTO plugin_programs (plugin_id, program, percent) VALUES (${pluginId}, ${offer.program}, ${offer.percent})`,
      );
    }
  });
}

// ---- The pricing tab -------------------------------------------------------------------------------------

export interface SellableItem {
  id: number;
  name: string;
  xmlId: string;
  pricingModel: PricingModel;
  listed: boolean;
  approved: boolean;
}

export async function loadSellableItem(db: Queryable, pluginId: number): Promise<SellableItem | undefined> {
  const [row] = await selectRows<{
    id: number;
    name: string;
    xml_id: string;
    pricing_model: PricingModel;
    listed: boolean;
    approved: boolean;
  }>(
    db,
    sql`SELECT id, name, xml_id, pricing_model, listed, approved FROM plugins WHERE id = ${pluginId} AND lifecycle_state <> 'deleted'`,
  );
  return row
    ? {
        id: row.id,
        name: row.name,
        xmlId: row.xml_id,
        pricingModel: row.pricing_model,
        listed: row.listed,
        approved: row.approved,
      }
    : undefined;
}

export async function loadPricing(
  db: Queryable,
  item: SellableItem,
  currency: Currency,
): Promise<PricingBody> {
  const [lists, terms, volumeDiscounts, continuityDiscounts, programs, seller] = await Promise.all([
    loadPriceLists(db, item.id),
    loadTerms(db, item.id),
    loadVolumeTiers(db, item.id),
    loadContinuitySteps(db, item.id),
    loadPrograms(db, item.id),
    sellerOfPlugin(db, item.id),
  ]);
  const prices = lists.current.filter(
    (price) =>
      terms.licenseKinds.includes(price.licenseKind) && terms.billingPeriods.includes(price.billingPeriod),
  );
  return {
    pluginId: item.id,
    pricingModel: item.pricingModel,
    currency: currency.code,
    forSale: item.pricingModel !== 'FREE' && seller.status === 'APPROVED' && prices.length > 0,
    prices,
    scheduledChanges: lists.scheduled,
    trialDays: terms.trialDays,
    volumeDiscounts,
    continuityDiscounts,
    programs,
    licenseKinds: terms.licenseKinds,
    billingPeriods: terms.billingPeriods,
  };
}

/** The unit price of a licence kind and period now, or a 400 naming what is sold. */
export function unitPriceOf(
  pricing: PricingBody,
  licenseKind: LicenseKind,
  billingPeriod: BillingPeriod,
  currency: Currency,
): number {
  if (!pricing.forSale) {
    throw new ApiError(
      'validation',
      'This item is not for sale here: it is free, or its vendor has not set it up to sell yet.',
    );
  }
  const price = pricing.prices.find(
    (candidate) => candidate.licenseKind === licenseKind && candidate.billingPeriod === billingPeriod,
  );
  if (!price) {
    const sold = pricing.prices
      .map(
        (candidate) =>
          `${candidate.licenseKind.toLowerCase()} ${candidate.billingPeriod.toLowerCase()} (${formatMoney(candidate.amountMinor, currency)})`,
      )
      .join(', ');
    throw new ApiError(
      'validation',
      `A ${licenseKind.toLowerCase()} ${billingPeriod.toLowerCase()} licence is not sold for this item. It sells: ${sold}.`,
    );
  }
  return price.amountMinor;
}
