/*
 * The scale of the revenue chart: a round top for the axis (1, 2 or 5 times a power of ten, in minor units,
 * so the axis reads $500 or $2,000 rather than $1,873.20) and each bar's height in pixels. Amounts stay whole
 * minor units; only pixel heights are fractions.
 */

/** The smallest round amount (1, 2 or 5 × 10^n minor units) at least `largest`; 0 and below give 100. */
export function niceAxisMax(largest: number): number {
  if (!Number.isFinite(largest) || largest <= 0) return 100;
  let power = 1;
  while (power * 10 <= largest) power *= 10;
  for (const step of [1, 2, 5, 10]) {
    if (step * power >= largest) return step * power;
  }
  return 10 * power;
}

/** Each value's bar height in pixels on an axis from 0 to `axisMax` drawn `height` pixels tall. */
export function barHeights(values: readonly number[], axisMax: number, height: number): number[] {
  if (axisMax <= 0) return values.map(() => 0);
  return values.map((value) => (Math.max(0, Math.min(value, axisMax)) / axisMax) * height);
}

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** 'yyyy-MM' as people read it: 'Mar 2026'. */
export function monthLabel(month: string): string {
  const [year, number] = month.split('-');
  const name = MONTH_NAMES[Number(number) - 1];
  return name && year ? `${name} ${year}` : month;
}

/** A month's short label under its bar: 'Mar', with the year on the first bar and on each January. */
export function monthTick(month: string, first: boolean): string {
  const [year, number] = month.split('-');
  const name = MONTH_NAMES[Number(number) - 1] ?? month;
  return first || number === '01' ? `${name} ${year ?? ''}`.trim() : name;
}
