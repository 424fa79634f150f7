import type { Plugin, PluginLifecycle, Tag, UserPluginSummary } from '@marketplace/api-client';
import { ToastProvider } from '@marketplace/ui';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import DashboardPage from './DashboardPage';
import EditPluginPage from './EditPluginPage';

// A signed-in developer (not an administrator).
vi.mock('../../auth/AuthProvider', () => ({
  useAuth: () => ({
    user: { id: 1, name: 'Dev', login: 'dev', email: null, banned: false, isAdmin: false },
    available: true,
    signIn: () => Promise.resolve(),
    signOut: () => Promise.resolve(),
  }),
}));

/** The fake server's answers by "METHOD /path" (anything else is a 404), and the calls it took. */
let answers: Record<string, unknown>;
let calls: { method: string; path: string; body: unknown }[];

beforeEach(() => {
  answers = {};
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const method = init?.method ?? 'GET';
      calls.push({
        method,
        path: url.pathname,
        body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      });
      const key = `${method} ${url.pathname}`;
      const found = key in answers;
      return Promise.resolve(
        new Response(JSON.stringify(found ? answers[key] : { message: 'Not here' }), {
          status: found ? 200 : 404,
          headers: { 'content-type': 'application/json' },
        }),
      );
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderAt(path: string, route: string, page: ReactNode) {
  render(
    <ToastProvider>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={route} element={page} />
        </Routes>
      </MemoryRouter>
    </ToastProvider>,
  );
}

const LIVE: PluginLifecycle = {
  lifecycleState: 'published',
  approved: true,
  blockState: 'none',
  modificationAllowed: true,
  hidden: false,
  pendingVersions: 0,
  versions: 1,
};

const TAGS: Tag[] = ['Editor', 'Languages', 'Staff Picks', 'Testing'].map((name, index) => ({
  id: index + 1,
  name,
  link: '',
  privileged: name === 'Staff Picks',
  searchable: true,
  families: [],
}));

function plugin(lifecycle: Partial<PluginLifecycle>, tags: string[] = []): Plugin {
  return {
    id: 7,
    removed: false,
    info: {
      id: 7,
      name: 'Rainbow Brackets',
      family: 'intellij',
      link: '/plugin/7-rainbow-brackets',
      approve: lifecycle.approved ?? true,
      description: '',
      preview: '',
      pricingModel: 'FREE',
      xmlId: 'com.example.rainbow',
    },
    urls: {
      url: '',
      sourceCodeUrl: '',
      bugtrackerUrl: '',
      docUrl: '',
      forumUrl: '',
      licenseUrl: '',
      privacyPolicyUrl: '',
    },
    tags: tags.map((name) => TAGS.find((tag) => tag.name === name)),
    lifecycle: { ...LIVE, ...lifecycle },
  } as unknown as Plugin;
}

async function statusOfManagePage(item: Plugin) {
  answers['GET /api/plugins/7'] = item;
  answers['GET /api/tags'] = TAGS;
  renderAt('/dashboard/plugin/7', '/dashboard/plugin/:pluginId', <EditPluginPage />);
  const status = await screen.findByRole('region', { name: 'Status' });
  return {
    status,
    label: status.querySelector('.site-badge')?.textContent,
    buttons: within(status)
      .queryAllByRole('button')
      .map((button) => button.textContent),
  };
}

describe('the manage page', () => {
  it.each([
    [
      'a draft',
      { lifecycleState: 'draft', approved: false, pendingVersions: 1 },
      'Draft',
      ['Publish', 'Request removal'],
    ],
    [
      'a published item',
      { approved: false, pendingVersions: 1 },
      'Waiting for approval',
      ['Request removal'],
    ],
    ['a live item', {}, 'Live', ['Request removal']],
    [
      'a live item with an update waiting',
      { pendingVersions: 1, versions: 2 },
      'Live — 1 version waiting for approval',
      ['Request removal'],
    ],
    [
      'an item whose removal is requested',
      { lifecycleState: 'removal_requested' },
      'Removal requested',
      ['Withdraw the removal request'],
    ],
    ['a blocked item', { blockState: 'blocked' }, 'Blocked', []],
  ] as const)(
    'shows the status of %s and only the actions that apply',
    async (_kind, lifecycle, label, buttons) => {
      const shown = await statusOfManagePage(plugin(lifecycle));
      expect(shown.label).toBe(label);
      expect(shown.buttons).toEqual(buttons);
      // Publish appears nowhere else on the page.
      expect(screen.queryAllByRole('button', { name: 'Publish' })).toHaveLength(
        (buttons as readonly string[]).includes('Publish') ? 1 : 0,
      );
    },
  );

  it('says why nothing can be done while changes are disallowed', async () => {
    const shown = await statusOfManagePage(plugin({ modificationAllowed: false }));
    expect(shown.buttons).toEqual([]);
    expect(within(shown.status).getByText(/^An administrator disallowed changes/)).toBeTruthy();
  });

  it('publishes a draft and then says it waits for approval', async () => {
    const { status } = await statusOfManagePage(
      plugin({ lifecycleState: 'draft', approved: false, pendingVersions: 1 }),
    );
    answers['POST /api/plugins/7/publish'] = {};
    answers['GET /api/plugins/7'] = plugin({ approved: false, pendingVersions: 1 });
    fireEvent.click(within(status).getByRole('button', { name: 'Publish' }));
    expect(await within(status).findByText('Waiting for approval')).toBeTruthy();
    expect(calls).toContainEqual({ method: 'POST', path: '/api/plugins/7/publish', body: {} });
  });

  it('marks its required fields', async () => {
    await statusOfManagePage(plugin({}));
    expect(screen.getByRole('textbox', { name: 'Name' }).getAttribute('aria-required')).toBe('true');
    const archive = screen.getByLabelText('Archive *');
    expect(archive.getAttribute('aria-required')).toBe('true');
    expect(screen.getByRole('textbox', { name: 'Tab name' }).getAttribute('aria-required')).toBe('true');
  });

  it("sends the tags picked from the catalogue's list, keeping the ones the item has", async () => {
    await statusOfManagePage(plugin({}, ['Editor', 'Staff Picks']));
    const tagsForm = screen.getByRole('form', { name: 'Tags' });
    expect(within(tagsForm).getByRole('button', { name: 'Remove tag Staff Picks' })).toBeTruthy();
    const input = within(tagsForm).getByRole('combobox', { name: 'Tags' });
    fireEvent.change(input, { target: { value: 'Test' } });
    fireEvent.keyDown(await within(tagsForm).findByRole('combobox', { expanded: true }), { key: 'Enter' });
    fireEvent.click(within(tagsForm).getByRole('button', { name: 'Remove tag Editor' }));
    fireEvent.change(input, { target: { value: 'Whatever' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    answers['POST /api/plugins/7/tags'] = [];
    fireEvent.click(within(tagsForm).getByRole('button', { name: 'Save tags' }));
    await vi.waitFor(() =>
      expect(calls).toContainEqual({
        method: 'POST',
        path: '/api/plugins/7/tags',
        body: ['Staff Picks', 'Testing'],
      }),
    );
  });
});

describe('the list of my items', () => {
  it("shows each item's status label, the same words as its manage page", async () => {
    const summary = (id: number, name: string, lifecycle?: Partial<PluginLifecycle>): UserPluginSummary => ({
      id,
      xmlId: `com.example.${id}`,
      name,
      link: `/plugin/${id}`,
      family: 'intellij',
      preview: '',
      icon: '',
      downloads: 0,
      rating: 0,
      pricingModel: 'FREE',
      vendor: { name: '', url: '' },
      tags: [],
      isTheme: false,
      cdate: 0,
      updateDate: 0,
      downloadStatistics: [],
      ...(lifecycle ? { lifecycle: { ...LIVE, ...lifecycle } } : {}),
    });
    answers['GET /api/users/1/plugins'] = [
      summary(1, 'Fresh Draft', { lifecycleState: 'draft', approved: false }),
      summary(2, 'Waiting One', { approved: false }),
      summary(3, 'Live One', { pendingVersions: 2, versions: 3 }),
    ];
    renderAt('/dashboard', '/dashboard', <DashboardPage />);
    const list = await screen.findByRole('list', { name: 'My items' });
    const labels = [...list.querySelectorAll('.site-status-badge')].map((badge) => badge.textContent);
    expect(labels).toEqual(['Draft', 'Waiting for approval', 'Live — 2 versions waiting for approval']);
    expect(list.querySelector('.site-status-badge')?.getAttribute('title')).toBe(
      'Not visible to anyone else yet. Publish it to send it to the administrators for approval.',
    );
  });
});
