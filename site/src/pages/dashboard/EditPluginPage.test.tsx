import type {
  Plugin,
  PluginLifecycle,
  PluginVersion,
  Tag,
  UserPluginSummary,
  VersionScanStatus,
} from '@marketplace/api-client';
import { ToastProvider } from '@marketplace/ui';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import DashboardPage from './DashboardPage';
import EditPluginPage from './EditPluginPage';
import { pluginSummaryFixture } from '../../test-support/plugin-summary';

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
/** Answers with an error status by "METHOD /path", before `answers`. */
let failures: Record<string, { status: number; message: string }>;
let calls: { method: string; path: string; body: unknown }[];

beforeEach(() => {
  answers = {};
  failures = {};
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
      const failure = failures[key];
      if (failure) {
        return Promise.resolve(
          new Response(JSON.stringify({ message: failure.message }), {
            status: failure.status,
            headers: { 'content-type': 'application/json' },
          }),
        );
      }
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
  vi.restoreAllMocks();
});

/** Where the page's router is now (its path and search), as the address bar would show it. */
function Address() {
  const location = useLocation();
  return <output aria-label="Address">{location.pathname + location.search}</output>;
}

function renderAt(path: string, route: string, page: ReactNode) {
  render(
    <ToastProvider>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route
            path={route}
            element={
              <>
                {page}
                <Address />
              </>
            }
          />
        </Routes>
      </MemoryRouter>
    </ToastProvider>,
  );
}

/** Answers the page's "are you sure?" questions with `answer`; the stub records them. */
function stubConfirm(answer: boolean) {
  const confirm = vi.fn((_question?: string) => answer);
  vi.stubGlobal('confirm', confirm);
  return confirm;
}

/** The titles (and messages) of the toasts shown now. */
function toasts(): string[] {
  return [...document.querySelectorAll('.mp-toast')].map((toast) =>
    [
      toast.querySelector('.mp-toast__title')?.textContent,
      toast.querySelector('.mp-toast__message')?.textContent,
    ]
      .filter(Boolean)
      .join(': '),
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

function plugin(
  lifecycle: Partial<PluginLifecycle>,
  tags: string[] = [],
  more: Partial<Omit<Plugin, 'info'>> & { family?: Plugin['info']['family'] } = {},
): Plugin {
  const { family = 'intellij', ...rest } = more;
  return {
    id: 7,
    removed: false,
    info: {
      id: 7,
      name: 'Rainbow Brackets',
      family,
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
      donationLinks: [],
      customContacts: [],
    },
    screenshots: [],
    customTabs: [],
    compatibleProducts: [],
    tags: tags.map((name) => TAGS.find((tag) => tag.name === name)),
    lifecycle: { ...LIVE, ...lifecycle },
    ...rest,
  } as unknown as Plugin;
}

/** Opens an item's manage page (at `path`, which may name a section) once it has loaded. */
async function openManagePage(item: Plugin, path = '/dashboard/plugin/7') {
  answers['GET /api/plugins/7'] = item;
  answers['GET /api/tags'] = TAGS;
  renderAt(path, '/dashboard/plugin/:pluginId', <EditPluginPage />);
  await screen.findByRole('tablist');
}

async function statusOfManagePage(item: Plugin) {
  await openManagePage(item);
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
    fireEvent.click(screen.getByRole('tab', { name: 'Details' }));
    expect(screen.getByRole('textbox', { name: 'Name' }).getAttribute('aria-required')).toBe('true');
    fireEvent.click(screen.getByRole('tab', { name: 'Versions & compatibility' }));
    const archive = screen.getByLabelText('Archive *');
    expect(archive.getAttribute('aria-required')).toBe('true');
    fireEvent.click(screen.getByRole('tab', { name: 'Media' }));
    expect(screen.getByRole('textbox', { name: 'Tab name' }).getAttribute('aria-required')).toBe('true');
  });

  it("sends the tags picked from the catalogue's list, keeping the ones the item has", async () => {
    await statusOfManagePage(plugin({}, ['Editor', 'Staff Picks']));
    fireEvent.click(screen.getByRole('tab', { name: 'Details' }));
    const tagsForm = screen.getByRole('form', { name: 'Tags' });
    expect(within(tagsForm).getByRole('button', { name: 'Remove tag Staff Picks' })).toBeTruthy();
    const input = within(tagsForm).getByRole('combobox', { name: 'Tags' });
    fireEvent.input(input, { target: { value: 'Test' } });
    fireEvent.keyDown(await within(tagsForm).findByRole('combobox', { expanded: true }), { key: 'Enter' });
    fireEvent.click(within(tagsForm).getByRole('button', { name: 'Remove tag Editor' }));
    fireEvent.input(input, { target: { value: 'Whatever' } });
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

function summary(
  id: number,
  name: string,
  lifecycle?: Partial<PluginLifecycle>,
  family: UserPluginSummary['family'] = 'intellij',
): UserPluginSummary {
  return {
    ...pluginSummaryFixture(id, { name, family }),
    ...(lifecycle ? { lifecycle: { ...LIVE, ...lifecycle } } : {}),
  };
}

describe('the list of my items', () => {
  it("shows each item's status label, the same words as its manage page", async () => {
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

describe('the sections of the manage page', () => {
  it('shows the status above sections that switch by click and by arrow keys, the open one in the address', async () => {
    await statusOfManagePage(plugin({}));
    const tabs = screen.getByRole('tablist', { name: 'Manage the plugin' });
    const names = within(tabs)
      .getAllByRole('tab')
      .map((tab) => tab.textContent);
    expect(names).toEqual([
      'Versions & compatibility',
      'Details',
      'Links',
      'Media',
      'Developers',
      'Selling',
      'Verification',
    ]);
    const address = () => screen.getByRole('status', { name: 'Address' }).textContent;
    const selected = () => within(tabs).getByRole('tab', { selected: true }).textContent;
    expect(selected()).toBe('Versions & compatibility');
    expect(screen.getByRole('tabpanel', { name: 'Versions & compatibility' })).toBeTruthy();
    expect(address()).toBe('/dashboard/plugin/7');

    fireEvent.click(screen.getByRole('tab', { name: 'Media' }));
    expect(selected()).toBe('Media');
    expect(screen.getByRole('region', { name: 'Screenshots' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Upload a new version' })).toBeNull();
    // The status stays in view whatever the section.
    expect(screen.getByRole('region', { name: 'Status' })).toBeTruthy();
    expect(address()).toBe('/dashboard/plugin/7?section=media');

    fireEvent.keyDown(screen.getByRole('tab', { name: 'Media' }), { key: 'ArrowRight' });
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Developers' }));
    expect(address()).toBe('/dashboard/plugin/7?section=people');
    fireEvent.keyDown(screen.getByRole('tab', { name: 'Developers' }), { key: 'Home' });
    expect(selected()).toBe('Versions & compatibility');
    expect(address()).toBe('/dashboard/plugin/7');
    fireEvent.keyDown(screen.getByRole('tab', { name: 'Versions & compatibility' }), { key: 'ArrowLeft' });
    expect(selected()).toBe('Verification');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Verification' }));
  });

  it('opens the section the address names', async () => {
    await openManagePage(plugin({}), '/dashboard/plugin/7?section=links');
    expect(screen.getByRole('tab', { name: 'Links' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('form', { name: 'Links' })).toBeTruthy();
  });

  it("calls the item by its family's noun", async () => {
    await openManagePage(plugin({}, [], { family: 'space' }), '/dashboard/plugin/7?section=media');
    expect(screen.getByRole('tablist', { name: 'Manage the application' })).toBeTruthy();
    expect(screen.getByText('The application has no screenshots yet.')).toBeTruthy();
    expect(screen.getByText('The application has no documentation tabs yet.')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Selling' }));
    expect(screen.getByText(/^To sell this application, apply to sell/)).toBeTruthy();
  });

  it('says "This item could not be loaded" when the item does not load', async () => {
    renderAt('/dashboard/plugin/7', '/dashboard/plugin/:pluginId', <EditPluginPage />);
    expect(await screen.findByRole('heading', { name: 'This item could not be loaded' })).toBeTruthy();
  });
});

describe('the scans of the versions', () => {
  const version = (id: number, name: string): PluginVersion =>
    ({ id, pluginId: 7, version: name, channel: '', since: '241', until: null }) as PluginVersion;
  const scan = (findings: NonNullable<VersionScanStatus['scan']>['findings']) => ({
    id: 1,
    verdict: 'quarantined' as const,
    scannedAt: 0,
    engines: ['built-in'],
    archiveSha256: 'ab',
    entriesScanned: 4,
    findings,
  });
  const KEY = {
    kind: 'secret',
    severity: 'high',
    path: 'config/deploy-key.pem',
    message:
      'A private key (RSA PRIVATE KEY) on line 1. Anyone who downloads the plugin could use it: revoke the key and upload a version without it.',
  } as const;
  const BINARY = {
    kind: 'native-binary',
    severity: 'high',
    path: 'icons/logo.png',
    message: 'A native binary (ELF) named as another kind of file.',
  } as const;
  const pending: VersionScanStatus = {
    versionId: 13,
    state: 'pending',
    scan: null,
    job: { state: 'running', attempts: 1, maxAttempts: 3, lastError: null },
  };
  const held: VersionScanStatus = {
    versionId: 12,
    state: 'quarantined',
    scan: { ...scan([KEY, BINARY]), decision: null },
    job: { state: 'done', attempts: 1, maxAttempts: 3, lastError: null },
  };
  const rejected: VersionScanStatus = {
    versionId: 11,
    state: 'rejected',
    scan: {
      ...scan([KEY]),
      decision: { action: 'reject', by: null, at: 0, reason: 'Ships a live key' },
    },
    job: null,
  };

  async function openVersions(scans: VersionScanStatus[]) {
    answers['GET /api/plugins/7/updates'] = [
      version(13, '1.3.0'),
      version(12, '1.2.0'),
      version(11, '1.1.0'),
      version(10, '1.0.0'),
    ];
    answers['GET /api/plugins/7/scans'] = { versions: scans };
    await openManagePage(plugin({}));
    await screen.findByRole('form', { name: 'Compatibility of version 1.0.0' });
  }
  const notice = (version: string) => screen.queryByRole('note', { name: `Scan of version ${version}` });

  it('shows why a held version is not offered, with each finding, and that a pending one will be once scanned', async () => {
    await openVersions([pending, held, rejected]);
    const heldNotice = await screen.findByRole('note', { name: 'Scan of version 1.2.0' });
    expect(within(heldNotice).getByRole('heading').textContent).toBe('Held: the scan found 2 problems');
    expect(
      within(heldNotice)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      `Secret (high) in config/deploy-key.pem: ${KEY.message}`,
      `Native binary (high) in icons/logo.png: ${BINARY.message}`,
    ]);
    expect(heldNotice.textContent).toContain('An administrator will release it or reject it');
    expect(heldNotice.textContent).toContain('fix these and upload a new version');

    const pendingNotice = notice('1.3.0')!;
    expect(within(pendingNotice).getByRole('heading').textContent).toBe('Scan pending');
    expect(pendingNotice.textContent).toContain('It is offered once the scan passes');

    const rejectedNotice = notice('1.1.0')!;
    expect(within(rejectedNotice).getByRole('heading').textContent).toBe('Rejected after scan');
    expect(rejectedNotice.textContent).toContain('(Ships a live key): it will not be offered');

    // A version whose scan passed says nothing about it; all the scans came in one call.
    expect(notice('1.0.0')).toBeNull();
    expect(calls.filter((call) => call.path === '/api/plugins/7/scans')).toHaveLength(1);
  });

  it('looks again while a scan is running, and drops the notice once it has passed', async () => {
    await openVersions([pending]);
    await screen.findByRole('note', { name: 'Scan of version 1.3.0' });
    answers['GET /api/plugins/7/scans'] = { versions: [] };
    await vi.waitFor(() => expect(notice('1.3.0')).toBeNull(), { timeout: 6000 });
    expect(calls.filter((call) => call.path === '/api/plugins/7/scans')).toHaveLength(2);
  });
});

describe('the links of an item', () => {
  const withLinks = () =>
    plugin({}, [], {
      urls: {
        url: 'https://example.com',
        sourceCodeUrl: '',
        bugtrackerUrl: '',
        docUrl: '',
        forumUrl: '',
        licenseUrl: '',
        privacyPolicyUrl: '',
        donationLinks: [{ name: 'Sponsors', url: 'https://sponsors.example.com' }],
        customContacts: [{ title: 'Chat', link: 'https://chat.example.com' }],
      },
    });

  async function openLinks() {
    await openManagePage(withLinks(), '/dashboard/plugin/7?section=links');
    return screen.getByRole('form', { name: 'Links' });
  }

  it('sends every link, the donation links and custom contacts it edits, and says so', async () => {
    const form = await openLinks();
    expect((within(form).getByRole('textbox', { name: 'Name 1' }) as HTMLInputElement).value).toBe(
      'Sponsors',
    );
    fireEvent.input(within(form).getByRole('textbox', { name: 'Source code' }), {
      target: { value: ' https://git.example.com/rainbow ' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Add a donation link' }));
    fireEvent.input(within(form).getByRole('textbox', { name: 'Name 2' }), { target: { value: 'Coffee' } });
    fireEvent.input(within(form).getByRole('textbox', { name: 'Address 2' }), {
      target: { value: 'https://coffee.example.com' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Remove custom contact 1' }));
    answers['PUT /api/plugins/7/urls'] = {};
    fireEvent.click(within(form).getByRole('button', { name: 'Save links' }));
    await vi.waitFor(() => expect(toasts()).toContain('Links saved'));
    expect(calls.find((call) => call.method === 'PUT')).toEqual({
      method: 'PUT',
      path: '/api/plugins/7/urls',
      body: {
        url: 'https://example.com',
        bugtrackerUrl: '',
        forumUrl: '',
        licenseUrl: '',
        sourceCodeUrl: 'https://git.example.com/rainbow',
        docUrl: '',
        privacyPolicyUrl: '',
        donationLinks: [
          { name: 'Sponsors', url: 'https://sponsors.example.com' },
          { name: 'Coffee', url: 'https://coffee.example.com' },
        ],
        customContacts: [],
      },
    });
  });

  it('asks for the missing half of a row before sending anything', async () => {
    const form = await openLinks();
    fireEvent.click(within(form).getByRole('button', { name: 'Add a custom contact' }));
    fireEvent.input(within(form).getByRole('textbox', { name: 'Title 2' }), { target: { value: 'Mail' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save links' }));
    expect(within(form).getByRole('alert').textContent).toBe(
      'Custom contact 2 needs a title and an address.',
    );
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
  });

  it("shows the server's reason when it refuses a link", async () => {
    const form = await openLinks();
    failures['PUT /api/plugins/7/urls'] = { status: 400, message: 'The donation link 1 is not an address.' };
    fireEvent.click(within(form).getByRole('button', { name: 'Save links' }));
    await vi.waitFor(() => expect(toasts()).toContain('Error: The donation link 1 is not an address.'));
    expect((within(form).getByRole('button', { name: 'Save links' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
  });
});

describe('the compatible products of an item', () => {
  async function openProducts(current: string[]) {
    answers['GET /api/plugins/7/compatible-products'] = current;
    await openManagePage(plugin({}), '/dashboard/plugin/7?section=versions');
    return screen.findByRole('form', { name: 'Compatible products' });
  }

  it("ticks the item's products among its family's and saves the ones ticked", async () => {
    const form = await openProducts(['PYCHARM']);
    const box = (name: string) => within(form).getByRole('checkbox', { name }) as HTMLInputElement;
    expect(box('PyCharm').checked).toBe(true);
    expect(box('IntelliJ IDEA Ultimate').checked).toBe(false);
    // Products of other families are not offered to an IntelliJ plugin.
    expect(within(form).queryByRole('checkbox', { name: 'Space' })).toBeNull();
    fireEvent.click(box('IntelliJ IDEA Ultimate'));
    answers['POST /api/plugins/7/compatibility'] = {};
    fireEvent.click(within(form).getByRole('button', { name: 'Save compatible products' }));
    await vi.waitFor(() => expect(toasts()).toContain('Compatible products saved'));
    expect(calls).toContainEqual({
      method: 'POST',
      path: '/api/plugins/7/compatibility',
      body: ['IDEA', 'PYCHARM'],
    });
  });

  it('shows the reason of a refusal and only "Internal Error" for a server fault', async () => {
    const form = await openProducts([]);
    failures['POST /api/plugins/7/compatibility'] = { status: 400, message: 'Unknown IDE products: X.' };
    fireEvent.click(within(form).getByRole('button', { name: 'Save compatible products' }));
    await vi.waitFor(() => expect(toasts()).toContain('Error: Unknown IDE products: X.'));
    failures['POST /api/plugins/7/compatibility'] = { status: 503, message: 'database down at 10.0.0.3' };
    fireEvent.click(within(form).getByRole('button', { name: 'Save compatible products' }));
    await vi.waitFor(() => expect(toasts()).toContain('Internal Error'));
    expect(toasts().join(' ')).not.toContain('database');
  });
});

describe('the screenshots of an item', () => {
  const url = (id: number) => `/api/plugins/7/screenshots/${id}`;
  const shownOrder = () =>
    [...screen.getByRole('list', { name: 'Current screenshots' }).querySelectorAll('img')].map((image) =>
      image.getAttribute('src'),
    );

  async function openMedia() {
    await openManagePage(
      plugin({}, [], { screenshots: [{ url: url(11) }, { url: url(12) }, { url: url(13) }] }),
      '/dashboard/plugin/7?section=media',
    );
  }

  it('moves a screenshot up by sending the new order, and shows it', async () => {
    await openMedia();
    expect(shownOrder()).toEqual([url(11), url(12), url(13)]);
    expect((screen.getByRole('button', { name: 'Move screenshot 1 up' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    answers['PUT /api/plugins/7/screenshots'] = [12, 11, 13].map((id) => ({ id, url: url(id) }));
    fireEvent.click(screen.getByRole('button', { name: 'Move screenshot 2 up' }));
    await vi.waitFor(() => expect(toasts()).toContain('Screenshot 2 moved up'));
    expect(calls).toContainEqual({
      method: 'PUT',
      path: '/api/plugins/7/screenshots',
      body: [url(12), url(11), url(13)],
    });
    expect(shownOrder()).toEqual([url(12), url(11), url(13)]);
  });

  it('deletes a screenshot only once confirmed', async () => {
    await openMedia();
    const confirm = stubConfirm(false);
    fireEvent.click(screen.getByRole('button', { name: 'Delete screenshot 3' }));
    expect(confirm).toHaveBeenCalledWith(expect.stringMatching(/^Delete screenshot 3\?/));
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);

    confirm.mockReturnValue(true);
    answers['PUT /api/plugins/7/screenshots'] = [11, 12].map((id) => ({ id, url: url(id) }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete screenshot 3' }));
    await vi.waitFor(() => expect(toasts()).toContain('Screenshot 3 deleted'));
    expect(calls).toContainEqual({
      method: 'PUT',
      path: '/api/plugins/7/screenshots',
      body: [url(11), url(12)],
    });
    expect(shownOrder()).toEqual([url(11), url(12)]);
  });

  it('keeps the order shown when the server refuses it', async () => {
    await openMedia();
    failures['PUT /api/plugins/7/screenshots'] = {
      status: 400,
      message: '"/api/plugins/7/screenshots/12" is not a screenshot of this plugin.',
    };
    fireEvent.click(screen.getByRole('button', { name: 'Move screenshot 1 down' }));
    await vi.waitFor(() =>
      expect(toasts()).toContain(
        'Error: "/api/plugins/7/screenshots/12" is not a screenshot of this plugin.',
      ),
    );
    expect(shownOrder()).toEqual([url(11), url(12), url(13)]);
  });
});

describe('the documentation tabs of an item', () => {
  const tab = (tabName: string, urlSuffix: string) => ({
    tabName,
    urlSuffix,
    path: urlSuffix,
    contentUrl: `/api/plugins/7/documentation/${urlSuffix}`,
    generateToc: false,
  });

  async function openMedia() {
    await openManagePage(
      plugin({}, [], { customTabs: [tab('Getting started', 'getting-started'), tab('FAQ', 'faq')] }),
      '/dashboard/plugin/7?section=media',
    );
    return screen.getByRole('list', { name: 'Current documentation tabs' });
  }

  it('deletes a tab once confirmed and no longer lists it', async () => {
    const list = await openMedia();
    stubConfirm(true);
    answers['DELETE /api/plugins/7/documentation/faq'] = {};
    answers['GET /api/plugins/7'] = plugin({}, [], {
      customTabs: [tab('Getting started', 'getting-started')],
    });
    fireEvent.click(within(list).getByRole('button', { name: 'Delete the documentation tab FAQ' }));
    await vi.waitFor(() => expect(toasts()).toContain('Documentation tab "FAQ" deleted'));
    expect(calls).toContainEqual({
      method: 'DELETE',
      path: '/api/plugins/7/documentation/faq',
      body: undefined,
    });
    await vi.waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'Current documentation tabs' }))
          .getAllByRole('listitem')
          .map((item) => item.querySelector('strong')?.textContent),
      ).toEqual(['Getting started']),
    );
  });

  it('keeps the tab when the deletion is not confirmed or fails', async () => {
    const list = await openMedia();
    const confirm = stubConfirm(false);
    fireEvent.click(within(list).getByRole('button', { name: 'Delete the documentation tab FAQ' }));
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    confirm.mockReturnValue(true);
    failures['DELETE /api/plugins/7/documentation/faq'] = { status: 500, message: 'stack trace' };
    fireEvent.click(within(list).getByRole('button', { name: 'Delete the documentation tab FAQ' }));
    await vi.waitFor(() => expect(toasts()).toEqual(['Internal Error']));
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
  });
});

describe('the order of my items', () => {
  async function openOrder() {
    answers['GET /api/users/1/plugins'] = [
      summary(1, 'Alpha', {}),
      summary(2, 'Beta', {}, 'space'),
      summary(3, 'Gamma', {}),
    ];
    renderAt('/dashboard', '/dashboard', <DashboardPage />);
    await screen.findByRole('list', { name: 'My items' });
    fireEvent.click(screen.getByRole('button', { name: 'Change the order' }));
    return screen.findByRole('list', { name: 'Order of my items' });
  }
  const names = (list: HTMLElement) =>
    within(list)
      .getAllByRole('listitem')
      .map((item) => item.querySelector('strong')?.textContent);

  it('moves an item and saves the whole order, first first', async () => {
    const list = await openOrder();
    expect(names(list)).toEqual(['Alpha', 'Beta', 'Gamma']);
    // Each item is called by its family's noun.
    expect(within(list).getByText('application')).toBeTruthy();
    const save = screen.getByRole('button', { name: 'Save order' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    fireEvent.click(within(list).getByRole('button', { name: 'Move Gamma up' }));
    fireEvent.click(within(list).getByRole('button', { name: 'Move Alpha down' }));
    expect(names(list)).toEqual(['Gamma', 'Alpha', 'Beta']);
    answers['PUT /api/plugins/order'] = {};
    fireEvent.click(save);
    await vi.waitFor(() => expect(toasts()).toContain('Order saved'));
    expect(calls).toContainEqual({ method: 'PUT', path: '/api/plugins/order', body: [3, 1, 2] });
    expect(screen.queryByRole('list', { name: 'Order of my items' })).toBeNull();
    // My items is read again, to show the new order.
    await vi.waitFor(() =>
      expect(calls.filter((call) => call.path === '/api/users/1/plugins').length).toBeGreaterThanOrEqual(3),
    );
  });

  it('keeps the order open with the reason when the server refuses it', async () => {
    const list = await openOrder();
    fireEvent.click(within(list).getByRole('button', { name: 'Move Beta up' }));
    failures['PUT /api/plugins/order'] = { status: 400, message: 'You do not manage the plugins 2.' };
    fireEvent.click(screen.getByRole('button', { name: 'Save order' }));
    await vi.waitFor(() => expect(toasts()).toContain('Error: You do not manage the plugins 2.'));
    expect(names(screen.getByRole('list', { name: 'Order of my items' }))).toEqual([
      'Beta',
      'Alpha',
      'Gamma',
    ]);
  });
});
