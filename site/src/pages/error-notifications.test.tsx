import type { AdminPluginState, ApiTokenSummary, FeatureFlag, Plugin } from '@marketplace/api-client';
import { ToastProvider } from '@marketplace/ui';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import FeaturesPage from './admin/FeaturesPage';
import { ModerationActions } from './admin/ModerationActions';
import EditPluginPage from './dashboard/EditPluginPage';
import TokensPage from './dashboard/TokensPage';

// A signed-in administrator: the pages under test are for signed-in people.
vi.mock('../auth/AuthProvider', () => ({
  useAuth: () => ({
    user: { id: 1, name: 'Admin', login: 'admin', email: null, banned: false, isAdmin: true },
    available: true,
    signIn: () => Promise.resolve(),
    signOut: () => Promise.resolve(),
  }),
}));

/** What a failing server puts in its body: none of it may reach a visitor when the status is 5xx. */
const SERVER_DETAIL = 'relation "plugins" does not exist at db/client.ts:42';

type Answer = { status: number; body?: unknown };
/** The fake server's answers by "METHOD /path"; anything else is a 404. */
let answers: Record<string, Answer | (() => Answer)>;

beforeEach(() => {
  answers = {};
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const entry = answers[`${init?.method ?? 'GET'} ${url.pathname}`] ?? {
        status: 404,
        body: { message: 'Not here' },
      };
      const { status, body } = typeof entry === 'function' ? entry() : entry;
      return Promise.resolve(
        new Response(status === 204 ? null : JSON.stringify(body ?? {}), {
          status,
          headers: { 'content-type': 'application/json' },
        }),
      );
    }),
  );
  vi.stubGlobal('confirm', () => true);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderAt(path: string, route: string, page: ReactNode) {
  return render(
    <ToastProvider>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={route} element={page} />
        </Routes>
      </MemoryRouter>
    </ToastProvider>,
  );
}

/** The failure toast (role alert, from ui's ToastProvider) once it shows. */
async function failureToast(): Promise<HTMLElement> {
  return waitFor(() => {
    const toast = document.querySelector<HTMLElement>('.mp-toast--error');
    if (!toast) throw new Error('no failure toast yet');
    return toast;
  });
}

/** Spec §8: from 500 up the toast is the title 'Internal Error' alone, nothing of the answer's body. */
async function expectInternalErrorOnly(): Promise<void> {
  const toast = await failureToast();
  expect(toast.getAttribute('role')).toBe('alert');
  expect(toast.querySelector('.mp-toast__title')?.textContent).toBe('Internal Error');
  expect(toast.querySelector('.mp-toast__message')).toBeNull();
  expect(document.body.textContent).not.toContain(SERVER_DETAIL);
}

/** Spec §8: below 500 the toast is titled 'Error' and says the server's message. */
async function expectServerMessage(message: string): Promise<void> {
  const toast = await failureToast();
  expect(toast.querySelector('.mp-toast__title')?.textContent).toBe('Error');
  expect(toast.querySelector('.mp-toast__message')?.textContent).toBe(message);
}

const SERVER_FAULTS = [500, 502, 503] as const;

const plugin = {
  id: 7,
  removed: false,
  info: {
    id: 7,
    name: 'Rainbow Brackets',
    family: 'intellij',
    link: '/plugin/7-rainbow-brackets',
    approve: true,
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
  tags: [],
} as unknown as Plugin;

describe('the edit (manage) page', () => {
  beforeEach(() => {
    answers['GET /api/plugins/7'] = { status: 200, body: plugin };
  });

  async function saveDetails() {
    // The manage page opens on the section its address names.
    renderAt('/dashboard/plugin/7?section=details', '/dashboard/plugin/:pluginId', <EditPluginPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Save details' }));
  }

  it.each(SERVER_FAULTS)('shows only "Internal Error" when a save answers %i', async (status) => {
    answers['PUT /api/plugins/7'] = { status, body: { type: 'ERROR', message: SERVER_DETAIL } };
    await saveDetails();
    await expectInternalErrorOnly();
  });

  it("shows the server's message when a save answers 4xx", async () => {
    answers['PUT /api/plugins/7'] = { status: 400, body: { message: 'The name is too long.' } };
    await saveDetails();
    await expectServerMessage('The name is too long.');
  });

  it('shows only "Internal Error" when a lifecycle action answers 500', async () => {
    // A draft with its first version: Publish is offered.
    const lifecycle = {
      lifecycleState: 'draft',
      approved: false,
      blockState: 'none',
      modificationAllowed: true,
      hidden: false,
      pendingVersions: 1,
      versions: 1,
    };
    answers['GET /api/plugins/7'] = { status: 200, body: { ...plugin, lifecycle } };
    answers['POST /api/plugins/7/publish'] = { status: 500, body: { message: SERVER_DETAIL } };
    renderAt('/dashboard/plugin/7', '/dashboard/plugin/:pluginId', <EditPluginPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Publish' }));
    await expectInternalErrorOnly();
  });
});

describe('the tokens page', () => {
  const token: ApiTokenSummary = {
    id: 3,
    name: 'CI',
    scopes: ['upload'],
    hint: 'abcd',
    expiresAt: null,
  } as unknown as ApiTokenSummary;

  beforeEach(() => {
    answers['GET /api/users/me/tokens'] = { status: 200, body: [token] };
  });

  async function revoke() {
    renderAt('/dashboard/tokens', '/dashboard/tokens', <TokensPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke' }));
  }

  it.each(SERVER_FAULTS)('shows only "Internal Error" when revoking answers %i', async (status) => {
    answers['DELETE /api/users/me/tokens/3'] = { status, body: { message: SERVER_DETAIL } };
    await revoke();
    await expectInternalErrorOnly();
  });

  it("shows the server's message when revoking answers 4xx", async () => {
    answers['DELETE /api/users/me/tokens/3'] = {
      status: 409,
      body: { message: 'The token is already revoked.' },
    };
    await revoke();
    await expectServerMessage('The token is already revoked.');
  });

  it('says "Internal Error" next to the form, not the body, when creating answers 500', async () => {
    answers['POST /api/users/me/tokens'] = { status: 500, body: { message: SERVER_DETAIL } };
    renderAt('/dashboard/tokens', '/dashboard/tokens', <TokensPage />);
    fireEvent.input(await screen.findByLabelText('Name'), { target: { value: 'laptop' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Internal Error');
    expect(document.body.textContent).not.toContain(SERVER_DETAIL);
  });
});

describe("the admin item's moderation", () => {
  const state = {
    state: {
      id: 7,
      lifecycleState: 'published',
      approved: false,
      blockState: 'none',
      modificationAllowed: true,
      hasUnapprovedUpdate: false,
      listed: false,
    },
    name: 'Rainbow Brackets',
    xmlId: 'com.example.rainbow',
    family: 'intellij',
    actions: ['approve'],
    versions: [
      {
        id: 70,
        version: '1.0.0',
        channel: '',
        approvalState: 'pending',
        hidden: false,
        size: 10,
        uploaded: 0,
      },
    ],
    openReports: 0,
  } satisfies AdminPluginState;

  beforeEach(() => {
    answers['GET /api/admin/plugins/7/state'] = { status: 200, body: state };
  });

  function renderModeration() {
    renderAt('/admin?plugin=7', '/admin', <ModerationActions pluginId={7} onChanged={() => undefined} />);
  }

  it.each(SERVER_FAULTS)('shows only "Internal Error" when an action answers %i', async (status) => {
    answers['POST /api/plugins/7/approve'] = { status, body: { message: SERVER_DETAIL } };
    renderModeration();
    fireEvent.click(await screen.findByRole('button', { name: 'Approve' }));
    await expectInternalErrorOnly();
  });

  it("shows the server's message when an action answers 4xx", async () => {
    answers['POST /api/plugins/7/approve'] = {
      status: 409,
      body: { message: 'The plugin is already approved.' },
    };
    renderModeration();
    fireEvent.click(await screen.findByRole('button', { name: 'Approve' }));
    await expectServerMessage('The plugin is already approved.');
  });

  it('shows only "Internal Error" when the administrators\' download answers 502', async () => {
    answers['GET /api/admin/install'] = { status: 502, body: { message: SERVER_DETAIL } };
    renderModeration();
    const row = await screen.findByRole('row', { name: 'Version 1.0.0' });
    fireEvent.click(within(row).getByRole('button', { name: 'Download' }));
    await expectInternalErrorOnly();
  });

  it("shows the server's message when the administrators' download answers 404", async () => {
    answers['GET /api/admin/install'] = { status: 404, body: { message: 'Plugin 7 has no version 70.' } };
    renderModeration();
    const row = await screen.findByRole('row', { name: 'Version 1.0.0' });
    fireEvent.click(within(row).getByRole('button', { name: 'Download' }));
    await expectServerMessage('Plugin 7 has no version 70.');
  });
});

describe('the admin feature flags page', () => {
  const flag: FeatureFlag = {
    name: 'home-new-items',
    type: 'boolean',
    description: '',
    value: false,
    createdAt: 0,
    updatedAt: 0,
    updatedBy: null,
  };

  beforeEach(() => {
    answers['GET /api/features'] = { status: 200, body: [flag] };
  });

  async function turnOn() {
    renderAt('/admin/features', '/admin/features', <FeaturesPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Turn on home-new-items' }));
  }

  it.each(SERVER_FAULTS)('shows only "Internal Error" when a change answers %i', async (status) => {
    answers['PUT /api/features/home-new-items'] = { status, body: { message: SERVER_DETAIL } };
    await turnOn();
    await expectInternalErrorOnly();
  });

  it('says the page is for administrators when a change answers 403', async () => {
    answers['PUT /api/features/home-new-items'] = { status: 403, body: { message: 'Forbidden' } };
    await turnOn();
    await expectServerMessage('For administrators only.');
  });

  it("shows the server's message when a change answers another 4xx", async () => {
    answers['PUT /api/features/home-new-items'] = {
      status: 400,
      body: { message: 'A percentage is 0 to 100.' },
    };
    await turnOn();
    await expectServerMessage('A percentage is 0 to 100.');
  });
});
