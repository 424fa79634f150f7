import { ApiError, NetworkError, isJsonContentType, originOf, type FailedCall } from './errors';
import { parseLinkHeader, type PageLinks } from './link-header';
import { buildQuery, type QueryParameters } from './query';

/** Gives the current access token (a JWT or a `perm:` API token), or nothing for a guest. */
export type TokenSource = () => string | null | undefined | Promise<string | null | undefined>;

export interface ApiClientOptions {
  /**
   * Where the marketplace is, e.g. `https://plugins.example.com` (a path prefix is kept). In a browser a
   * relative value ('' or '/marketplace') is read against the page's address.
   */
  baseUrl: string;
  /** Asked before every call that may carry credentials. */
  getToken?: TokenSource;
  /** The fetch to use (default: the global one); XMLHttpRequest is used only for uploads with progress. */
  fetch?: typeof globalThis.fetch;
}

/** What every call accepts. */
export interface CallOptions {
  /** Cancels the call; it then rejects with the signal's reason (an AbortError unless given another). */
  signal?: AbortSignal;
  /** Send no Authorization header even when a token is available (spec §6). */
  omitCredentials?: boolean;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiRequest extends CallOptions {
  method: HttpMethod;
  /** A path below the base URL (`/api/plugins/1`), or an absolute URL on the marketplace's own origin. */
  path: string;
  query?: QueryParameters;
  /** Sent as a JSON body. */
  json?: unknown;
  /** Sent as a multipart form (files travel in the field `file`). */
  form?: FormData;
  /** The call needs the signed-in user: the token goes along even when credentials are omitted (spec §6). */
  forceAuthorization?: boolean;
  /**
   * The call reads or writes a cookie of the marketplace's own origin (only the visitor's consent does), so
   * the browser's cookies go along: same-origin only, never to another origin.
   */
  sendCookies?: boolean;
}

interface AnswerBase {
  status: number;
  headers: Headers;
  /** The pagination links of the `Link` header; empty when there are none. */
  links: PageLinks;
}

/**
 * A successful answer (spec §7): 204 (or an empty body) returns nothing, JSON is parsed, text is a message to
 * show as a success notification.
 */
export type ApiAnswer<T = unknown> =
  | (AnswerBase & { kind: 'empty' })
  | (AnswerBase & { kind: 'json'; data: T })
  | (AnswerBase & { kind: 'notification'; message: string });

/** A paginated answer: the body, the links to the other pages, and the total the server counted. */
export interface Paged<TBody> {
  data: TBody;
  /** The absolute address this page was read from. */
  url: string;
  links: PageLinks;
  /** X-Total-Count: how many items all pages hold together (undefined when the server did not say). */
  totalCount: number | undefined;
}

function absoluteBase(baseUrl: string): URL {
  try {
    return new URL(baseUrl);
  } catch {
    const page = (globalThis as { location?: { href?: string } }).location?.href;
    if (page === undefined) {
      throw new TypeError(`baseUrl must be an absolute http(s) address outside a browser, got "${baseUrl}".`);
    }
    return new URL(baseUrl, page);
  }
}

/**
 * Sends requests the way spec §7 says and turns answers into ApiAnswer, failures into ApiError (an HTTP error
 * status) or NetworkError (no readable answer). Aborting rejects with the signal's reason, untouched.
 */
export class ApiTransport {
  readonly baseUrl: string;
  readonly origin: string;
  private readonly getToken: TokenSource | undefined;
  /** The fetch this client calls. */
  readonly fetch: typeof globalThis.fetch;

  constructor(options: ApiClientOptions) {
    const base = absoluteBase(options.baseUrl);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw new TypeError(`baseUrl must start with http:// or https://, got "${options.baseUrl}".`);
    }
    base.search = '';
    base.hash = '';
    this.baseUrl = base.href.replace(/\/+$/, '');
    this.origin = base.origin;
    this.getToken = options.getToken;
    // Browsers refuse a fetch called as a method of another object, so it is called through a closure.
    const given = options.fetch;
    this.fetch = given ?? ((input, init) => globalThis.fetch(input, init));
  }

  /**
   * The absolute URL of a path below the base URL (with its query). Absolute URLs are accepted only on the
   * marketplace's own origin, so a token is never sent anywhere else.
   */
  url(path: string, query?: QueryParameters): string {
    let url: string;
    if (/^[a-z][a-z\d+.-]*:/i.test(path) || path.startsWith('//')) {
      const target = new URL(path, this.baseUrl);
      if (target.origin !== this.origin) {
        throw new TypeError(`Refusing to call ${target.origin}: this client talks only to ${this.origin}.`);
      }
      url = target.href;
    } else {
      if (!path.startsWith('/')) throw new TypeError(`An API path starts with "/", got "${path}".`);
      url = this.baseUrl + path;
    }
    const extra = buildQuery(query);
    if (extra === '') return url;
    return url.includes('?') ? `${url}&${extra.slice(1)}` : url + extra;
  }

  /** The Authorization header value for a call, or undefined to send none. */
  async authorization(options: {
    omitCredentials?: boolean;
    forceAuthorization?: boolean;
  }): Promise<string | undefined> {
    if (options.omitCredentials && !options.forceAuthorization) return undefined;
    const token = await this.getToken?.();
    return token ? `Bearer ${token}` : undefined;
  }

  async send<T = unknown>(request: ApiRequest): Promise<ApiAnswer<T>> {
    const url = this.url(request.path, request.query);
    const call: FailedCall = { method: request.method, url };
    request.signal?.throwIfAborted();
    const headers = new Headers({ accept: 'application/json' });
    const authorization = await this.authorization(request);
    if (authorization) headers.set('authorization', authorization);
    let body: BodyInit | undefined;
    if (request.form !== undefined) {
      // fetch writes the multipart content type with its boundary itself.
      body = request.form;
    } else if (request.json !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(request.json);
    }
    const init: RequestInit = { method: request.method, headers };
    if (body !== undefined) init.body = body;
    if (request.signal) init.signal = request.signal;
    // Tokens travel in the header; cookies of the marketplace's origin are not this client's business
    // (but for the consent cookie, which is the visitor's choice itself).
    init.credentials = request.sendCookies ? 'same-origin' : 'omit';

    const response = await this.guard(call, request.signal, () => this.fetch(url, init));
    const bodyText = await this.guard(call, request.signal, () => response.text());
    return readAnswer<T>(call, response, bodyText);
  }

  /** send() for calls whose answer must be JSON (every read of the contract). */
  async sendJson<T>(request: ApiRequest): Promise<T> {
    return expectJson(await this.send<T>(request), request.method, this.url(request.path, request.query));
  }

  /** sendJson() for a paginated call, keeping the links and the total. */
  async sendPaged<T>(request: ApiRequest): Promise<Paged<T>> {
    const url = this.url(request.path, request.query);
    const answer = await this.send<T>(request);
    const data = expectJson(answer, request.method, url);
    return { data, url, links: answer.links, totalCount: totalCountOf(answer.headers) };
  }

  /** Runs a step of a call, turning failures other than an abort into NetworkError. */
  private async guard<T>(
    call: FailedCall,
    signal: AbortSignal | undefined,
    step: () => Promise<T>,
  ): Promise<T> {
    try {
      return await step();
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof ApiError || error instanceof NetworkError) throw error;
      throw new NetworkError(call, error);
    }
  }
}

export function totalCountOf(headers: Headers): number | undefined {
  const text = headers.get('x-total-count');
  if (text === null || !/^\d+$/.test(text.trim())) return undefined;
  return Number(text.trim());
}

/** Turns an HTTP answer whose body has been read into ApiAnswer, or throws ApiError for an error status. */
export function readAnswer<T>(call: FailedCall, response: Response, bodyText: string): ApiAnswer<T> {
  const contentType = response.headers.get('content-type');
  if (!response.ok) {
    throw ApiError.fromAnswer(call, {
      status: response.status,
      statusText: response.statusText,
      bodyText,
      contentType,
    });
  }
  const base: AnswerBase = {
    status: response.status,
    headers: response.headers,
    links: parseLinkHeader(response.headers.get('link'), response.url || call.url),
  };
  if (response.status === 204 || response.status === 205 || bodyText === '')
    return { ...base, kind: 'empty' };
  if (isJsonContentType(contentType)) {
    try {
      return { ...base, kind: 'json', data: JSON.parse(bodyText) as T };
    } catch (error) {
      throw new NetworkError(
        call,
        error,
        `The marketplace at ${originOf(call.url)} sent an answer that is not valid JSON. Please try again later.`,
      );
    }
  }
  return { ...base, kind: 'notification', message: bodyText };
}

function expectJson<T>(answer: ApiAnswer<T>, method: string, url: string): T {
  if (answer.kind === 'json') return answer.data;
  throw new NetworkError(
    { method, url },
    undefined,
    `The marketplace at ${originOf(url)} answered ${method} ${new URL(url).pathname} without the data it should carry.`,
  );
}
