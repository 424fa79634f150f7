import type { PluginSummary } from '@marketplace/api-client';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import HomePage from './HomePage';

const featured = vi.fn<(family: string) => Promise<PluginSummary[]>>();
/** The catalogue's sections: by default they never answer (most tests are about the featured items). */
const search = vi.fn<(query: { family?: string }) => Promise<unknown>>(() => new Promise(() => undefined));
vi.mock('../../lib/api', () => ({
  api: {
    featuredItems: { list: (family: string) => featured(family) },
    searchPlugins: (query: { family?: string }) => search(query),
  },
}));
vi.mock('../../lib/features', () => ({ useFeature: () => false }));

afterEach(() => {
  cleanup();
  featured.mockReset();
  search.mockClear();
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

function renderHome(path = '/') {
  return render(
    <MemoryRouter initialEntries={[path]}>
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

describe('the home page of one product family', () => {
  it('calls the items of Space applications and counts their installations', async () => {
    const app = summary(7, 'Standup Bot', { family: 'space', downloads: 1234, downloadStatistics: [] });
    featured.mockResolvedValue([app]);
    search.mockResolvedValue({ data: { plugins: [app], total: 1 }, links: {} });
    renderHome('/?family=space');
    expect(screen.getByRole('heading', { level: 1, name: 'Space' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Browse all applications' }).getAttribute('href')).toBe(
      '/search?family=space',
    );
    await screen.findByRole('list', { name: 'Featured applications' });
    expect(featured).toHaveBeenCalledWith('space');
    expect(search.mock.calls.every(([query]) => query.family === 'space')).toBe(true);
    const headings = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    expect(headings).toEqual([
      'Featured applications',
      'Most installed applications',
      'Recently updated applications',
      'Top rated applications',
    ]);
    await waitFor(() => expect(screen.getAllByText('1,234 installations').length).toBeGreaterThan(0));
    expect(document.body.textContent).not.toMatch(/\bplugins?\b|downloads/i);
  });

  it('says courses on the education family’s page, and links every family', async () => {
    featured.mockResolvedValue([]);
    renderHome('/?family=edu');
    expect(screen.getByRole('heading', { name: 'Most downloaded courses' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Browse all courses' })).toBeTruthy();
    const families = screen.getByRole('navigation', { name: 'Product families' });
    expect(within(families).getByRole('link', { name: 'Hub' }).getAttribute('href')).toBe('/?family=hub');
    expect(within(families).getByRole('link', { name: 'All of the marketplace' }).getAttribute('href')).toBe(
      '/',
    );
    expect(document.body.textContent).not.toMatch(/\bplugins?\b/i);
  });

  it('keeps the general page for an unknown family', () => {
    featured.mockResolvedValue([]);
    renderHome('/?family=nonsense');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(
      'Plugins, themes and courses for your IDE',
    );
    expect(screen.getByRole('heading', { name: 'Most downloaded' })).toBeTruthy();
    expect(featured).toHaveBeenCalledWith('intellij');
  });
});
