import type { PluginSummary } from '@marketplace/api-client';
import type { ProductFamily } from '@marketplace/core';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ItemGrid } from './ItemGrid';

afterEach(cleanup);

const NOW = Date.UTC(2026, 5, 1);

function summary(id: number, name: string, family: ProductFamily): PluginSummary {
  return {
    id,
    xmlId: `com.example.${id}`,
    name,
    link: `/plugin/${id}`,
    family,
    preview: `${name} does things.`,
    icon: '',
    downloads: 4321,
    rating: 4,
    pricingModel: 'FREE',
    vendor: { name: 'Acme', url: '' },
    tags: [],
    isTheme: false,
    cdate: NOW,
    updateDate: NOW,
    // Thirty days of 3 a day: 90 in all.
    downloadStatistics: Array.from({ length: 30 }, (_, day) => ({
      name: `2026-05-${String(day + 1).padStart(2, '0')}`,
      value: 3,
    })),
  };
}

describe('the cards of a list of mixed families', () => {
  it('count each item in its own family’s words: installations for Space, downloads for the rest', () => {
    render(
      <ItemGrid
        label="Results"
        items={[summary(1, 'Standup Bot', 'space'), summary(2, 'Kotlin Koans', 'edu')]}
      />,
    );
    const space = screen.getByRole('article', { name: 'Standup Bot' });
    expect(within(space).getByText('4,321 installations')).toBeTruthy();
    expect(within(space).getByText('90 installations in the last 30 days')).toBeTruthy();
    expect(within(space).getByRole('list', { name: 'Installations per day' })).toBeTruthy();
    expect(space.textContent).not.toMatch(/download/i);

    const course = screen.getByRole('article', { name: 'Kotlin Koans' });
    expect(within(course).getByText('4,321 downloads')).toBeTruthy();
    expect(within(course).getByText('90 downloads in the last 30 days')).toBeTruthy();
    expect(course.textContent).not.toMatch(/installation/i);
  });
});
