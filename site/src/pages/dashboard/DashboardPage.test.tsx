import { USER_PLUGIN_FAMILIES, type ProductFamily } from '@marketplace/core';
import { ToastProvider } from '@marketplace/ui';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubFetch } from '../../test-support/fetch-stub';
import DashboardPage from './DashboardPage';
import { pluginSummaryFixture } from '../../test-support/plugin-summary';

vi.mock('../../auth/AuthProvider', () => ({
  useAuth: () => ({
    user: { id: 5, name: 'Alice', login: 'alice', email: null, banned: false, isAdmin: false },
    available: true,
    signIn: () => Promise.resolve(),
    signOut: () => Promise.resolve(),
  }),
}));

const item = (id: number, name: string, family: ProductFamily) =>
  pluginSummaryFixture(id, { name, family, xmlId: `com.example.p${id}`, vendor: { name: 'Acme', url: '' } });

/** The families each request for the user's items asked for. */
let askedFamilies: string[][];

beforeEach(() => {
  askedFamilies = [];
  stubFetch(({ url }) => {
    if (url.pathname === '/api/users/5/plugins') {
      // As the server answers: only the families asked for, in the developer's order.
      const families = url.searchParams.getAll('family');
      askedFamilies.push(families);
      const mine = [item(1, 'Rust Basics', 'edu'), item(2, 'Darcula Tools', 'intellij')];
      return jsonResponse(
        200,
        mine.filter((entry) => families.includes(entry.family)),
      );
    }
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('DashboardPage', () => {
  it("lists the developer's courses among their plugins, each named by its family's noun", async () => {
    render(
      <ToastProvider>
        <MemoryRouter initialEntries={['/dashboard']}>
          <DashboardPage />
        </MemoryRouter>
      </ToastProvider>,
    );
    const list = await screen.findByRole('list', { name: 'My items' });
    const articles = within(list).getAllByRole('article');
    expect(articles.map((article) => article.getAttribute('aria-label'))).toEqual([
      'Rust Basics',
      'Darcula Tools',
    ]);
    // Each card with its links under it (the grid's own entries).
    const cards = articles.map((article) => article.closest('.site-grid > li') as HTMLElement);
    expect(cards[0]!.textContent).toContain('Course');
    expect(cards[1]!.textContent).toContain('Plugin');
    expect(within(cards[0]!).getByRole('link', { name: 'Manage Rust Basics' }).getAttribute('href')).toBe(
      '/dashboard/plugin/1',
    );
    // The spec's default for the route (every family but edu) is the public page's; the dashboard asks for all.
    expect(askedFamilies).toHaveLength(1);
    expect(askedFamilies[0]).toEqual(expect.arrayContaining([...USER_PLUGIN_FAMILIES, 'edu']));
  });
});
