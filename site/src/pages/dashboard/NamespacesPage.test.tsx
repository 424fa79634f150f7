import { ToastProvider } from '@marketplace/ui';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import NamespacesPage from './NamespacesPage';

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

const item = (id: number, vendor: string) => ({
  id,
  xmlId: `com.example.p${id}`,
  name: `Plugin ${id}`,
  link: `/plugin/${id}`,
  family: 'intellij',
  preview: '',
  icon: '',
  downloads: 0,
  rating: 0,
  pricingModel: 'FREE',
  vendor: { name: vendor, url: '' },
  tags: [],
  isTheme: false,
  cdate: 0,
  updateDate: 0,
  downloadStatistics: [],
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
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const method = init?.method ?? 'GET';
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
      calls.push({ method, path: url.pathname, body });
      const json = (status: number, value: unknown) =>
        Promise.resolve(
          new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } }),
        );
      if (method === 'GET' && url.pathname === '/api/trust/namespaces/mine') return json(200, claims);
      if (method === 'GET' && url.pathname === '/api/users/5/plugins') {
        return json(200, [item(1, 'Acme'), item(2, 'Gamma'), item(3, '')]);
      }
      if (method === 'POST' && url.pathname === '/api/trust/namespaces') {
        if (claimAnswer) return json(claimAnswer.status, claimAnswer.body);
        const { prefix, vendor } = body as { prefix: string; vendor: string };
        const created = claim(3, prefix, vendor, 'pending');
        claims = [...claims, created];
        return json(200, created);
      }
      return json(404, { type: 'error', message: 'Not here' });
    }),
  );
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
    fireEvent.change(screen.getByLabelText(/^Prefix/), { target: { value: ' Io.Gamma ' } });
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
    fireEvent.change(await screen.findByLabelText(/^Prefix/), { target: { value: 'acme' } });
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
    fireEvent.change(await screen.findByLabelText(/^Prefix/), { target: { value: 'com.jetbrains.tools.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Claim' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The namespace com.jetbrains. is reserved by the marketplace: only an administrator can grant com.jetbrains.tools.',
    );
    expect(posts()).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('row', { name: /com\.jetbrains/ })).toBeNull());
  });
});
