import { createApiClient } from '@marketplace/api-client';
import { currentAccessToken } from '../auth/session';

/**
 * Public answers may be kept by the browser for a minute. A signed-in person changes things and must see the
 * change at once (their review, their upload), so their calls always revalidate (a cheap 304 when unchanged).
 */
const revalidatingFetch: typeof fetch = (input, init) =>
  fetch(input, currentAccessToken() ? { ...init, cache: 'no-cache' } : init);

/** The marketplace API on the site's own origin; calls carry the signed-in user's token when there is one. */
export const api = createApiClient({
  baseUrl: location.origin,
  getToken: currentAccessToken,
  fetch: revalidatingFetch,
});
