import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DownloadsChart } from './DownloadsChart';

const days = Array.from({ length: 35 }, (_, index) => ({
  name: new Date(Date.UTC(2026, 9, 1) + index * 86_400_000).toISOString().slice(0, 10),
  value: index,
}));

describe('DownloadsChart', () => {
  it('says it is getting statistics while loading', () => {
    render(<DownloadsChart status="pending" />);
    expect(screen.getByRole('status').textContent).toBe('Getting statistics...');
  });

  it('says statistics are unavailable when they failed', () => {
    render(<DownloadsChart status="rejected" />);
    expect(screen.getByText('Statistics temporarily unavailable')).toBeTruthy();
  });

  it('draws the last 30 days as bars, each with its day and count, and the total in words', () => {
    render(<DownloadsChart status="resolved" points={days} />);
    const bars = screen.getAllByRole('listitem');
    expect(bars).toHaveLength(30);
    expect(bars[29]?.getAttribute('aria-label')).toBe(`${days[34]?.name}: 34 downloads`);
    expect(bars[29]?.style.height).toBe('100%');
    const total = days.slice(-30).reduce((sum, day) => sum + day.value, 0);
    expect(screen.getByText(`${total.toLocaleString('en-US')} downloads in the last 30 days`)).toBeTruthy();
  });
});
