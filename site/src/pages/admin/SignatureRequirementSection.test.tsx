import { ToastProvider } from '@marketplace/ui';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubFetch } from '../../test-support/fetch-stub';
import { SignatureRequirementSection } from './SignatureRequirementSection';

vi.mock('../../auth/AuthProvider', () => ({
  useAuth: () => ({
    user: { id: 1, name: 'Admin', login: 'admin', email: null, banned: false, isAdmin: true },
    available: true,
    signIn: () => Promise.resolve(),
    signOut: () => Promise.resolve(),
  }),
}));

type Call = { method: string; path: string; body: unknown };
let calls: Call[];
let requirements: {
  vendor: { id: number; name: string };
  requiredBy: string;
  requiredAt: number;
  reason: string | null;
}[];

beforeEach(() => {
  calls = [];
  requirements = [
    {
      vendor: { id: 7, name: 'Acme' },
      requiredBy: 'admin',
      requiredAt: Date.UTC(2026, 0, 5),
      reason: 'Has a CA',
    },
  ];
  stubFetch(({ url, method, body }) => {
    calls.push({ method, path: url.pathname, body });
    if (method === 'GET' && url.pathname === '/api/admin/trust/signature-requirements') {
      return jsonResponse(200, { requirements, trustedRoots: [] });
    }
    if (method === 'POST' && url.pathname === '/api/admin/trust/signature-requirements') {
      const vendor = (body as { vendor: string }).vendor;
      if (vendor === 'Acme')
        return jsonResponse(409, { type: 'error', message: 'Acme must sign its plugins already.' });
      const added = { vendor: { id: 8, name: vendor }, requiredBy: 'admin', requiredAt: 0, reason: null };
      requirements = [...requirements, added];
      return jsonResponse(200, added);
    }
    if (method === 'POST' && url.pathname === '/api/admin/trust/signature-requirements/7/lift') {
      requirements = requirements.filter((requirement) => requirement.vendor.id !== 7);
      return jsonResponse(200, { vendor: { id: 7, name: 'Acme' } });
    }
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderSection() {
  return render(
    <ToastProvider>
      <MemoryRouter>
        <SignatureRequirementSection />
      </MemoryRouter>
    </ToastProvider>,
  );
}

describe('SignatureRequirementSection', () => {
  it('lists the vendors that must sign, requires another and lifts one', async () => {
    renderSection();
    const table = await screen.findByRole('table', { name: 'Vendors that must sign' });
    expect(within(table).getByRole('row', { name: /Acme/ }).textContent).toContain('Has a CA');
    expect(screen.getByText(/SIGNATURE_TRUSTED_ROOTS_FILE is not set/)).toBeTruthy();

    fireEvent.input(screen.getByLabelText(/^Name of the vendor that must sign/), {
      target: { value: ' Beta Tools ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Require signatures' }));
    await screen.findByText('Beta Tools must sign its plugins from now on.');
    expect(calls).toContainEqual({
      method: 'POST',
      path: '/api/admin/trust/signature-requirements',
      body: { vendor: 'Beta Tools' },
    });
    await waitFor(() => expect(within(table).getByRole('row', { name: /Beta Tools/ })).toBeTruthy());

    fireEvent.click(screen.getByRole('button', { name: 'Stop requiring signatures of Acme' }));
    await screen.findByText('Acme no longer has to sign its plugins.');
    await waitFor(() => expect(within(table).queryByRole('row', { name: /Acme/ })).toBeNull());
  });

  it("shows the server's refusal beside the form", async () => {
    renderSection();
    fireEvent.input(await screen.findByLabelText(/^Name of the vendor that must sign/), {
      target: { value: 'Acme' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Require signatures' }));
    expect(await screen.findByText('Acme must sign its plugins already.')).toBeTruthy();
  });
});
