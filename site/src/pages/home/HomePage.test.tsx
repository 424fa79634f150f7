import type { PluginSummary } from '@marketplace/api-client';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import HomePage from './HomePage';

const featured = vi.fn<(family: string) => Promise<PluginSummary[]>>();
// The catalogue's sections never answer here: the test is about the featured items above them.
vi.mock('../../lib/api', () => ({
  api: {
    featuredItems: { list: (family: string) => featured(family) },
    searchPlugins: () => new Promise(() => undefined),
  },
}));
vi.mock('../../lib/features', () => ({ useFeature: () => false }));

afterEach(() => {
  cleanup();
  featured.mockReset();
});

function summary(id: number, name: string, extra: Partial<PluginSummary> = {}): PluginSummary {
  return {
    id,
    xmlId: `com.example.${id}`,
    name,
    link: `/plugin/${id}-${name.toLowerCase().replace(/\W+/g, '-')}`,
    family: 'intellij',
    preview: `${name} does things.`,
    icon: '',
    downloads: 10,
    rating: 4,
    pricingModel: 'FREE',
    vendor: { name: 'Acme', url: '' },
    tags: [],
    isTheme: false,
    cdate: Date.UTC(2026, 0, 1),
    updateDate: Date.UTC(2026, 0, 1),
    downloadStatistics: [],
    ...extra,
  };
}

function renderHome() {
  return render(
    <MemoryRouter>
      <HomePage />
    </MemoryRouter>,
  );
}

describe('the home page’s featured items', () => {
  it('shows the administrators’ picks of the IntelliJ family first, in their order', async () => {
    featured.mockResolvedValue([
      summary(3, 'Night Owl', { isTheme: true, image: '/api/plugins/3/screenshots/9' }),
      summary(1, 'Git Toolbox'),
    ]);
    renderHome();
    const grid = await screen.findByRole('list', { name: 'Featured' });
    expect(featured).toHaveBeenCalledWith('intellij');
    expect(screen.getByRole('heading', { name: 'Featured' })).toBeTruthy();
    expect(
      within(grid)
        .getAllByRole('article')
        .map((card) => card.getAttribute('aria-label')),
    ).toEqual(['Night Owl', 'Git Toolbox']);
    expect(within(grid).getByRole('img', { name: 'Night Owl screenshot' }).getAttribute('src')).toBe(
      '/api/plugins/3/screenshots/9',
    );
    // First on the page, above the catalogue's own sections.
    const headings = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    expect(headings[0]).toBe('Featured');
  });

  it('shows no section when there are none, or when they cannot be read', async () => {
    const answers = [() => Promise.resolve([]), () => Promise.reject(new Error('offline'))];
    for (const make of answers) {
      const answer = make();
      answer.catch(() => undefined);
      featured.mockReturnValue(answer);
      renderHome();
      // Let the answer arrive and the page draw it.
      await act(async () => {
        await answer.catch(() => undefined);
      });
      expect(featured).toHaveBeenCalled();
      expect(screen.getByRole('heading', { name: 'Most downloaded' })).toBeTruthy();
      expect(screen.queryByRole('heading', { name: 'Featured' })).toBeNull();
      expect(screen.queryByRole('alert')).toBeNull();
      cleanup();
    }
  });
});
