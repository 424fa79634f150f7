/**
 * A stand-in for the browser's fetch in the site's unit tests. Each test routes the requests its page sends
 * and answers them as the server would; a request it leaves unanswered gets a 404. Only tests import it: the
 * test run collects *.test.ts(x) files only, and the build never reaches it from its entries.
 */
import { vi } from 'vitest';

/** A request as the test's routing sees it. */
export interface StubbedRequest {
  url: URL;
  /** GET when the page names none, as fetch sends it. */
  method: string;
  /** The JSON body the page sent, parsed; undefined when it sent none. */
  body: unknown;
}

/** An answer with a JSON body, as the server writes it (a 204 carries no body). */
export function jsonResponse(status: number, value: unknown): Response {
  return new Response(status === 204 ? null : JSON.stringify(value), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/**
 * Replaces fetch with one that answers what `answer` returns for each request, or a 404 with the server's
 * error body when it returns nothing. Undone by vi.unstubAllGlobals().
 */
export function stubFetch(answer: (request: StubbedRequest) => Response | undefined) {
  const fetch = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    return Promise.resolve(
      answer({ url, method, body }) ?? jsonResponse(404, { type: 'error', message: 'Not here' }),
    );
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}
