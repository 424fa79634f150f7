import { formatNumber } from '@marketplace/core';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { BarChart } from './BarChart';
import { TimeSeriesChart } from './TimeSeriesChart';

afterEach(() => cleanup());

const points = [
  { label: '01.03.2026', tick: '01.03.2026', value: 40 },
  { label: '02.03.2026', tick: '02.03.2026', value: 0 },
  { label: '03.03.2026', tick: '03.03.2026', value: 1_873 },
];
const compared = [
  { label: '26.02.2026', tick: '26.02.2026', value: 10 },
  { label: '27.02.2026', tick: '27.02.2026', value: 20 },
  { label: '28.02.2026', tick: '28.02.2026', value: 30 },
];

describe('TimeSeriesChart', () => {
  it('is one named image, with every value in a table for screen readers', () => {
    render(
      <TimeSeriesChart
        title="Downloads per day, 01.03.2026–03.03.2026"
        points={points}
        seriesName="01.03.2026–03.03.2026"
        format={formatNumber}
      />,
    );
    screen.getByRole('img', { name: 'Downloads per day, 01.03.2026–03.03.2026' });
    const table = screen.getByRole('table', { name: 'Downloads per day, 01.03.2026–03.03.2026' });
    expect(
      within(table)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['PeriodValue', '01.03.202640', '02.03.20260', '03.03.20261,873']);
  });

  it('draws the line on a round axis that holds the largest value, and a tooltip per period', () => {
    const { container } = render(
      <TimeSeriesChart title="t" points={points} seriesName="s" format={formatNumber} />,
    );
    // Axis 0 to 2,000 over 260 pixels from y=272 up; x from 64 to 944.
    expect(container.querySelector('[data-series="current"]')?.getAttribute('d')).toBe(
      'M64 266.8 L504 272 L944 28.5',
    );
    expect([...container.querySelectorAll('text')].map((text) => text.textContent)).toEqual([
      '0',
      '500',
      '1,000',
      '1,500',
      '2,000',
      '01.03.2026',
      '02.03.2026',
      '03.03.2026',
    ]);
    expect([...container.querySelectorAll('rect > title')].map((title) => title.textContent)).toEqual([
      '01.03.2026: 40',
      '02.03.2026: 0',
      '03.03.2026: 1,873',
    ]);
  });

  it('draws the compared period as a second line, in the tooltips, the table and the legend', () => {
    const { container } = render(
      <TimeSeriesChart
        title="t"
        points={points}
        compared={compared}
        seriesName="01.03.2026–03.03.2026"
        comparedName="26.02.2026–28.02.2026"
        format={formatNumber}
      />,
    );
    expect(container.querySelector('[data-series="compared"]')?.getAttribute('d')).toBe(
      'M64 270.7 L504 269.4 L944 268.1',
    );
    expect(container.querySelector('rect > title')?.textContent).toBe(
      '01.03.2026: 40; compared 26.02.2026: 10',
    );
    expect(screen.getByRole('row', { name: '03.03.2026 1,873 28.02.2026 30' })).toBeTruthy();
    expect(container.querySelector('figcaption')?.textContent).toBe(
      ' 01.03.2026–03.03.2026 compared with 26.02.2026–28.02.2026',
    );
  });
});

describe('BarChart', () => {
  it('draws bars as long as their share of the largest, described for screen readers', () => {
    const { container } = render(
      <BarChart
        title="Downloads by product"
        format={formatNumber}
        bars={[
          { label: 'IntelliJ IDEA Ultimate', value: 300, active: true },
          { label: 'PhpStorm', value: 150 },
          { label: 'A very long product name that does not fit', value: 1 },
        ]}
      />,
    );
    const image = screen.getByRole('img', { name: 'Downloads by product' });
    expect(document.getElementById(image.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'IntelliJ IDEA Ultimate: 300; PhpStorm: 150; A very long product name that does not fit: 1',
    );
    const bars = [...container.querySelectorAll('rect')];
    expect(bars.map((bar) => Number(bar.getAttribute('width')))).toEqual([404, 202, 4.04]);
    expect(bars[0]?.getAttribute('class')).toContain('site-analytics-bars__bar--active');
    expect(bars[1]?.getAttribute('class')).not.toContain('--active');
    expect(screen.getByText('A very long product name that…')).toBeTruthy();
  });
});
