import type {
  SalesAnalyticsBody,
  SalesAnalyticsQuery,
  SalesInfoBody,
  SalesQuery,
} from '@marketplace/api-contract';
import { DAY_MS, minorToDecimalText, parseStatisticsDate, type Currency } from '@marketplace/core';
import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { ApiError } from '../plugins/app/errors';
import { selectRows } from '../search/sql';

/*
 * What the vendor's sales tab reads: each sale with its money (gross, discounts, commission, net), totals,
 * revenue per month and trial-to-paid conversion, and the full report as CSV. Every query is bounded by the
 * item and a date range, which the (plugin_id, sold_at) index serves.
 */

export interface SalesRange {
  from: Date;
  /** Exclusive: the start of the day after the last day. */
  until: Date;
}

/** The range of yyyy-MM-dd days asked for (inclusive); by default the last year up to today. */
export function salesRange(
  startDate: string | undefined,
  endDate: string | undefined,
  now: Date = new Date(),
): SalesRange {
  const today = new Date(`${now.toISOString().slice(0, 10)}T00:00:00Z`);
  const parse = (text: string, what: string) => {
    const day = parseStatisticsDate(text);
    if (!day) throw new ApiError('validation', `The ${what} "${text}" is not a date (yyyy-MM-dd).`);
    return day;
  };
  const last = endDate ? parse(endDate, 'end date') : today;
  const first = startDate ? parse(startDate, 'start date') : new Date(last.getTime() - 364 * DAY_MS);
  if (first > last)
    throw new ApiError('validation', `The start date ${startDate} is after the end date ${endDate}.`);
  return { from: first, until: new Date(last.getTime() + DAY_MS) };
}

function salesFilter(pluginId: number, range: SalesRange, query: SalesAnalyticsQuery): SQL {
  return sql`s.plugin_id = ${pluginId} AND s.sold_at >= ${range.from} AND s.sold_at < ${range.until}
    ${query.licenseKind ? sql`AND s.license_kind = ${query.licenseKind}` : sql``}
    ${query.billingPeriod ? sql`AND s.billing_period = ${query.billingPeriod}` : sql``}
    ${query.countryCode ? sql`AND s.country_code = ${query.countryCode}` : sql``}`;
}

type Numeric = string | number;

export async function salesInfo(
  db: Queryable,
  pluginId: number,
  query: SalesQuery,
  currency: Currency,
  commissionPercent: number,
): Promise<SalesInfoBody> {
  const range = salesRange(query.startDate, query.endDate);
  const where = salesFilter(pluginId, range, query);
  const [totals] = await selectRows<{
    sales: Numeric;
    licenses: Numeric;
    gross: Numeric;
    discount: Numeric;
    commission: Numeric;
    net: Numeric;
  }>(
    db,
    sql`SELECT count(*) AS sales, coalesce(sum(quantity), 0) AS licenses, coalesce(sum(gross_minor), 0) AS gross,
        coalesce(sum(discount_minor), 0) AS discount, coalesce(sum(commission_minor), 0) AS commission,
        coalesce(sum(net_minor), 0) AS net
      FROM sales s WHERE ${where}`,
  );
  const rows = await selectRows<{
    id: Numeric;
    sold_at: Date;
    license_kind: SalesInfoBody['sales'][number]['licenseKind'];
    billing_period: SalesInfoBody['sales'][number]['billingPeriod'];
    quantity: number;
    country_code: string;
    gross_minor: Numeric;
    discount_minor: Numeric;
    commission_minor: Numeric;
    net_minor: Numeric;
  }>(
    db,
    sql`SELECT s.id, s.sold_at, s.license_kind, s.billing_period, s.quantity, s.country_code, s.gross_minor,
        s.discount_minor, s.commission_minor, s.net_minor
      FROM sales s WHERE ${where} ORDER BY s.sold_at DESC, s.id DESC
      LIMIT ${query.size} OFFSET ${(query.page - 1) * query.size}`,
  );
  return {
    currency: currency.code,
    commissionPercent,
    total: Number(totals?.sales ?? 0),
    totals: {
      sales: Number(totals?.sales ?? 0),
      licenses: Number(totals?.licenses ?? 0),
      grossMinor: Number(totals?.gross ?? 0),
      discountMinor: Number(totals?.discount ?? 0),
      commissionMinor: Number(totals?.commission ?? 0),
      netMinor: Number(totals?.net ?? 0),
    },
    sales: rows.map((row) => ({
      id: Number(row.id),
      soldAt: new Date(row.sold_at).getTime(),
      licenseKind: row.license_kind,
      billingPeriod: row.billing_period,
      quantity: row.quantity,
      countryCode: row.country_code,
      grossMinor: Number(row.gross_minor),
      discountMinor: Number(row.discount_minor),
      commissionMinor: Number(row.commission_minor),
      netMinor: Number(row.net_minor),
    })),
  };
}

export async function salesAnalytics(
  db: Queryable,
  pluginId: number,
  query: SalesAnalyticsQuery,
  currency: Currency,
): Promise<SalesAnalyticsBody> {
  const range = salesRange(query.startDate, query.endDate);
  const where = salesFilter(pluginId, range, query);
  // One pass over the item's sales, grouped by month and country (a few hundred groups), gives both the
  // months and the countries: on a long history an item's rows lie all over the table, so each pass costs
  // nearly a read of the table. Months are grouped as timestamps; only the groups are written as text.
  const [groupRows, trialRows] = await Promise.all([
    selectRows<{
      month: string;
      country_code: string;
      sales: Numeric;
      gross: Numeric;
      net: Numeric;
      after_trial: Numeric;
    }>(
      db,
      sql`SELECT to_char(g.month, 'YYYY-MM') AS month, g.country_code, g.sales, g.gross, g.net, g.after_trial
        FROM (SELECT date_trunc('month', s.sold_at AT TIME ZONE 'UTC') AS month, s.country_code, count(*) AS sales,
            sum(s.gross_minor) AS gross, sum(s.net_minor) AS net, count(*) FILTER (WHERE s.after_trial) AS after_trial
          FROM sales s WHERE ${where} GROUP BY 1, 2) g`,
    ),
    selectRows<{ month: string; trials: Numeric; converted: Numeric }>(
      db,
      sql`SELECT to_char(date_trunc('month', t.started_at AT TIME ZONE 'UTC'), 'YYYY-MM') AS month, count(*) AS trials,
          count(*) FILTER (WHERE EXISTS (SELECT 1 FROM orders o WHERE o.plugin_id = t.plugin_id
            AND o.buyer_id = t.user_id AND o.status = 'PAID' AND o.created_at >= t.started_at)) AS converted
        FROM trials t WHERE t.plugin_id = ${pluginId} AND t.started_at >= ${range.from} AND t.started_at < ${range.until}
        GROUP BY 1 ORDER BY 1`,
    ),
  ]);
  const countries = new Map<string, SalesAnalyticsBody['countries'][number]>();
  const months = new Map<string, SalesAnalyticsBody['months'][number]>();
  // Every month of the range appears, with zeros where nothing sold.
  for (
    let cursor = new Date(Date.UTC(range.from.getUTCFullYear(), range.from.getUTCMonth(), 1));
    cursor < range.until;
    cursor = new Date(Date.UTC(cursor.getUTCFullYear(), cursor.getUTCMonth() + 1, 1))
  ) {
    const month = cursor.toISOString().slice(0, 7);
    months.set(month, { month, sales: 0, grossMinor: 0, netMinor: 0, trials: 0, salesAfterTrial: 0 });
  }
  for (const row of groupRows) {
    const entry = months.get(row.month);
    if (entry) {
      entry.sales += Number(row.sales);
      entry.grossMinor += Number(row.gross);
      entry.netMinor += Number(row.net);
      entry.salesAfterTrial += Number(row.after_trial);
    }
    const country = countries.get(row.country_code) ?? {
      countryCode: row.country_code,
      sales: 0,
      netMinor: 0,
    };
    country.sales += Number(row.sales);
    country.netMinor += Number(row.net);
    countries.set(row.country_code, country);
  }
  let trials = 0;
  let converted = 0;
  for (const row of trialRows) {
    const entry = months.get(row.month);
    if (entry) entry.trials = Number(row.trials);
    trials += Number(row.trials);
    converted += Number(row.converted);
  }
  return {
    currency: currency.code,
    months: [...months.values()],
    countries: [...countries.values()]
      .sort(
        (a, b) =>
          b.netMinor - a.netMinor ||
          (a.countryCode < b.countryCode ? -1 : a.countryCode > b.countryCode ? 1 : 0),
      )
      .slice(0, 20),
    trialConversionPercent: trials === 0 ? null : Math.round((converted * 100) / trials),
  };
}

/** A CSV field: quoted when it holds a separator, a quote or a line break; formula starts are defused. */
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const SALES_REPORT_COLUMNS = [
  'sale_id',
  'date',
  'license_kind',
  'billing_period',
  'quantity',
  'country',
  'currency',
  'gross',
  'discounts',
  'commission',
  'net',
] as const;

/**
 * The full report: every sale of the range as CSV lines (amounts as decimal text of the currency), produced
 * in pages of 5,000 rows so a report of any length streams in bounded memory.
 */
export async function* salesReportLines(
  db: Queryable,
  pluginId: number,
  query: SalesAnalyticsQuery,
  currency: Currency,
): AsyncGenerator<string> {
  const range = salesRange(query.startDate, query.endDate);
  const where = salesFilter(pluginId, range, query);
  yield `${SALES_REPORT_COLUMNS.join(',')}\r\n`;
  let after: { soldAt: Date; id: number } | undefined;
  for (;;) {
    const rows = await selectRows<{
      id: Numeric;
      sold_at: Date;
      license_kind: string;
      billing_period: string;
      quantity: number;
      country_code: string;
      currency: string;
      gross_minor: Numeric;
      discount_minor: Numeric;
      commission_minor: Numeric;
      net_minor: Numeric;
    }>(
      db,
      sql`SELECT s.id, s.sold_at, s.license_kind, s.billing_period, s.quantity, s.country_code, s.currency,
          s.gross_minor, s.discount_minor, s.commission_minor, s.net_minor
        FROM sales s WHERE ${where}
          ${after ? sql`AND (s.sold_at, s.id) > (${after.soldAt}, ${after.id})` : sql``}
        ORDER BY s.sold_at, s.id LIMIT 5000`,
    );
    if (rows.length === 0) return;
    let page = '';
    for (const row of rows) {
      page += `${[
        String(row.id),
        new Date(row.sold_at).toISOString().slice(0, 10),
        row.license_kind,
        row.billing_period,
        String(row.quantity),
        row.country_code,
        row.currency,
        minorToDecimalText(Number(row.gross_minor), currency),
        minorToDecimalText(Number(row.discount_minor), currency),
        minorToDecimalText(Number(row.commission_minor), currency),
        minorToDecimalText(Number(row.net_minor), currency),
      ]
        .map(csvField)
        .join(',')}\r\n`;
    }
    yield page;
    const last = rows[rows.length - 1]!;
    after = { soldAt: new Date(last.sold_at), id: Number(last.id) };
    if (rows.length < 5000) return;
  }
}

/** The selling measures insight's statistics read (`GET /statistic/{trials|sales|revenue}/{dimension}`). */
export type SellingMeasure = 'trials' | 'sales' | 'revenue';

/**
 * Trials started, sales made or net revenue (minor units, after discounts and commission) of an item
 * between two days (inclusive), per day, ISO week or month (named by the period's first day) or per buyer
 * country; `country` narrows sales and revenue to one country. Trials know no country.
 */
export async function sellingStatistic(
  db: Queryable,
  pluginId: number,
  measure: SellingMeasure,
  groupBy: 'day' | 'week' | 'month' | 'country',
  range: { startDate: string; endDate: string; country?: string },
): Promise<{ name: string; value: number }[]> {
  const from = new Date(`${range.startDate}T00:00:00Z`);
  const until = new Date(Date.parse(`${range.endDate}T00:00:00Z`) + DAY_MS);
  const moment = measure === 'trials' ? sql.raw('started_at') : sql.raw('sold_at');
  const group =
    groupBy === 'country'
      ? sql.raw('country_code')
      : sql`to_char(date_trunc(${groupBy}, ${moment} AT TIME ZONE 'UTC'), 'YYYY-MM-DD')`;
  const value = measure === 'revenue' ? sql`coalesce(sum(net_minor), 0)` : sql`count(*)`;
  const rows = await selectRows<{ name: string; value: Numeric }>(
    db,
    measure === 'trials'
      ? sql`SELECT ${group} AS name, ${value} AS value FROM trials
          WHERE plugin_id = ${pluginId} AND started_at >= ${from} AND started_at < ${until}
          GROUP BY 1 ORDER BY 1`
      : sql`SELECT ${group} AS name, ${value} AS value FROM sales
          WHERE plugin_id = ${pluginId} AND sold_at >= ${from} AND sold_at < ${until}
          ${range.country !== undefined ? sql`AND country_code = ${range.country}` : sql``}
          GROUP BY 1 ORDER BY ${groupBy === 'country' ? sql`2 DESC, 1` : sql`1`}`,
  );
  return rows.map((row) => ({ name: row.name, value: Number(row.value) }));
}
