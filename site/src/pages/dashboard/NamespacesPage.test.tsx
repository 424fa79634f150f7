import { ToastProvider } from '@marketplace/ui';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubFetch } from '../../test-support/fetch-stub';
import NamespacesPage from './NamespacesPage';
import { pluginSummaryFixture } from '../../test-support/plugin-summary';

vi.mock('../../auth/AuthProvider', () => ({
  useAuth: () => ({
    user: { id: 5, name: 'Alice', login: 'alice', email: null, banned: false, isAdmin: false },
    available: true,
    signIn: () => Promise.resolve(),
    signOut: () => Promise.resolve(),
  }),
}));

const claim = (id: number, prefix: string, vendor: string, state: string, reason: string | null = null) => ({
  id,
  prefix,
  vendor: { id: id + 10, name: vendor },
  state,
  dnsRecord: {
    name: `_marketplace-namespace.${prefix.slice(0, -1).split('.').reverse().join('.')}`,
    value: `marketplace-namespace=token${id}`,
  },
  requestedBy: 'alice',
  requestedAt: 0,
  decidedBy: state === 'pending' ? null : 'admin',
  decidedAt: state === 'pending' ? null : 1,
  reason,
});

const item = (id: number, vendor: string) =>
  pluginSummaryFixture(id, {
    xmlId: `com.example.p${id}`,
    name: `Plugin ${id}`,
    vendor: { name: vendor, url: '' },
  });

type Call = { method: string; path: string; body: unknown };
let calls: Call[];
let claims: ReturnType<typeof claim>[];
let claimAnswer: { status: number; body: unknown } | undefined;

beforeEach(() => {
  calls = [];
  claims = [
    claim(1, 'com.acme.', 'Acme', 'pending'),
    claim(2, 'org.beta.', 'Beta', 'refused', 'No such domain'),
  ];
  claimAnswer = undefined;
  stubFetch(({ url, method, body }) => {
    calls.push({ method, path: url.pathname, body });
    if (method === 'GET' && url.pathname === '/api/trust/namespaces/mine') return jsonResponse(200, claims);
    if (method === 'GET' && url.pathname === '/api/users/5/plugins') {
      return jsonResponse(200, [item(1, 'Acme'), item(2, 'Gamma'), item(3, '')]);
    }
    if (method === 'POST' && url.pathname === '/api/trust/namespaces') {
      if (claimAnswer) return jsonResponse(claimAnswer.status, claimAnswer.body);
      const { prefix, vendor } = body as { prefix: string; vendor: string };
      const created = claim(3, prefix, vendor, 'pending');
      claims = [...claims, created];
      return jsonResponse(200, created);
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
      <MemoryRouter initialEntries={['/dashboard/namespaces']}>
        <NamespacesPage />
      </MemoryRouter>
    </ToastProvider>,
  );
}

const posts = () => calls.filter((call) => call.method === 'POST');

describe('NamespacesPage', () => {
  it('lists the claims with their state and the TXT record to publish, and copies it', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderPage();
    const table = await screen.findByRole('table', { name: 'Your claims' });
    const acme = within(table).getByRole('row', { name: /com\.acme\./ });
    expect(acme.textContent).toContain('Acme');
    expect(acme.textContent).toContain('Waiting');
    expect(acme.textContent).toContain('_marketplace-namespace.acme.com');
    expect(acme.textContent).toContain('marketplace-namespace=token1');
    const beta = within(table).getByRole('row', { name: /org\.beta\./ });
    expect(beta.textContent).toContain('Refused');
    expect(beta.textContent).toContain('No such domain');
    expect(document.title).toContain('Id prefixes');

    fireEvent.click(within(acme).getByRole('button', { name: 'Copy the record value of com.acme.' }));
    await screen.findByText('Copied marketplace-namespace=token1');
    expect(writeText).toHaveBeenCalledWith('marketplace-namespace=token1');
  });

  it('claims a prefix for a chosen vendor and shows the new claim', async () => {
    renderPage();
    const vendor = await screen.findByLabelText(/^Vendor/);
    // The vendors of the user's items and of their claims, without the items that name none.
    expect([...(vendor as HTMLSelectElement).options].map((option) => option.value)).toEqual([
      'Acme',
      'Beta',
      'Gamma',
    ]);
    fireEvent.change(vendor, { target: { value: 'Gamma' } });
    fireEvent.input(screen.getByLabelText(/^Prefix/), { target: { value: ' Io.Gamma ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Claim' }));

    await screen.findByText('io.gamma. is claimed for Gamma');
    expect(posts()).toEqual([
      { method: 'POST', path: '/api/trust/namespaces', body: { prefix: 'io.gamma.', vendor: 'Gamma' } },
    ]);
    const row = await screen.findByRole('row', { name: /io\.gamma\./ });
    expect(row.textContent).toContain('_marketplace-namespace.gamma.io');
    expect(row.textContent).toContain('Waiting');
    expect((screen.getByLabelText(/^Prefix/) as HTMLInputElement).value).toBe('');
  });

  it('refuses a malformed prefix before sending it', async () => {
    renderPage();
    fireEvent.input(await screen.findByLabelText(/^Prefix/), { target: { value: 'acme' } });
    fireEvent.click(screen.getByRole('button', { name: 'Claim' }));
    expect((await screen.findByRole('alert')).textContent).toContain('"acme" is not an id prefix');
    expect(posts()).toEqual([]);
  });

  it("shows the server's refusal beside the form", async () => {
    claimAnswer = {
      status: 400,
      body: {
        type: 'error',
        message:
          'The namespace com.jetbrains. is reserved by the marketplace: only an administrator can grant com.jetbrains.tools.',
      },
    };
    renderPage();
    fireEvent.input(await screen.findByLabelText(/^Prefix/), { target: { value: 'com.jetbrains.tools.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Claim' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The namespace com.jetbrains. is reserved by the marketplace: only an administrator can grant com.jetbrains.tools.',
    );
    expect(posts()).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('row', { name: /com\.jetbrains/ })).toBeNull());
  });
});
