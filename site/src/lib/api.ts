import { createApiClient } from '@marketplace/api-client';
import { currentAccessToken } from '../auth/session';

/** The marketplace API on the site's own origin; calls carry the signed-in user's token when there is one. */
export const api = createApiClient({ baseUrl: location.origin, getToken: currentAccessToken });
