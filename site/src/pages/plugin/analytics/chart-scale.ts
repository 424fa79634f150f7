/*
 * The arithmetic of the analytics charts: round axis steps, positions and SVG paths. Values are whole numbers
 * (counts, or minor units of money), so steps are whole too; only pixel positions are fractions.
 */

/** The smallest round step (1, 2 or 5 × 10^n, at least 1) not under `rough`. */
export function niceStep(rough: number): number {
  if (!Number.isFinite(rough) || rough <= 1) return 1;
  let power = 1;
  while (power * 10 <= rough) power *= 10;
  for (const step of [1, 2, 5, 10]) {
    if (step * power >= rough) return step * power;
  }
  return 10 * power;
}

/**
 * The axis ticks from 0 to a round top at least `largest`, about `count` steps apart: 1,873 gives
 * 0, 500, 1,000, 1,500, 2,000. Nothing to show still gives an axis (0 and 1).
 */
export function niceTicks(largest: number, count = 4): number[] {
  const top = Number.isFinite(largest) && largest > 0 ? largest : 1;
  const step = niceStep(top / count);
  const ticks = [0];
  while (ticks[ticks.length - 1]! < top) ticks.push(ticks[ticks.length - 1]! + step);
  return ticks;
}

/** Where a value falls on an axis from 0 to `max` drawn over `size` pixels (clamped to the axis). */
export function scale(value: number, max: number, size: number): number {
  if (max <= 0 || !Number.isFinite(value)) return 0;
  return (Math.max(0, Math.min(value, max)) / max) * size;
}

/** The x of `count` points spread over a plot: the first at its left, the last at its right; one in the middle. */
export function spreadX(count: number, left: number, width: number): number[] {
  if (count <= 0) return [];
  if (count === 1) return [left + width / 2];
  return Array.from({ length: count }, (_, index) => left + (index * width) / (count - 1));
}

function coordinate(value: number): string {
  return String(Math.round(value * 10) / 10);
}

/** A polyline through the points as an SVG path ('M x y L x y ...'). */
export function linePath(points: readonly (readonly [number, number])[]): string {
  return points
    .map(([x, y], index) => `${index === 0 ? 'M' : 'L'}${coordinate(x)} ${coordinate(y)}`)
    .join(' ');
}

/** The area between the polyline and the baseline, closed. */
export function areaPath(points: readonly (readonly [number, number])[], baseline: number): string {
  if (points.length === 0) return '';
  const first = points[0]!;
  const last = points[points.length - 1]!;
  return `${linePath(points)} L${coordinate(last[0])} ${coordinate(baseline)} L${coordinate(first[0])} ${coordinate(baseline)} Z`;
}

/** At most `most` indexes spread evenly from the first to the last point, for axis labels that do not overlap. */
export function tickIndexes(count: number, most: number): number[] {
  if (count <= 0 || most <= 0) return [];
  if (count <= most) return Array.from({ length: count }, (_, index) => index);
  if (most === 1) return [0];
  const step = (count - 1) / (most - 1);
  return Array.from({ length: most }, (_, index) => Math.round(index * step));
}

/** Minimum length of a bar that has a value, in percent of the longest (spec §9), so it stays visible. */
const MIN_BAR_PERCENT = 1;

/** Each bar's length in pixels, the largest value taking `width`; a value above 0 gets at least 1 %. */
export function barLengths(values: readonly number[], width: number): number[] {
  const largest = Math.max(0, ...values.filter(Number.isFinite));
  if (largest === 0) return values.map(() => 0);
  return values.map((value) =>
    Number.isFinite(value) && value > 0
      ? Math.max((MIN_BAR_PERCENT / 100) * width, (value / largest) * width)
      : 0,
  );
}
