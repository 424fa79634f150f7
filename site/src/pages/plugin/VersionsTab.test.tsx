import type { Plugin, PluginVersion } from '@marketplace/api-client';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { VersionsTab } from './VersionsTab';

vi.mock('../../auth/AuthProvider', () => ({
  useAuth: () => ({
    user: null,
    available: true,
    signIn: () => Promise.resolve(),
    signOut: () => Promise.resolve(),
  }),
}));

const plugin = { id: 42, info: { family: 'intellij' } } as unknown as Plugin;

function version(id: number, name: string, signature: PluginVersion['signature']): PluginVersion {
  return {
    id,
    pluginId: 42,
    pluginXmlId: 'com.example.rainbow',
    version: name,
    channel: '',
    since: '241',
    until: null,
    notes: '',
    cdate: Date.UTC(2026, 5, 1),
    size: 120_000,
    downloads: 3,
    fileName: `rainbow-${name}.zip`,
    dependencies: [],
    downloadUrl: `https://plugins.example.com/plugin/download?updateId=${id}`,
    signature,
  };
}

const certificate = (subject: string, fingerprint: string) => ({
  subject,
  issuer: subject,
  serialNumber: '01',
  fingerprint256: fingerprint,
  validFrom: Date.UTC(2025, 0, 1),
  validTo: Date.UTC(2045, 0, 1),
});

const versions: PluginVersion[] = [
  version(3, '2.1.0', {
    author: {
      signedBy: 'Example Vendor Signer',
      chain: [
        certificate('CN=Example Vendor Signer', 'AA:BB'),
        certificate('CN=Example Vendor Intermediate CA', 'CC:DD'),
        certificate('CN=Example Vendor Root CA', 'EE:FF'),
      ],
      algorithm: 'SHA256withRSA',
      selfSigned: false,
      expired: false,
      notYetValid: false,
      chainComplete: true,
      trusted: false,
      checkedAt: Date.UTC(2026, 5, 1),
    },
    countersigned: true,
    countersignedBy: '11:22',
    countersignProblem: null,
  }),
  version(2, '2.0.0', {
    author: {
      signedBy: 'Home Made',
      chain: [certificate('CN=Home Made', '12:34')],
      algorithm: 'SHA256withRSA',
      selfSigned: true,
      expired: true,
      notYetValid: false,
      chainComplete: true,
      trusted: false,
      checkedAt: Date.UTC(2026, 4, 1),
    },
    countersigned: true,
    countersignedBy: '11:22',
    countersignProblem: null,
  }),
  version(1, '1.0.0', {
    author: null,
    countersigned: true,
    countersignedBy: '11:22',
    countersignProblem: null,
  }),
  version(0, '0.9.0', null),
];

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const json = (value: unknown) =>
        Promise.resolve(
          new Response(JSON.stringify(value), {
            status: 200,
            headers: { 'content-type': 'application/json' },
          }),
        );
      if (url.pathname === '/api/plugins/42/channels') return json(['']);
      if (url.pathname === '/api/plugins/42/updates') return json(versions);
      return Promise.resolve(new Response('{}', { status: 404 }));
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('VersionsTab', () => {
  it('shows who signed each version and that the marketplace countersigned it', async () => {
    render(
      <MemoryRouter>
        <VersionsTab plugin={plugin} />
      </MemoryRouter>,
    );
    const table = await screen.findByRole('table');
    const row = (name: string) =>
      within(table).getByRole('row', { name: new RegExp(`^${name.replace(/\./g, '\\.')}`) });

    const signed = row('2.1.0');
    expect(within(signed).getByText(/^Signed by/).textContent).toBe('Signed by Example Vendor Signer');
    expect(
      within(signed).getByRole('list', { name: 'Certificate chain of Example Vendor Signer' }).textContent,
    ).toBe('Example Vendor SignerExample Vendor Intermediate CAExample Vendor Root CA');
    expect(signed.textContent).toContain('SHA-256 AA:BB');
    const countersigned = within(signed).getByRole('link', { name: 'Countersigned by this marketplace' });
    expect(countersigned.getAttribute('href')).toBe('/trust/certificate');

    const selfSigned = row('2.0.0');
    expect(within(selfSigned).getByText(/^Signed by/).textContent).toBe(
      'Signed by Home Made self-signed certificate expired',
    );

    const unsigned = row('1.0.0');
    expect(unsigned.textContent).toContain('Not signed by its author');
    expect(within(unsigned).getByRole('link', { name: 'Countersigned by this marketplace' })).toBeTruthy();

    expect(row('0.9.0').textContent).toContain('Signature not checked');
  });
});
