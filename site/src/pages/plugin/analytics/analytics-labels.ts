import {
  downloadWording,
  formatDisplayDate,
  formatNumber,
  productByCode,
  productFullName,
  type ProductFamily,
  type StatisticMeasure,
} from '@marketplace/core';
import type { Breakdown } from './analytics-state';

/** The measure's name in the picker and headings; Space apps are installed, not downloaded. */
export function measureLabel(measure: StatisticMeasure, family: ProductFamily): string {
  const noun = downloadWording(family, { plural: true });
  switch (measure) {
    case 'downloads-count':
      return downloadWording(family, { plural: true, capitalised: true });
    case 'downloads-unique':
      return `Unique ${noun}`;
    case 'installs':
      return 'Installs from an IDE';
    case 'update-checks':
      return 'Update checks';
    case 'trials':
      return 'Trials';
    case 'sales':
      return 'Sales';
    case 'revenue':
      return 'Revenue';
    default:
      return measure satisfies never;
  }
}

export const BREAKDOWN_LABELS: Readonly<Record<Breakdown, string>> = {
  version: 'Version',
  product: 'Product',
  country: 'Country',
};

let regionNames: Intl.DisplayNames | undefined;

/** An ISO 3166 alpha-2 code as its English name ('DE' → 'Germany'); a code without a name stays itself. */
export function countryName(code: string): string {
  try {
    regionNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
    return regionNames.of(code.toUpperCase()) ?? code;
  } catch {
    // Not a well-formed region code (Intl throws): show what the server sent.
    return code;
  }
}

/**
 * A breakdown row as people read it: the product's name from the catalogue ('IU' → 'IntelliJ IDEA Ultimate'),
 * the country's name, or the version; '' is what was not told.
 */
export function breakdownValueLabel(dimension: Breakdown, name: string): string {
  if (dimension === 'product') {
    if (name === '') return 'Not told (not an IDE, or an unknown one)';
    const product = productByCode(name);
    return product ? productFullName(product) : name;
  }
  if (dimension === 'country') return name === '' ? 'Unknown country' : countryName(name);
  return name === '' ? 'Unknown version' : name;
}

/** '+12.5%', '−3%', or a sentence when there is nothing to compare with. */
export function changeLabel(percent: number | undefined): string {
  if (percent === undefined) return 'no figures to compare with';
  const rounded = Math.round(percent * 10) / 10;
  if (rounded === 0) return 'no change';
  return `${rounded > 0 ? '+' : '−'}${formatNumber(Math.abs(rounded))}%`;
}

/** A share of a whole in percent, one decimal: '12.5%'. */
export function shareLabel(value: number, whole: number): string {
  if (whole <= 0) return '';
  return `${formatNumber(Math.round((value / whole) * 1000) / 10)}%`;
}

/** When the figures were last brought up to date: '25.11.2026 14:05 UTC'. */
export function updatedAtLabel(time: number): string {
  const date = new Date(time);
  if (Number.isNaN(date.getTime())) return '';
  const hours = String(date.getUTCHours()).padStart(2, '0');
  const minutes = String(date.getUTCMinutes()).padStart(2, '0');
  return `${formatDisplayDate(date)} ${hours}:${minutes} UTC`;
}
