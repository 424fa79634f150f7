import { cleanup, render, screen } from '@testing-library/react';
import { currencyOf, type Currency } from '@marketplace/core';
import { afterEach, describe, expect, it } from 'vitest';
import { barHeights, monthLabel, monthTick, niceAxisMax } from './revenue-chart';
import { RevenueChart } from './RevenueChart';

const USD = currencyOf('USD') as Currency;

afterEach(() => cleanup());

describe('the revenue chart scale', () => {
  it('tops the axis at a round amount (1, 2 or 5 times a power of ten) at least the largest bar', () => {
    expect(niceAxisMax(187_320)).toBe(200_000);
    expect(niceAxisMax(200_000)).toBe(200_000);
    expect(niceAxisMax(200_001)).toBe(500_000);
    expect(niceAxisMax(4_900)).toBe(5_000);
    expect(niceAxisMax(5_001)).toBe(10_000);
    expect(niceAxisMax(1)).toBe(1);
    expect(niceAxisMax(7)).toBe(10);
    expect(Number.isInteger(niceAxisMax(123_456_789))).toBe(true);
  });

  it('draws an axis even when nothing sold', () => {
    expect(niceAxisMax(0)).toBe(100);
    expect(niceAxisMax(Number.NaN)).toBe(100);
  });

  it('scales bars to the axis, the largest within the plot', () => {
    expect(barHeights([0, 2_500, 5_000], 10_000, 180)).toEqual([0, 45, 90]);
    const heights = barHeights([187_320, 93_660], niceAxisMax(187_320), 180);
    expect(heights[0]).toBeCloseTo(168.588);
    expect(heights[1]).toBeCloseTo(84.294);
    expect(barHeights([-5, 20_000], 10_000, 100)).toEqual([0, 100]);
  });

  it('names months for people', () => {
    expect(monthLabel('2026-03')).toBe('Mar 2026');
    expect(monthTick('2026-03', true)).toBe('Mar 2026');
    expect(monthTick('2026-04', false)).toBe('Apr');
    expect(monthTick('2027-01', false)).toBe('Jan 2027');
  });
});

describe('RevenueChart', () => {
  const months = [
    { month: '2026-01', sales: 2, grossMinor: 9_800, netMinor: 7_000, trials: 3, salesAfterTrial: 1 },
    { month: '2026-02', sales: 0, grossMinor: 0, netMinor: 0, trials: 0, salesAfterTrial: 0 },
    { month: '2026-03', sales: 1, grossMinor: 4_900, netMinor: 3_332, trials: 1, salesAfterTrial: 1 },
  ];

  it('is one image whose description reads every month’s amounts', () => {
    render(<RevenueChart months={months} currency={USD} />);
    const image = screen.getByRole('img', { name: 'Revenue per month' });
    const description = document.getElementById(image.getAttribute('aria-describedby') ?? '');
    expect(description?.textContent).toBe(
      'Jan 2026: gross $98.00, net $70.00, 2 sales; Feb 2026: gross $0.00, net $0.00, 0 sales; Mar 2026: gross $49.00, net $33.32, 1 sale',
    );
    expect(screen.getByText(/\$103\.32 net over 3 months/)).toBeTruthy();
  });

  it('draws each month’s gross and net bars on the round axis', () => {
    const { container } = render(<RevenueChart months={months} currency={USD} />);
    const gross = [...container.querySelectorAll('rect[data-series="gross"]')].map((bar) =>
      Number(bar.getAttribute('height')),
    );
    const net = [...container.querySelectorAll('rect[data-series="net"]')].map((bar) =>
      Number(bar.getAttribute('height')),
    );
    // The axis tops at $100.00 (10,000 cents), 180 pixels tall.
    expect(gross).toEqual([176.4, 0, 88.2]);
    expect(net[0]).toBeCloseTo(126);
    expect(net[2]).toBeCloseTo(59.976);
    expect(screen.getByText('$100')).toBeTruthy();
    expect(screen.getByText('$50')).toBeTruthy();
  });
});
