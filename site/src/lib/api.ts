import { createApiClient } from '@marketplace/api-client';
import { currentAccessToken } from '../auth/session';

const inBrowser = typeof window !== 'undefined';

/**
 * While the server renders a page (entry-server.tsx), the page's calls go to the server's own application
 * as a signed-out visitor's; this gives the fetch of the render in progress.
 */
let serverFetch: (() => typeof fetch | undefined) | undefined;

export function setServerFetch(source: () => typeof fetch | undefined): void {
  serverFetch = source;
}

/**
 * Public answers may be kept by the browser for a minute. A signed-in person changes things and must see the
 * change at once (their review, their upload), so their calls always revalidate (a cheap 304 when unchanged).
 */
const siteFetch: typeof fetch = (input, init) => {
  if (!inBrowser) {
    const rendering = serverFetch?.();
    if (!rendering) return Promise.reject(new Error('The API is called outside a server render.'));
    return rendering(input, init);
  }
  return fetch(input, currentAccessToken() ? { ...init, cache: 'no-cache' } : init);
};

/**
 * The marketplace API on the site's own origin; calls carry the signed-in user's token when there is one.
 * On the server the origin is a stand-in: the render's fetch answers by path.
 */
export const api = createApiClient({
  baseUrl: inBrowser ? location.origin : 'http://localhost',
  getToken: currentAccessToken,
  fetch: siteFetch,
});
