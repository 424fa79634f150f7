import { codeChallenge, randomSecret } from './pkce';
import { localStore, readStored, removeStored, sessionStore, writeStored } from './storage';

/** The identity service named by the page's meta tags (spec §6). */
export interface IdentityService {
  issuer: string;
  clientId: string;
  audience: string;
}

interface Discovery {
  authorization_endpoint: string;
  token_endpoint: string;
  end_session_endpoint?: string;
}

/** What is kept of a sign-in: the access token for API calls and the ID token as the sign-out hint. */
interface Tokens {
  accessToken: string;
  idToken?: string;
}

interface PendingSignIn {
  state: string;
  verifier: string;
  returnTo: string;
}

/**
 * The sign-in is kept in localStorage, so every tab of the browser shares it: a page opened in a new tab is
 * signed in, and signing out in one tab signs the others out (the `storage` event, see onSessionChange).
 *
 * Any script running on this origin can read localStorage, as it can read sessionStorage (where the token
 * was before) and the page's memory. What stands between a token and a hostile script is that no such script
 * runs: the site's pages are served with a CSP of `script-src 'self'` (no inline script, no third-party
 * script; see packages/server/src/site-hosting/security-headers.ts), descriptions, reviews and custom pages are
 * sanitised before they are shown, and nothing else on the origin runs script with access to it (webhelp pages
 * run sandboxed in an opaque origin, see webhelp-routes.ts). What is kept is also limited: the access token
 * lives ACCESS_TOKEN_TTL (10 minutes by default) and is stored with that expiry, and the refresh token the
 * identity service gives is not kept at all (the site never refreshes), so a token read once is worth minutes,
 * not a lasting session. An httpOnly-cookie session would keep the token out of script's reach altogether,
 * but the API authenticates bearer tokens only; that would be a server change of its own.
 * The per-tab parts of a sign-in (the PKCE verifier, the silent-sign-in flag) stay in sessionStorage.
 */
const TOKENS_KEY = 'mp-auth-tokens';
const PENDING_KEY = 'mp-auth-pending';
/** Set while a silent sign-in is under way, so the crawler rule starts it only once. */
export const REDIRECT_FLAG_KEY = 'mp-auth-redirected';
export const CALLBACK_PATH = '/auth/callback';

function meta(name: string): string | undefined {
  // The server renders pages for a guest, with no sign-in service to name.
  if (typeof document === 'undefined') return undefined;
  const content = document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content.trim();
  return content || undefined;
}

export function identityService(): IdentityService | undefined {
  const issuer = meta('mp-auth-issuer');
  const clientId = meta('mp-auth-client-id');
  if (!issuer || !clientId) return undefined;
  return { issuer: issuer.replace(/\/+$/, ''), clientId, audience: meta('mp-auth-audience') ?? '' };
}

let discovery: Promise<Discovery> | undefined;

function discover(service: IdentityService): Promise<Discovery> {
  discovery ??= fetch(`${service.issuer}/.well-known/openid-configuration`, {
    headers: { accept: 'application/json' },
  }).then(async (response) => {
    if (!response.ok) throw new Error(`The sign-in service answered ${response.status}.`);
    return (await response.json()) as Discovery;
  });
  discovery.catch(() => (discovery = undefined));
  return discovery;
}

let memoryTokens: Tokens | undefined;

/** The access token for API calls, or nothing for a guest. */
export function currentAccessToken(): string | undefined {
  memoryTokens ??= readStored<Tokens>(localStore(), TOKENS_KEY);
  return memoryTokens?.accessToken;
}

/**
 * Calls `listener` when another tab of the browser signs in or out (or its sign-in runs out and is cleared);
 * this tab's token is then read afresh. Returns the unsubscribe function.
 */
export function onSessionChange(listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    // A null key is storage.clear(): the sign-in went with everything else.
    if (event.key !== TOKENS_KEY && event.key !== null) return;
    if (event.storageArea !== null && event.storageArea !== localStore()) return;
    memoryTokens = undefined;
    listener();
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}

function storeTokens(answer: Record<string, unknown>): void {
  const accessToken = typeof answer.access_token === 'string' ? answer.access_token : undefined;
  if (!accessToken) throw new Error('The sign-in service gave no access token.');
  const expiresIn = typeof answer.expires_in === 'number' ? answer.expires_in : 600;
  memoryTokens = {
    accessToken,
    ...(typeof answer.id_token === 'string' ? { idToken: answer.id_token } : {}),
  };
  // A little early, so a call never leaves with a token that expires on the way.
  writeStored(localStore(), TOKENS_KEY, memoryTokens, Date.now() + (expiresIn - 10) * 1000);
}

/** Forgets the sign-in in every tab of the browser (the others hear of it through onSessionChange). */
export function clearTokens(): void {
  memoryTokens = undefined;
  removeStored(localStore(), TOKENS_KEY);
}

function redirectUri(): string {
  return `${location.origin}${CALLBACK_PATH}`;
}

/** Sends the visitor to the identity service (authorization code with PKCE); comes back to CALLBACK_PATH. */
export async function startSignIn(options: { returnTo?: string; silent?: boolean } = {}): Promise<void> {
  const service = identityService();
  if (!service) throw new Error('This page does not name a sign-in service.');
  const endpoints = await discover(service);
  const pending: PendingSignIn = {
    state: randomSecret(),
    verifier: randomSecret(48),
    returnTo: options.returnTo ?? `${location.pathname}${location.search}`,
  };
  writeStored(sessionStore(), PENDING_KEY, pending, Date.now() + 15 * 60_000);
  if (options.silent) writeStored(sessionStore(), REDIRECT_FLAG_KEY, true, Date.now() + 60_000);
  const url = new URL(endpoints.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: service.clientId,
    redirect_uri: redirectUri(),
    scope: 'openid profile email',
    state: pending.state,
    code_challenge: await codeChallenge(pending.verifier),
    code_challenge_method: 'S256',
    ...(service.audience ? { resource: service.audience } : {}),
    ...(options.silent ? { prompt: 'none' } : {}),
  }).toString();
  location.assign(url.toString());
}

/** Finishes the sign-in on CALLBACK_PATH; resolves with where the visitor was. */
export async function finishSignIn(query: URLSearchParams): Promise<string> {
  const pending = readStored<PendingSignIn>(sessionStore(), PENDING_KEY);
  removeStored(sessionStore(), PENDING_KEY);
  const error = query.get('error');
  if (error) {
    // A silent attempt that found no session is not a failure the visitor needs to hear about.
    if (error === 'login_required' || error === 'access_denied') return pending?.returnTo ?? '/';
    throw new Error(query.get('error_description') ?? `Sign-in failed: ${error}.`);
  }
  const code = query.get('code');
  if (!pending || !code || query.get('state') !== pending.state) {
    throw new Error('This sign-in link is no longer valid. Please sign in again.');
  }
  const service = identityService();
  if (!service) throw new Error('This page does not name a sign-in service.');
  const endpoints = await discover(service);
  const response = await fetch(endpoints.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri(),
      client_id: service.clientId,
      code_verifier: pending.verifier,
      ...(service.audience ? { resource: service.audience } : {}),
    }),
  });
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    const description = typeof answer.error_description === 'string' ? answer.error_description : '';
    throw new Error(description || `The sign-in service answered ${response.status}.`);
  }
  storeTokens(answer);
  return pending.returnTo.startsWith('/') && !pending.returnTo.startsWith('//') ? pending.returnTo : '/';
}

/** Signs out here and at the identity service, then comes back to the home page. */
export async function signOut(): Promise<void> {
  const idToken = memoryTokens?.idToken ?? readStored<Tokens>(localStore(), TOKENS_KEY)?.idToken;
  clearTokens();
  const service = identityService();
  const endpoints = service ? await discover(service).catch(() => undefined) : undefined;
  if (!service || !endpoints?.end_session_endpoint) {
    location.assign('/');
    return;
  }
  const url = new URL(endpoints.end_session_endpoint);
  url.search = new URLSearchParams({
    client_id: service.clientId,
    post_logout_redirect_uri: `${location.origin}/`,
    ...(idToken ? { id_token_hint: idToken } : {}),
  }).toString();
  location.assign(url.toString());
}
