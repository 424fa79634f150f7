import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import SearchPage from './SearchPage';

// The results never arrive here: the test is about the filters, which do not wait for them.
vi.mock('../../lib/api', () => ({
  api: {
    searchPlugins: () => new Promise(() => undefined),
    aggregateProducts: () => new Promise(() => undefined),
  },
}));

afterEach(() => {
  cleanup();
});

function renderSearch(search: string) {
  return render(
    <MemoryRouter initialEntries={[`/search${search}`]}>
      <SearchPage />
    </MemoryRouter>,
  );
}

describe('the search page filters', () => {
  it('wait behind a "Filters" button that says how many are on, and open from it', () => {
    renderSearch('?payment=free&tags=Theme&tags=Git&family=intellij');
    const toggle = screen.getByRole('button', { name: 'Filters, 4 active' });
    const filters = screen.getByRole('complementary', { name: 'Filters' });
    expect(toggle.getAttribute('aria-controls')).toBe(filters.id);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(filters.classList.contains('is-open')).toBe(false);
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(filters.classList.contains('is-open')).toBe(true);
    fireEvent.click(toggle);
    expect(filters.classList.contains('is-open')).toBe(false);
  });

  it('show no number when none is on', () => {
    renderSearch('?search=git&orderBy=rating');
    expect(screen.getByRole('button', { name: 'Filters' }).textContent).toBe('Filters');
  });
});
