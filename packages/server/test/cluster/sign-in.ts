import { createHash, randomBytes } from 'node:crypto';
import { EMBEDDED_CLIENT_ID, SITE_CALLBACK_PATH } from '../../src/auth/config';

/*
 * The site's sign-in at the embedded identity service, over plain HTTP as a browser does it: the
 * authorization request, the login form, the return to the site's callback with a code, and the code
 * exchanged for tokens (authorization code with PKCE). Each step can be sent to any node: the cluster test
 * signs in through one node and then uses the cookies and tokens on another.
 */

/** A browser's cookies for one site (names and values; paths are not told apart). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair?.indexOf('=') ?? -1;
      if (!pair || at <= 0) continue;
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = /expires=Thu, 01 Jan 1970/i.test(line) || /max-age=0\b/i.test(line);
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  names(): string[] {
    return [...this.cookies.keys()];
  }
}

export interface SignedIn {
  accessToken: string;
  refreshToken: string | undefined;
  idToken: string | undefined;
  /** The browser's cookies after signing in: the identity service's session among them. */
  cookies: CookieJar;
}

function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The path and query of a Location header, to send to the node of our choice. */
function pathOf(location: string, base: string): string {
  const url = new URL(location, base);
  return url.pathname + url.search;
}

async function step(
  node: string,
  path: string,
  cookies: CookieJar,
  init: { method?: string; form?: Record<string, string> } = {},
): Promise<Response> {
  const response = await fetch(`${node}${path}`, {
    method: init.method ?? 'GET',
    redirect: 'manual',
    headers: {
      accept: 'text/html',
      ...(cookies.header ? { cookie: cookies.header } : {}),
      ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
  });
  cookies.take(response);
  return response;
}

async function describe(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  return `${response.status} ${response.headers.get('location') ?? ''} ${text.replace(/\s+/g, ' ').slice(0, 300)}`;
}

/**
 * The authorization request at `node` with the browser's cookies. Answers where the provider sent the
 * browser: the login page (`login`), or straight back to the site with a code when its session cookie is
 * valid there (`code`).
 */
export async function authorize(
  node: string,
  publicUrl: string,
  cookies: CookieJar,
  state: string,
): Promise<
  { kind: 'login'; path: string; verifier: string } | { kind: 'code'; code: string; verifier: string }
> {
  const { verifier, challenge } = pkcePair();
  const query = new URLSearchParams({
    client_id: EMBEDDED_CLIENT_ID,
    response_type: 'code',
    redirect_uri: `${publicUrl}${SITE_CALLBACK_PATH}`,
    scope: 'openid profile',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
  });
  let response = await step(node, `/oidc/auth?${query.toString()}`, cookies);
  // The provider may pass through its own resume step before deciding.
  for (let hops = 0; hops < 5; hops++) {
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) {
      throw new Error(`The authorization request at ${node} answered ${await describe(response)}`);
    }
    const target = new URL(location, node);
    if (target.pathname === SITE_CALLBACK_PATH) {
      const code = target.searchParams.get('code');
      if (!code || target.searchParams.get('state') !== state) {
        throw new Error(`The provider at ${node} came back without a code: ${location}`);
      }
      return { kind: 'code', code, verifier };
    }
    if (target.pathname.includes('/interaction/')) return { kind: 'login', path: target.pathname, verifier };
    response = await step(node, pathOf(location, node), cookies);
  }
  throw new Error(`The authorization request at ${node} redirected too often.`);
}

/** Exchanges the code at `node`'s token endpoint. */
export async function exchangeCode(
  node: string,
  publicUrl: string,
  code: string,
  verifier: string,
): Promise<{ accessToken: string; refreshToken?: string; idToken?: string }> {
  const response = await fetch(`${node}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: EMBEDDED_CLIENT_ID,
      grant_type: 'authorization_code',
      code,
      redirect_uri: `${publicUrl}${SITE_CALLBACK_PATH}`,
      code_verifier: verifier,
    }),
  });
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (response.status !== 200 || typeof body.access_token !== 'string') {
    throw new Error(`The code exchange at ${node} answered ${response.status}: ${JSON.stringify(body)}`);
  }
  return {
    accessToken: body.access_token,
    ...(typeof body.refresh_token === 'string' ? { refreshToken: body.refresh_token } : {}),
    ...(typeof body.id_token === 'string' ? { idToken: body.id_token } : {}),
  };
}

/** Signs in with login and password, every step at `node`; `publicUrl` is the site's (PUBLIC_URL). */
export async function signIn(
  node: string,
  publicUrl: string,
  login: string,
  password: string,
): Promise<SignedIn> {
  const cookies = new CookieJar();
  const state = randomBytes(8).toString('hex');
  const started = await authorize(node, publicUrl, cookies, state);
  if (started.kind !== 'login') throw new Error('The provider signed in without asking for a password.');
  const page = await step(node, started.path, cookies);
  if (page.status !== 200) throw new Error(`The login page at ${node} answered ${await describe(page)}`);
  await page.arrayBuffer();
  let response = await step(node, `${started.path}/login`, cookies, {
    method: 'POST',
    form: { login, password },
  });
  let code: string | undefined;
  for (let hops = 0; hops < 5 && !code; hops++) {
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) {
      throw new Error(`Signing in as ${login} at ${node} answered ${await describe(response)}`);
    }
    const target = new URL(location, node);
    if (target.pathname === SITE_CALLBACK_PATH) {
      if (target.searchParams.get('state') !== state) throw new Error(`Wrong state in ${location}`);
      code = target.searchParams.get('code') ?? undefined;
      if (!code) throw new Error(`The provider came back without a code: ${location}`);
    } else {
      response = await step(node, pathOf(location, node), cookies);
    }
  }
  if (!code) throw new Error(`Signing in as ${login} at ${node} never came back to the site.`);
  const tokens = await exchangeCode(node, publicUrl, code, started.verifier);
  return {
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken,
    idToken: tokens.idToken,
    cookies,
  };
}
