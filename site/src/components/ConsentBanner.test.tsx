import { ToastProvider } from '@marketplace/ui';
import { cleanup, render, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubFetch, type StubbedRequest } from '../test-support/fetch-stub';
import type { ConsentBanner as Banner } from './ConsentBanner';

// A signed-in user whose browser chose on the banner's form (no script, so no sign-in went with the choice).
const alice = { id: 7, name: 'Alice', login: 'alice', email: null, banned: false, isAdmin: false };
let signedIn: typeof alice | null = alice;
vi.mock('../auth/AuthProvider', () => ({
  useAuth: () => ({
    user: signedIn,
    available: true,
    signIn: () => Promise.resolve(),
    signOut: () => Promise.resolve(),
  }),
}));

let ConsentBanner: typeof Banner;
beforeAll(async () => {
  // The consent module reads the cookie when it loads.
  document.cookie = 'mp_consent=granted; path=/';
  ({ ConsentBanner } = await import('./ConsentBanner'));
});

afterEach(() => {
  signedIn = alice;
  cleanup();
  vi.unstubAllGlobals();
});

/** Renders the banner against a server whose account holds `stored` ('user') or nothing ('browser'). */
function renderWithServer(storedFor: 'user' | 'browser'): StubbedRequest[] {
  const requests: StubbedRequest[] = [];
  stubFetch((request) => {
    if (request.url.pathname !== '/api/consent') return undefined;
    requests.push(request);
    const analytics = request.method === 'PUT' ? (request.body as { analytics: boolean }).analytics : true;
    return jsonResponse(200, {
      analytics,
      decidedAt: 1_700_000_000_000,
      storedFor: request.method === 'PUT' ? 'user' : storedFor,
      required: 'browser',
    });
  });
  render(
    <ToastProvider>
      <MemoryRouter>
        <ConsentBanner />
      </MemoryRouter>
    </ToastProvider>,
  );
  return requests;
}

describe('the consent banner, when the browser already chose', () => {
  it("keeps the browser's choice for the account when the account holds none", async () => {
    const requests = renderWithServer('browser');
    await waitFor(() => expect(requests.map((request) => request.method)).toEqual(['GET', 'PUT']));
    expect(requests[1]!.body).toEqual({ analytics: true });
  });

  it('leaves a choice the account already holds as it is', async () => {
    const requests = renderWithServer('user');
    await waitFor(() => expect(requests.map((request) => request.method)).toEqual(['GET']));
    // Nothing follows the read.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requests.map((request) => request.method)).toEqual(['GET']);
  });

  it("keeps a guest's choice in the browser only", async () => {
    signedIn = null;
    const requests = renderWithServer('browser');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requests).toEqual([]);
  });
});
