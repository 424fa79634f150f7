import type { Plugin } from '@marketplace/api-client';
import * as ui from '@marketplace/ui';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubFetch } from '../../test-support/fetch-stub';
import { pluginPageFixture as item } from '../../test-support/plugin-page';
import PluginPage from './PluginPage';

// A visitor: the page asks nothing about management.
vi.mock('../../auth/AuthProvider', () => ({
  useAuth: () => ({
    user: null,
    available: true,
    signIn: () => Promise.resolve(),
    signOut: () => Promise.resolve(),
  }),
}));

// The install button looks for running IDEs on the visitor's machine: not this test's subject.
vi.mock('@marketplace/ui', async (importOriginal) => ({
  ...(await importOriginal<typeof ui>()),
  InstallButton: () => null,
}));

let answer: Plugin;

beforeEach(() => {
  stubFetch(({ url }) => {
    if (url.pathname === '/api/plugins/42') return jsonResponse(200, answer);
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function renderItem(plugin: Plugin) {
  answer = plugin;
  render(
    <ui.ToastProvider>
      <MemoryRouter initialEntries={['/plugin/42-rainbow-kit']}>
        <Routes>
          <Route path="/plugin/:item/:tab?" element={<PluginPage />} />
        </Routes>
      </MemoryRouter>
    </ui.ToastProvider>,
  );
  await screen.findByRole('heading', { level: 1, name: 'Rainbow Kit' });
}

describe('the item page of a mirrored item', () => {
  it('says which marketplace it was mirrored from, linking there', async () => {
    await renderItem(
      item({
        mirroredFrom: {
          host: 'plugins.jetbrains.com',
          url: 'https://plugins.jetbrains.com',
          originalUrl: 'https://plugins.jetbrains.com/plugin/download?updateId=7',
        },
      }),
    );
    const note = screen.getByText(
      (_content, element) =>
        element?.classList.contains('site-item__mirrored') === true &&
        element.textContent === 'Mirrored from plugins.jetbrains.com',
    );
    expect(note).toBeTruthy();
    const link = screen.getByRole('link', { name: 'plugins.jetbrains.com' });
    expect(link.getAttribute('href')).toBe('https://plugins.jetbrains.com');
    expect(link.getAttribute('rel')).toContain('nofollow');
  });

  it('says nothing of the kind for an item published here', async () => {
    await renderItem(item());
    expect(screen.queryByText(/Mirrored from/)).toBeNull();
  });
});
