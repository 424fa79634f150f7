import { describe, expect, it } from 'vitest';
import {
  areaPath,
  barLengths,
  linePath,
  niceStep,
  niceTicks,
  scale,
  spreadX,
  tickIndexes,
} from './chart-scale';

describe('the axis', () => {
  it('steps by 1, 2 or 5 times a power of ten, whole numbers only', () => {
    expect(niceStep(0.3)).toBe(1);
    expect(niceStep(3)).toBe(5);
    expect(niceStep(20)).toBe(20);
    expect(niceStep(468)).toBe(500);
    expect(niceStep(5_001)).toBe(10_000);
  });

  it('ticks from 0 to a round top at least the largest value', () => {
    expect(niceTicks(1_873)).toEqual([0, 500, 1_000, 1_500, 2_000]);
    expect(niceTicks(100)).toEqual([0, 50, 100]);
    expect(niceTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(1)).toEqual([0, 1]);
  });

  it('still has an axis when there is nothing to show', () => {
    expect(niceTicks(0)).toEqual([0, 1]);
    expect(niceTicks(Number.NaN)).toEqual([0, 1]);
  });

  it('places values within the plot', () => {
    expect(scale(50, 200, 100)).toBe(25);
    expect(scale(300, 200, 100)).toBe(100);
    expect(scale(-3, 200, 100)).toBe(0);
    expect(scale(3, 0, 100)).toBe(0);
  });
});

describe('the time series', () => {
  it('spreads points from the left to the right edge, one point in the middle', () => {
    expect(spreadX(3, 10, 100)).toEqual([10, 60, 110]);
    expect(spreadX(1, 10, 100)).toEqual([60]);
    expect(spreadX(0, 10, 100)).toEqual([]);
  });

  it('draws lines and closed areas as SVG paths', () => {
    const points = [
      [0, 10],
      [5.25, 2],
      [10, 4.04],
    ] as const;
    expect(linePath(points)).toBe('M0 10 L5.3 2 L10 4');
    expect(areaPath(points, 20)).toBe('M0 10 L5.3 2 L10 4 L10 20 L0 20 Z');
    expect(areaPath([], 20)).toBe('');
  });

  it('labels at most a few periods, evenly, the first and the last among them', () => {
    expect(tickIndexes(4, 6)).toEqual([0, 1, 2, 3]);
    expect(tickIndexes(30, 6)).toEqual([0, 6, 12, 17, 23, 29]);
    expect(tickIndexes(365, 6).at(-1)).toBe(364);
    expect(tickIndexes(0, 6)).toEqual([]);
  });
});

describe('the bars', () => {
  it('are as long as their share of the largest, at least 1% when above zero', () => {
    expect(barLengths([200, 100, 0], 400)).toEqual([400, 200, 0]);
    expect(barLengths([10_000, 1], 400)).toEqual([400, 4]);
    expect(barLengths([0, 0], 400)).toEqual([0, 0]);
  });
});
