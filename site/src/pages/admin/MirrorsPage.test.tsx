import { ToastProvider } from '@marketplace/ui';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubFetch } from '../../test-support/fetch-stub';
import MirrorsPage from './MirrorsPage';

vi.mock('../../auth/AuthProvider', () => ({
  useAuth: () => ({
    user: { id: 1, name: 'Admin', login: 'admin', email: null, banned: false, isAdmin: true },
    available: true,
    signIn: () => Promise.resolve(),
    signOut: () => Promise.resolve(),
  }),
}));

const upstream = {
  id: 3,
  baseUrl: 'https://plugins.example.org',
  host: 'plugins.example.org',
  pluginIds: [],
  allPlugins: true,
  builds: ['IU-243.28141.18'],
  intervalSeconds: 3600,
  enabled: true,
  createdAt: 0,
  nextSyncAt: Date.UTC(2026, 0, 1, 12),
  lastSyncAt: Date.UTC(2026, 0, 1, 11),
  lastOutcome: 'failed',
  lastSummary: 'imported 0 version(s), 0 already here',
  lastError:
    'The answer of https://plugins.example.org/plugins/list/?build=IU-243.28141.18 is not a plugin repository feed.',
  mirroredItems: 0,
  recentRuns: [],
};

type Call = { method: string; path: string; body: unknown };
let calls: Call[];

beforeEach(() => {
  calls = [];
  stubFetch(({ url, method, body }) => {
    calls.push({ method, path: url.pathname, body });
    if (method === 'GET' && url.pathname === '/api/admin/trust/mirrors') {
      return jsonResponse(200, { upstreams: [upstream], defaultBuilds: ['IU-262.10315.125'] });
    }
    if (method === 'POST' && url.pathname === '/api/admin/trust/mirrors') {
      const { baseUrl, builds } = body as { baseUrl: string; builds: string[] };
      if (builds.includes('soon')) {
        return jsonResponse(400, {
          type: 'error',
          message: '"soon" is not an IDE build number: write it like IU-243.28141.18.',
        });
      }
      if (baseUrl.includes('broken')) {
        return jsonResponse(500, {
          type: 'error',
          message: 'TypeError: cannot read properties of undefined',
        });
      }
      return jsonResponse(200, { ...upstream, id: 4, baseUrl, host: new URL(baseUrl).host });
    }
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPage() {
  return render(
    <ToastProvider>
      <MemoryRouter>
        <MirrorsPage />
      </MemoryRouter>
    </ToastProvider>,
  );
}

describe('the mirrors page', () => {
  it("lists each upstream with its last sync's error", async () => {
    render(
      <ToastProvider>
        <MemoryRouter>
          <MirrorsPage />
        </MemoryRouter>
      </ToastProvider>,
    );
    const table = await screen.findByRole('table', { name: 'Mirrored marketplaces' });
    const row = within(table).getByRole('row', { name: /plugins\.example\.org/ });
    expect(within(row).getByText('Failed')).toBeTruthy();
    expect(within(row).getByText(/is not a plugin repository feed/)).toBeTruthy();
    expect(within(row).getByText(/Every plugin · builds IU-243\.28141\.18 · every 1 h/)).toBeTruthy();
  });

  it("sends a new upstream and shows the server's refusal", async () => {
    render(
      <ToastProvider>
        <MemoryRouter>
          <MirrorsPage />
        </MemoryRouter>
      </ToastProvider>,
    );
    fireEvent.input(await screen.findByLabelText(/Address/), {
      target: { value: 'https://plugins.jetbrains.com' },
    });
    fireEvent.input(screen.getByLabelText(/Plugin ids/), { target: { value: 'com.a\ncom.b, com.c' } });
    fireEvent.input(screen.getByLabelText(/IDE builds/), { target: { value: 'IU-243.1, soon' } });
    fireEvent.input(screen.getByLabelText(/Sync every/), { target: { value: '30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Mirror it' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      '"soon" is not an IDE build number: write it like IU-243.28141.18.',
    );
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
        baseUrl: 'https://plugins.jetbrains.com',
        pluginIds: ['com.a', 'com.b', 'com.c'],
        builds: ['IU-243.1', 'soon'],
        intervalSeconds: 1800,
      }),
    );
  });

  it('says a new upstream is mirrored, empties the form and lists the upstreams again', async () => {
    renderPage();
    const address = await screen.findByLabelText(/Address/);
    fireEvent.input(address, { target: { value: 'https://plugins.jetbrains.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Mirror it' }));
    await screen.findByText('plugins.jetbrains.com is mirrored: the next run of the mirror job syncs it.');
    expect((address as HTMLInputElement).value).toBe('');
    expect(screen.queryByRole('alert')).toBeNull();
    await waitFor(() =>
      expect(
        calls.filter((call) => call.method === 'GET' && call.path === '/api/admin/trust/mirrors'),
      ).toHaveLength(2),
    );
  });

  it("shows a server fault as 'Internal Error' alone and keeps what was typed", async () => {
    renderPage();
    const address = await screen.findByLabelText(/Address/);
    fireEvent.input(address, { target: { value: 'https://broken.example.org' } });
    fireEvent.click(screen.getByRole('button', { name: 'Mirror it' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Internal Error');
    expect((address as HTMLInputElement).value).toBe('https://broken.example.org');
    expect((screen.getByRole('button', { name: 'Mirror it' }) as HTMLButtonElement).disabled).toBe(false);
  });
});
