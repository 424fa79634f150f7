import type { Plugin } from '@marketplace/api-client';
import * as ui from '@marketplace/ui';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubFetch } from '../../test-support/fetch-stub';
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

function item(extra: Partial<Plugin> = {}): Plugin {
  return {
    id: 42,
    removed: false,
    status: 'resolved',
    info: {
      id: 42,
      name: 'Rainbow Kit',
      family: 'intellij',
      link: '/plugin/42-rainbow-kit',
      approve: true,
      hasUnapprovedUpdate: false,
      isHidden: false,
      description: '<p>Colours.</p>',
      preview: 'Colours.',
      docText: '',
      email: '',
      downloads: 1200,
      xmlId: 'com.example.rainbow-kit',
      copyright: '',
      removalRequested: false,
      icon: '',
      cdate: Date.UTC(2026, 0, 2),
      pricingModel: 'FREE',
      isMonetizationAvailable: false,
      isBlocked: false,
      isModificationAllowed: true,
      updateDate: Date.UTC(2026, 1, 2),
    },
    screenshots: [],
    tags: [],
    rating: { status: 'resolved', meanRating: 0, votes: { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 } },
    vendor: { name: 'Example Corp', url: '' },
    urls: {
      url: '',
      bugtrackerUrl: '',
      forumUrl: '',
      licenseUrl: '',
      sourceCodeUrl: '',
      docUrl: '',
      privacyPolicyUrl: '',
      donationLinks: [],
      customContacts: [],
    },
    language: null,
    programmingLanguage: null,
    developers: { status: 'resolved', data: [] },
    bundles: { status: 'resolved', data: [] },
    customTabs: [],
    themes: [],
    compatibleProducts: [],
    downloadStatistics: [],
    ...extra,
  };
}

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
