import type { Consent, ConsentInput } from '@marketplace/api-contract';
import type { ApiTransport, CallOptions } from './transport';

export type { Consent, ConsentInput };

export const consentPaths = { consent: () => '/api/consent' };

/**
 * The visitor's choice about optional cookies and analytics. Both calls send the browser's cookies of the
 * marketplace's own origin (the choice of a guest lives in one), unlike every other call of this client.
 */
export class ConsentClient {
  constructor(private readonly transport: ApiTransport) {}

  /** The choice (analytics null: not decided yet). */
  get(options: CallOptions = {}): Promise<Consent> {
    return this.transport.sendJson({
      ...options,
      method: 'GET',
      path: consentPaths.consent(),
      sendCookies: true,
    });
  }

  /** Records the choice: for the signed-in user, and in this browser's cookie. */
  set(analytics: boolean, options: CallOptions = {}): Promise<Consent> {
    return this.transport.sendJson({
      ...options,
      method: 'PUT',
      path: consentPaths.consent(),
      json: { analytics } satisfies ConsentInput,
      sendCookies: true,
    });
  }
}
