import type { SalesAnalyticsFilter } from '@marketplace/api-client';
import {
  DAY_MS,
  formatStatisticsDate,
  isBillingPeriod,
  isLicenseKind,
  type BillingPeriod,
  type LicenseKind,
} from '@marketplace/core';

/*
 * The sales tab's filters live in the page address (?range=90&kind=PERSONAL&country=DE&page=2), so a filtered
 * view can be bookmarked and Back works. Days are yyyy-MM-dd in UTC, as the API reads them.
 */

export const RANGE_PRESETS = [
  ['30', 'Last 30 days'],
  ['90', 'Last 90 days'],
  ['365', 'Last year'],
  ['custom', 'Custom range'],
] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number][0];

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

export interface SalesFilterState {
  range: RangePreset;
  /** The custom range's first and last day (inclusive), yyyy-MM-dd; empty when not given. */
  from: string;
  to: string;
  licenseKind: LicenseKind | undefined;
  billingPeriod: BillingPeriod | undefined;
  /** ISO 3166-1 alpha-2, upper case. */
  countryCode: string | undefined;
  page: number;
}

const DEFAULT_RANGE: RangePreset = '365';

function isPreset(value: string | null): value is RangePreset {
  return RANGE_PRESETS.some(([preset]) => preset === value);
}

export function readSalesFilter(params: URLSearchParams): SalesFilterState {
  const range = params.get('range');
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const kind = params.get('kind');
  const period = params.get('period');
  const country = (params.get('country') ?? '').toUpperCase();
  const page = Number(params.get('page') ?? '1');
  return {
    range: isPreset(range) ? range : DEFAULT_RANGE,
    from: DAY_PATTERN.test(from) ? from : '',
    to: DAY_PATTERN.test(to) ? to : '',
    licenseKind: isLicenseKind(kind) ? kind : undefined,
    billingPeriod: isBillingPeriod(period) ? period : undefined,
    countryCode: /^[A-Z]{2}$/.test(country) ? country : undefined,
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
  };
}

/** The address query of a filter, leaving out what is the default. */
export function writeSalesFilter(state: SalesFilterState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.range !== DEFAULT_RANGE) params.set('range', state.range);
  if (state.range === 'custom') {
    if (state.from) params.set('from', state.from);
    if (state.to) params.set('to', state.to);
  }
  if (state.licenseKind) params.set('kind', state.licenseKind);
  if (state.billingPeriod) params.set('period', state.billingPeriod);
  if (state.countryCode) params.set('country', state.countryCode);
  if (state.page > 1) params.set('page', String(state.page));
  return params;
}

/** The first and last day of a preset range ending today (UTC): 30 days is today and the 29 days before. */
export function presetDays(
  preset: Exclude<RangePreset, 'custom'>,
  now: Date,
): { start: string; end: string } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const days = Number(preset);
  return {
    start: formatStatisticsDate(today - (days - 1) * DAY_MS),
    end: formatStatisticsDate(today),
  };
}

/** The filter as the sales calls take it (dates, kind, period, country; no page). */
export function salesQueryOf(state: SalesFilterState, now: Date): SalesAnalyticsFilter {
  const query: SalesAnalyticsFilter = {};
  if (state.range === 'custom') {
    if (state.from) query.startDate = state.from;
    if (state.to) query.endDate = state.to;
  } else {
    const { start, end } = presetDays(state.range, now);
    query.startDate = start;
    query.endDate = end;
  }
  if (state.licenseKind) query.licenseKind = state.licenseKind;
  if (state.billingPeriod) query.billingPeriod = state.billingPeriod;
  if (state.countryCode) query.countryCode = state.countryCode;
  return query;
}

/** The file name of a download, from the server's Content-Disposition header, or the fallback. */
export function attachmentFileName(contentDisposition: string | null, fallback: string): string {
  if (!contentDisposition) return fallback;
  const encoded = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(contentDisposition)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded.trim().replace(/^"|"$/g, '')) || fallback;
    } catch {
      // Not percent-encoded after all: fall through to the plain name.
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(contentDisposition);
  const name = (plain?.[2] ?? plain?.[1] ?? '').trim();
  // Only a base name: no folders, nothing that hides the extension.
  const safe = name.replace(/[/\\]/g, '_').replace(/^\.+/, '');
  return safe || fallback;
}
