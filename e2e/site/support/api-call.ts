import type { SiteServer } from './site-server';

/** A call to the API from Node, as the vendor's REST client makes it: a demo account's token, or none. */
export async function callApi(
  server: SiteServer,
  token: string | undefined,
  path: string,
  init: { method: string; json?: unknown; form?: FormData } = { method: 'GET' },
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(new URL(path, server.origin), {
    method: init.method,
    headers: {
      accept: 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: init.form ?? (init.json !== undefined ? JSON.stringify(init.json) : undefined),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
