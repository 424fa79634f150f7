import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import CertificatePage from './CertificatePage';

const certificate = {
  subject: 'CN=plugins.example.com plugin signing\nO=Plugin marketplace at plugins.example.com',
  issuer: 'CN=plugins.example.com plugin signing\nO=Plugin marketplace at plugins.example.com',
  serialNumber: '2A',
  fingerprint256: 'AB:CD:EF',
  validFrom: Date.UTC(2026, 0, 1),
  validTo: Date.UTC(2056, 0, 1),
};

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.pathname === '/api/trust/certificate/details') {
        return Promise.resolve(
          new Response(
            JSON.stringify({ certificate, chain: [certificate], downloadPath: '/api/trust/certificate' }),
            {
              status: 200,
              headers: { 'content-type': 'application/json' },
            },
          ),
        );
      }
      return Promise.resolve(new Response('{}', { status: 404 }));
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('CertificatePage', () => {
  it('offers the certificate with its fingerprint and tells how the IDE is made to trust it', async () => {
    render(
      <MemoryRouter>
        <CertificatePage />
      </MemoryRouter>,
    );
    expect((await screen.findByRole('heading', { name: 'plugins.example.com plugin signing' })).tagName).toBe(
      'H2',
    );
    expect(screen.getByText('AB:CD:EF')).toBeTruthy();
    const download = screen.getByRole('link', { name: 'Download the certificate (PEM)' });
    expect(download.getAttribute('href')).toBe('/api/trust/certificate');
    expect(document.body.textContent).toContain('Settings | Plugins | ⚙ | Manage Plugin Certificates');
    expect(document.body.textContent).toContain('custom-repository.certificate.signature.check');
    expect(document.body.textContent).toContain('-Dintellij.plugin.truststore=/path/to/plugins-truststore');
  });
});
