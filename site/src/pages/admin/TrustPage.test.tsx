import { ToastProvider } from '@marketplace/ui';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubFetch } from '../../test-support/fetch-stub';
import TrustPage from './TrustPage';

vi.mock('../../auth/AuthProvider', () => ({
  useAuth: () => ({
    user: { id: 1, name: 'Admin', login: 'admin', email: null, banned: false, isAdmin: true },
    available: true,
    signIn: () => Promise.resolve(),
    signOut: () => Promise.resolve(),
  }),
}));

const claim = (id: number, prefix: string, state: string) => ({
  id,
  prefix,
  vendor: { id: 7, name: 'Acme' },
  state,
  dnsRecord: {
    name: `_marketplace-namespace.${prefix.split('.')[1]}.com`,
    value: `marketplace-namespace=t${id}`,
  },
  requestedBy: 'alice',
  requestedAt: 0,
  decidedBy: state === 'pending' ? null : 'admin',
  decidedAt: state === 'pending' ? null : 1,
  reason: null,
});

type Call = { method: string; path: string; body: unknown };
let calls: Call[];
let claims: ReturnType<typeof claim>[];

beforeEach(() => {
  calls = [];
  claims = [claim(1, 'com.acme.', 'pending')];
  stubFetch(({ url, method, body }) => {
    calls.push({ method, path: url.pathname, body });
    if (method === 'GET' && url.pathname === '/api/admin/trust/namespaces') {
      return jsonResponse(200, { reservedPrefixes: ['com.jetbrains.', 'com.intellij.'], claims });
    }
    if (method === 'GET' && url.pathname === '/api/admin/trust/namespaces/1/dns') {
      return jsonResponse(200, {
        name: '_marketplace-namespace.acme.com',
        value: 'marketplace-namespace=t1',
        records: ['v=spf1 -all'],
        found: false,
        error: null,
      });
    }
    const decided = /^\/api\/admin\/trust\/namespaces\/1\/(approve|refuse)$/.exec(url.pathname);
    if (method === 'POST' && decided) {
      claims = [{ ...claim(1, 'com.acme.', decided[1] === 'approve' ? 'approved' : 'refused') }];
      return jsonResponse(200, claims[0]);
    }
    if (method === 'POST' && url.pathname === '/api/admin/trust/namespaces') {
      return jsonResponse(409, {
        type: 'error',
        message: 'The namespace com.acme. already belongs to Acme.',
      });
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
      <MemoryRouter initialEntries={['/admin/trust']}>
        <TrustPage />
      </MemoryRouter>
    </ToastProvider>,
  );
}

describe('TrustPage', () => {
  it('lists the claims with the TXT record to check, and approves one with a reason', async () => {
    renderPage();
    const table = await screen.findByRole('table', { name: 'Claims and grants' });
    const row = within(table).getByRole('row', { name: /com\.acme\./ });
    expect(row.textContent).toContain('_marketplace-namespace.acme.com');
    expect(row.textContent).toContain('marketplace-namespace=t1');
    expect(row.textContent).toContain('Waiting');
    expect(screen.getByText('com.jetbrains.')).toBeTruthy();

    fireEvent.input(within(row).getByLabelText('Reason (optional)'), { target: { value: 'TXT seen' } });
    fireEvent.click(within(row).getByRole('button', { name: 'Approve com.acme. for Acme' }));
    await screen.findByText('The namespace com.acme. of Acme is approved.');
    expect(calls).toContainEqual({
      method: 'POST',
      path: '/api/admin/trust/namespaces/1/approve',
      body: { reason: 'TXT seen' },
    });
    await waitFor(() =>
      expect(within(table).getByRole('row', { name: /com\.acme\./ }).textContent).toContain('Approved'),
    );
    expect(screen.getByRole('button', { name: 'Revoke com.acme. for Acme' })).toBeTruthy();
  });

  it('shows what the DNS check found without deciding anything', async () => {
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Check the DNS record of com.acme.' }));
    await screen.findByText(/The expected record is not among the records found\./);
    expect(
      screen.getByRole('list', { name: 'TXT records at _marketplace-namespace.acme.com' }).textContent,
    ).toBe('v=spf1 -all');
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it("shows the server's refusal of a grant beside the form", async () => {
    renderPage();
    fireEvent.input(await screen.findByLabelText(/^Prefix/), { target: { value: 'com.acme.' } });
    fireEvent.input(screen.getByLabelText(/^Vendor/), { target: { value: 'Other' } });
    fireEvent.click(screen.getByRole('button', { name: 'Grant' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The namespace com.acme. already belongs to Acme.',
    );
  });
});
