import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import SearchPage from './SearchPage';

/** A card's summary as the API answers it. */
const summary = (id: number, name: string, isTheme = false) => ({
  id,
  xmlId: `com.example.${id}`,
  name,
  link: `/plugin/${id}-x`,
  family: 'intellij' as const,
  preview: '',
  icon: '',
  downloads: 10,
  rating: 0,
  pricingModel: 'FREE' as const,
  vendor: { name: '', url: '' },
  tags: [],
  isTheme,
  cdate: 0,
  updateDate: 0,
  downloadStatistics: [],
});

type Query = Record<string, unknown>;
const searches: Query[] = [];
/** The fake catalogue: 3 plugins and 14 themes (the staff picks: plugin 1 and theme 101). */
const PLUGINS = [summary(1, 'Git Toolbox'), summary(2, 'Kotlin Fest'), summary(3, 'Python Linter')];
const THEMES = Array.from({ length: 14 }, (_, index) => summary(101 + index, `Theme ${index + 1}`, true));

function answer(query: Query) {
  const kind = query['kind'] ?? 'any';
  let items = kind === 'plugins' ? PLUGINS : kind === 'themes' ? THEMES : [...PLUGINS, ...THEMES];
  if (query['isFeaturedSearch']) items = items.filter((item) => item.id === 1 || item.id === 101);
  // The tag "Theme" is carried by themes only.
  if (query['tags']) items = items.filter((item) => item.isTheme);
  if (query['shouldHaveSource']) items = items.filter((item) => item.id === 1);
  const offset = Number(query['offset'] ?? 0);
  const max = Number(query['max'] ?? 20);
  return { data: { plugins: items.slice(offset, offset + max), total: items.length }, links: {} };
}

vi.mock('../../lib/api', () => ({
  api: {
    searchPlugins: (query: Query) => {
      searches.push(query);
      return Promise.resolve(answer(query));
    },
    aggregateProducts: () => Promise.resolve({ aggregations: { IDEA: 17 }, total: 17 }),
  },
}));

beforeEach(() => {
  searches.length = 0;
});
afterEach(() => {
  cleanup();
});

/** The address bar, as the page leaves it. */
function Address() {
  const location = useLocation();
  return <output aria-label="address">{location.search}</output>;
}

function renderSearch(search: string) {
  return render(
    <MemoryRouter initialEntries={[`/search${search}`]}>
      <SearchPage />
      <Address />
    </MemoryRouter>,
  );
}

const address = () => new URLSearchParams(screen.getByLabelText('address').textContent ?? '');
/** The cards of a result list (a card holds lists of its own). */
const cardCount = (list: HTMLElement) => list.querySelectorAll(':scope > li').length;
const names = (list: HTMLElement) =>
  within(list)
    .queryAllByRole('link')
    .map((link) => link.getAttribute('href'));

describe('the staff-picks and source-code filters', () => {
  it('are kept in the address, counted, sent to the API and cleared by "Clear filters"', async () => {
    renderSearch('?search=git&orderBy=rating');
    expect(screen.queryByRole('link', { name: 'Clear filters' })).toBeNull();

    fireEvent.click(screen.getByRole('checkbox', { name: 'Staff picks' }));
    expect(address().get('isFeaturedSearch')).toBe('true');
    fireEvent.click(screen.getByRole('checkbox', { name: 'With source code' }));
    expect(address().get('shouldHaveSource')).toBe('true');
    expect(screen.getByRole('button', { name: 'Filters, 2 active' })).toBeTruthy();
    expect((screen.getByRole('checkbox', { name: 'Staff picks' }) as HTMLInputElement).checked).toBe(true);
    await screen.findByRole('heading', { name: /^Plugins 1$/ });
    expect(searches.at(-1)).toMatchObject({ isFeaturedSearch: true, shouldHaveSource: true, search: 'git' });

    fireEvent.click(screen.getByRole('link', { name: 'Clear filters' }));
    // The words and the order stay; the filters go.
    expect(address().toString()).toBe('search=git&orderBy=rating');
    expect((screen.getByRole('checkbox', { name: 'Staff picks' }) as HTMLInputElement).checked).toBe(false);
    expect(screen.getByRole('button', { name: 'Filters' })).toBeTruthy();
  });
});

describe('the result sets', () => {
  it('shows plugins and themes apart, each with its total; themes six at a time with "Show more"', async () => {
    renderSearch('');
    const pluginsHeading = await screen.findByRole('heading', { name: 'Plugins 3' });
    const themesHeading = await screen.findByRole('heading', { name: 'Themes 14' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toContain('17 found');
    const pluginsList = screen.getByRole('list', { name: 'Plugins' });
    const themesList = screen.getByRole('list', { name: 'Themes' });
    expect(pluginsHeading.closest('section')?.contains(pluginsList)).toBe(true);
    expect(themesHeading.closest('section')?.contains(themesList)).toBe(true);
    expect(names(pluginsList)).toEqual(expect.arrayContaining(['/plugin/1-x', '/plugin/2-x', '/plugin/3-x']));
    expect(cardCount(pluginsList)).toBe(3);
    expect(cardCount(themesList)).toBe(6);
    expect(searches).toContainEqual(expect.objectContaining({ kind: 'plugins', max: 20, offset: 0 }));
    expect(searches).toContainEqual(expect.objectContaining({ kind: 'themes', max: 6, offset: 0 }));

    fireEvent.click(screen.getByRole('button', { name: 'Show more themes' }));
    await vi.waitFor(() => expect(cardCount(themesList)).toBe(12));
    fireEvent.click(screen.getByRole('button', { name: 'Show more themes' }));
    await vi.waitFor(() => expect(cardCount(themesList)).toBe(14));
    // All shown: nothing more to ask for.
    expect(screen.queryByRole('button', { name: 'Show more themes' })).toBeNull();
    expect(screen.queryByRole('link', { name: /See all/ })).toBeNull();
  });

  it('links to all themes, a type the Filters panel shows, and then pages through that type alone', async () => {
    renderSearch('?search=dark');
    fireEvent.click(await screen.findByRole('link', { name: 'See all 14 themes' }));
    expect(address().get('kind')).toBe('themes');
    expect(address().get('search')).toBe('dark');
    expect((screen.getByRole('radio', { name: 'Themes' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('button', { name: 'Filters, 1 active' })).toBeTruthy();
    await vi.waitFor(() => expect(cardCount(screen.getByRole('list', { name: 'Themes' }))).toBe(14));
    // One set: no separate sections, and no request for the other type.
    expect(screen.queryByRole('heading', { name: /^Plugins/ })).toBeNull();
    expect(searches.at(-1)).toMatchObject({ kind: 'themes', max: 20 });

    fireEvent.click(screen.getByRole('radio', { name: 'Plugins' }));
    expect(address().get('kind')).toBe('plugins');
    await vi.waitFor(() => expect(cardCount(screen.getByRole('list', { name: 'Plugins' }))).toBe(3));
    fireEvent.click(screen.getByRole('radio', { name: 'All types' }));
    expect(address().get('kind')).toBeNull();
    await screen.findByRole('heading', { name: 'Themes 14' });
  });

  it('leaves out an empty set, and says nothing matches only when neither matches', async () => {
    renderSearch('?tags=Theme');
    await screen.findByRole('heading', { name: 'Themes 14' });
    await vi.waitFor(() =>
      expect(screen.getByRole('heading', { level: 1 }).textContent).toContain('14 found'),
    );
    expect(screen.queryByRole('heading', { name: /^Plugins/ })).toBeNull();
    expect(screen.queryByText('Nothing matches these filters.')).toBeNull();
    cleanup();

    renderSearch('?shouldHaveSource=true');
    await screen.findByRole('heading', { name: 'Plugins 1' });
    await vi.waitFor(() =>
      expect(screen.getByRole('heading', { level: 1 }).textContent).toContain('1 found'),
    );
    expect(screen.queryByRole('heading', { name: /^Themes/ })).toBeNull();
    cleanup();

    renderSearch('?shouldHaveSource=true&tags=Theme');
    await screen.findByText('Nothing matches these filters.');
    expect(screen.queryByRole('heading', { name: /^(Plugins|Themes)/ })).toBeNull();
  });
});
