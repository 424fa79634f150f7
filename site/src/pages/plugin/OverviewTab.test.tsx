import type { Plugin, PluginSummary } from '@marketplace/api-client';
import * as ui from '@marketplace/ui';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubFetch } from '../../test-support/fetch-stub';
import { pluginPageFixture } from '../../test-support/plugin-page';
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

function member(id: number, name: string): PluginSummary {
  const slug = name.toLowerCase().replace(/\s+/g, '-');
  return {
    id,
    xmlId: `com.example.${slug}`,
    name,
    link: `/plugin/${id}-${slug}`,
    family: 'intellij',
    preview: '',
    icon: '',
    downloads: 10,
    rating: 0,
    pricingModel: 'FREE',
    vendor: { name: '', url: '' },
    tags: [],
    isTheme: false,
    cdate: Date.UTC(2026, 0, 1),
    updateDate: Date.UTC(2026, 0, 1),
    downloadStatistics: [],
  };
}

function item(details: Pick<Plugin, 'developers' | 'bundles' | 'themes' | 'compatibleProducts'>): Plugin {
  return pluginPageFixture(details);
}

const FULL = item({
  developers: {
    status: 'resolved',
    data: [
      { id: '5', login: 'dana', name: 'Dana Developer', link: '/author/5' },
      { id: '6', login: 'olli', name: '', link: '/author/6' },
    ],
  },
  bundles: { status: 'resolved', data: [member(7, 'Rainbow Brackets'), member(8, 'Rainbow CSV')] },
  themes: [
    { name: 'Rainbow Dark', dark: true },
    { name: 'Rainbow Light', dark: false },
  ],
  compatibleProducts: ['PYCHARM_COMMUNITY', 'IDEA'],
});

const EMPTY = item({
  developers: { status: 'resolved', data: [] },
  bundles: { status: 'resolved', data: [] },
  themes: [],
  compatibleProducts: [],
});

let answer: Plugin;
let pluginRequests: string[];

beforeEach(() => {
  pluginRequests = [];
  stubFetch(({ url }) => {
    if (url.pathname === '/api/plugins/42') {
      pluginRequests.push(url.search);
      // As the server answers: developers and bundles only with fullInfo.
      if (url.searchParams.get('fullInfo') === 'true') return jsonResponse(200, answer);
      return jsonResponse(200, {
        ...answer,
        developers: { status: 'idle', data: [] },
        bundles: { status: 'idle', data: [] },
      });
    }
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function renderOverview(plugin: Plugin) {
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
  // The tab's code loads on its own after the page's.
  return (await screen.findByRole('heading', { name: 'Details' })).closest('section') as HTMLElement;
}

/** The `<dd>` of a facts-list term, if the term is there. */
function fact(details: HTMLElement, term: string): HTMLElement | undefined {
  const dt = within(details)
    .queryAllByRole('term')
    .find((candidate) => candidate.textContent === term);
  return (dt?.nextElementSibling as HTMLElement | null) ?? undefined;
}

const hrefs = (scope: HTMLElement) =>
  within(scope)
    .getAllByRole('link')
    .map((link) => [link.textContent, link.getAttribute('href')]);

describe('the overview’s developers, compatible products, themes and bundle', () => {
  it('asks for the item with its developers and bundles', async () => {
    await renderOverview(FULL);
    expect(pluginRequests).toEqual(['?fullInfo=true']);
  });

  it('shows each with links to the developers’ and the bundled items’ pages', async () => {
    const details = await renderOverview(FULL);

    const developers = fact(details, 'Developers');
    expect(developers).toBeDefined();
    // A developer without a name goes by their login.
    expect(hrefs(developers!)).toEqual([
      ['Dana Developer', '/author/5'],
      ['olli', '/author/6'],
    ]);
    expect(developers!.textContent).toBe('Dana Developer, olli');

    // Product names, in the catalogue's order (IDEA before PyCharm).
    expect(fact(details, 'Compatible with')?.textContent).toBe('IntelliJ IDEA Ultimate, PyCharm Community');
    expect(fact(details, 'Themes')?.textContent).toBe('Rainbow Dark (dark), Rainbow Light (light)');

    const bundle = screen.getByRole('region', { name: 'Plugins in this bundle' });
    expect(hrefs(bundle)).toEqual([
      ['Rainbow Brackets', '/plugin/7-rainbow-brackets'],
      ['Rainbow CSV', '/plugin/8-rainbow-csv'],
    ]);
  });

  it('leaves each out when the item has none', async () => {
    const details = await renderOverview(EMPTY);
    expect(fact(details, 'Developers')).toBeUndefined();
    expect(fact(details, 'Compatible with')).toBeUndefined();
    expect(fact(details, 'Themes')).toBeUndefined();
    expect(screen.queryByRole('region', { name: 'Plugins in this bundle' })).toBeNull();
    // The facts every item has are still there.
    expect(fact(details, 'Vendor')?.textContent).toBe('Example Corp');
    expect(fact(details, 'Plugin ID')?.textContent).toBe('com.example.rainbow-kit');
  });
});

describe('the overview’s "Included in"', () => {
  const bundles = [
    { id: 90, name: 'Rainbow Essentials', link: '/plugin/90-rainbow-essentials' },
    { id: 91, name: 'Colour Pack', link: '/plugin/91-colour-pack' },
  ];

  it('links the bundles that include a plugin', async () => {
    await renderOverview({ ...EMPTY, includedIn: bundles });
    const region = screen.getByRole('region', { name: 'Included in' });
    expect(hrefs(region)).toEqual([
      ['Rainbow Essentials', '/plugin/90-rainbow-essentials'],
      ['Colour Pack', '/plugin/91-colour-pack'],
    ]);
    expect(region.textContent).toContain('Bundles that install this plugin with others');
    expect(screen.queryByRole('region', { name: 'Provided by' })).toBeNull();
  });

  it('names, for a theme, the plugins that ship it', async () => {
    const theme = {
      ...EMPTY,
      tags: [
        {
          id: 164,
          name: 'Theme',
          link: '/search?tags=Theme',
          privileged: false,
          searchable: true,
          families: [],
        },
      ],
      includedIn: bundles.slice(0, 1),
    } satisfies Plugin;
    await renderOverview(theme);
    const region = screen.getByRole('region', { name: 'Provided by' });
    expect(hrefs(region)).toEqual([['Rainbow Essentials', '/plugin/90-rainbow-essentials']]);
    expect(region.textContent).toContain('Plugins that ship this theme');
    expect(screen.queryByRole('region', { name: 'Included in' })).toBeNull();
  });

  it('is left out when no bundle includes the item', async () => {
    await renderOverview({ ...EMPTY, includedIn: [] });
    expect(screen.queryByRole('region', { name: 'Included in' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Provided by' })).toBeNull();
  });
});
