import type { PluginSummary } from '@marketplace/api-client';
import type { ProductFamily } from '@marketplace/core';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import UserPage from './UserPage';
import { pluginSummaryFixture } from '../../test-support/plugin-summary';

let families: ProductFamily[] = [];
const paged = <T,>(data: T) => Promise.resolve({ data, links: {} });
vi.mock('../../lib/api', () => ({
  api: {
    getUser: () => Promise.resolve({ id: 2, login: 'dana', name: 'Dana Developer' }),
    getUserPlugins: () => paged(families.map((family, index) => summary(index + 1, family))),
    getUserComments: () => paged([]),
  },
}));

afterEach(cleanup);

function summary(id: number, family: ProductFamily): PluginSummary {
  return pluginSummaryFixture(id, {
    family,
    preview: 'Does things.',
    downloads: 10,
    rating: 4,
    vendor: { name: 'Acme', url: '' },
  });
}

function renderAuthor() {
  render(
    <MemoryRouter initialEntries={['/author/2']}>
      <Routes>
        <Route path="/author/:userId" element={<UserPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('the author page’s list of items', () => {
  it('is headed by the family’s plural when all the items are of one family', async () => {
    families = ['hub', 'hub'];
    renderAuthor();
    expect(await screen.findByRole('heading', { name: 'Dashboard widgets' })).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Dashboard widgets' })).toBeTruthy();
  });

  it("is headed 'Items' when they are of several families", async () => {
    families = ['intellij', 'youtrack'];
    renderAuthor();
    await screen.findByRole('article', { name: 'Item 2' });
    expect(screen.getByRole('heading', { level: 2, name: 'Items' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: /plugins/i })).toBeNull();
  });
});
