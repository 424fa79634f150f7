import { ToastProvider } from '@marketplace/ui';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubFetch } from '../../test-support/fetch-stub';
import { ScanQueueSection } from './ScanQueueSection';

const entry = (state: string) => ({
  versionId: 12,
  version: '1.0.0',
  channel: '',
  uploaded: Date.UTC(2026, 10, 20),
  approvalState: 'approved',
  plugin: { id: 5, name: 'Leaky Tool', xmlId: 'com.acme.leaky', vendor: 'Acme' },
  state,
  scan: {
    id: 3,
    verdict: 'quarantined',
    scannedAt: Date.UTC(2026, 10, 20),
    engines: ['built-in'],
    archiveSha256: 'ab'.repeat(32),
    entriesScanned: 4,
    findings: [
      {
        kind: 'secret',
        severity: 'high',
        path: 'config/deploy-key.pem',
        message: 'A private key (RSA PRIVATE KEY) on line 1.',
      },
    ],
    decision:
      state === 'released'
        ? { action: 'release', by: 'admin', at: Date.UTC(2026, 10, 21), reason: 'Revoked test key' }
        : null,
  },
  job: { state: 'done', attempts: 1, maxAttempts: 3, lastError: null },
});

type Call = { method: string; path: string; query: string; body: unknown };
let calls: Call[];
let current: string;

beforeEach(() => {
  calls = [];
  current = 'quarantined';
  stubFetch(({ url, method, body }) => {
    calls.push({ method, path: url.pathname, query: url.search, body });
    if (method === 'GET' && url.pathname === '/api/admin/trust/scans') {
      const wanted = url.searchParams.get('state');
      const entries = wanted === current ? [entry(current)] : [];
      return jsonResponse(200, {
        total: entries.length,
        entries,
        quarantineSeverity: 'high',
        engines: ['built-in'],
      });
    }
    if (method === 'POST' && url.pathname === '/api/admin/trust/scans/12/release') {
      current = 'released';
      return jsonResponse(200, entry('released'));
    }
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the scanned versions of the Trust page', () => {
  it('shows a quarantined version with its findings and releases it with a reason', async () => {
    render(
      <MemoryRouter>
        <ToastProvider>
          <ScanQueueSection />
        </ToastProvider>
      </MemoryRouter>,
    );
    const table = await screen.findByRole('table', { name: 'Scanned versions' });
    const row = within(table).getByRole('row', { name: /Leaky Tool/ });
    expect(row.textContent).toContain('Quarantined');
    expect(row.textContent).toContain('config/deploy-key.pem');
    expect(row.textContent).toContain('A private key (RSA PRIVATE KEY) on line 1.');
    expect(screen.getByText(/findings of severity high or above quarantine/)).toBeTruthy();

    fireEvent.input(within(row).getByLabelText('Reason (optional)'), {
      target: { value: 'Revoked test key' },
    });
    fireEvent.click(within(row).getByRole('button', { name: 'Release 1.0.0 of Leaky Tool' }));
    await screen.findByText('Version 1.0.0 of Leaky Tool is released: it is offered again.');
    expect(calls).toContainEqual({
      method: 'POST',
      path: '/api/admin/trust/scans/12/release',
      query: '',
      body: { reason: 'Revoked test key' },
    });
    // Gone from the quarantined list; the released list shows who let it through and why.
    await screen.findByText('No versions.');
    fireEvent.click(screen.getByRole('button', { name: 'Released' }));
    const released = await screen.findByRole('table', { name: 'Scanned versions' });
    await waitFor(() => expect(released.textContent).toContain('Released by admin: Revoked test key'));
  });
});
