import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { CONSENT_COOKIE, consentFromCookies } from '@marketplace/core';
import { CORS_HEADERS } from '../external/cors';

/** Answers smaller than this are sent as they are (the compression plugin uses the same threshold). */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

export interface CachedAnswer {
  body: Buffer;
  etag: string;
  contentType: string;
  /** Headers repeated with the body (Link, X-Total-Count). */
  extraHeaders: Record<string, string>;
  expiresAt: number;
  /** Set while one request makes the next answer (the others keep this one meanwhile). */
  refreshing?: boolean;
  /** Compressed forms, made on first demand. */
  gzip?: Buffer;
  brotli?: Buffer;
  /** The route pattern that made it (`/api/searchPlugins`), for the performance figures of replays. */
  route?: string;
}

export function strongEtag(body: string | Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/** True when an If-None-Match header names this ETag (or `*`); weak comparison, as RFC 9110 asks for GET. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const wanted = etag.replace(/^W\//, '');
  return ifNoneMatch
    .split(',')
    .map((candidate) => candidate.trim().replace(/^W\//, ''))
    .some((candidate) => candidate === '*' || candidate === wanted);
}

/** Whether a Cookie header holds a cookie other than the consent banner's choice. */
function hasCookieBesidesConsent(cookieHeader: string | undefined): boolean {
  if (cookieHeader === undefined) return false;
  return cookieHeader.split(';').some((part) => {
    const name = part.split('=', 1)[0]?.trim() ?? '';
    return name !== '' && name !== CONSENT_COOKIE;
  });
}

/**
 * A visitor's own view (signed in) is never shared with others or stored by proxies. The consent choice
 * (`mp_consent`) alone does not make a request personal: nobody signs in with it (the API takes bearer
 * tokens), and a page's only difference for it, the consent banner, is part of the kept page's key
 * ({@link hasConsentChoice}). Any other cookie still does, to be safe.
 */
export function isPersonalRequest(headers: IncomingHttpHeaders): boolean {
  return headers.authorization !== undefined || hasCookieBesidesConsent(headers.cookie);
}

/**
 * Whether the request carries a consent choice: a server-rendered page is then drawn without the consent
 * banner (site-hosting), so its HTML differs from the one drawn for a visitor who has not chosen.
 */
export function hasConsentChoice(headers: IncomingHttpHeaders): boolean {
  return consentFromCookies(headers.cookie) !== undefined;
}

/**
 * The request headers a public answer varies with: the encoding (it may be sent compressed, even when this
 * request did not ask for it), those that make it personal (see isPersonalRequest) and the cookie that draws
 * a page with or without the consent banner.
 */
export const VARY_HEADERS = ['accept-encoding', 'authorization', 'cookie'] as const;

/** Added to the address of a page drawn for a visitor who has made the consent choice (no banner in it). */
const CONSENT_CHOSEN_KEY = '\u0000consent-chosen';

function isPage(contentType: string): boolean {
  return contentType.startsWith('text/html');
}

/** A Vary header value with `names` added to what it already holds (each name once, any case). */
export function withVary(current: unknown, names: readonly string[]): string {
  const values = (current === undefined ? [] : String(current).split(','))
    .map((value) => value.trim())
    .filter((value) => value.length > 0);
  const known = new Set(values.map((value) => value.toLowerCase()));
  for (const name of names) if (!known.has(name.toLowerCase())) values.push(name);
  return values.join(', ');
}

/**
 * Serialized public answers of this process, by URL, for a few seconds. Only a cache: bounded in size and
 * time, cleared by any change made through this process; every process answers correctly without it.
 */
export class AnswerCache {
  private readonly answers = new Map<string, CachedAnswer>();
  /** Bytes held by the kept answers, compressed forms included. */
  private bytes = 0;
  /** Answers replayed, and public answers that had to be made (and were then kept). */
  hits = 0;
  misses = 0;
  /** When it was last emptied (or made). */
  clearedAt = Date.now();
  /**
   * How many times it was emptied. A request notes it when it starts ({@link keep} takes it back): an answer
   * made by a request that started before a clear may hold what the clear was for (a blocked item read just
   * before the block), so it is not kept.
   */
  clears = 0;
  /** The route of the answer {@link serveRaw} last sent, read right after it returns true. */
  lastRoute: string | undefined;

  constructor(
    readonly ttlMs: number,
    readonly maxAgeSeconds: number,
    private readonly maxEntries = 2000,
    private readonly refreshGraceMs = 2000,
    /** Feeds for a whole catalogue run to tens of megabytes: the cache is bounded by bytes as well. */
    private readonly maxBytes = 256 * 1024 * 1024,
  ) {}

  get heldBytes(): number {
    return this.bytes;
  }

  get size(): number {
    return this.answers.size;
  }

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  get cacheControl(): string {
    return `public, max-age=${this.maxAgeSeconds}`;
  }

  /**
   * The kept answer, if still fresh. When it has just expired, the first caller gets nothing (and makes a
   * new answer) while the others keep receiving the old one for up to `refreshGraceMs`, so an expiry sends
   * one request to the database instead of every request that arrives meanwhile.
   */
  get(url: string): CachedAnswer | undefined {
    const answer = this.answers.get(url);
    if (!answer) return undefined;
    const now = Date.now();
    if (answer.expiresAt > now) return answer;
    if (answer.refreshing || now - answer.expiresAt > this.refreshGraceMs) {
      this.forget(url);
      return undefined;
    }
    answer.refreshing = true;
    answer.expiresAt = now + this.refreshGraceMs;
    return undefined;
  }

  set(url: string, answer: Omit<CachedAnswer, 'expiresAt'>): void {
    if (!this.enabled) return;
    this.misses++;
    this.forget(url);
    // One answer may take at most an eighth of the room, so a few huge ones cannot push out everything.
    if (answer.body.length > this.maxBytes / 8) return;
    while (this.answers.size >= this.maxEntries || this.bytes + answer.body.length > this.maxBytes) {
      const oldest = this.answers.keys().next();
      if (oldest.done) break;
      this.forget(oldest.value);
    }
    this.answers.set(url, { ...answer, expiresAt: Date.now() + this.ttlMs });
    this.bytes += answer.body.length;
  }

  clear(): void {
    this.answers.clear();
    this.bytes = 0;
    this.clearedAt = Date.now();
    this.clears++;
  }

  /**
   * The key of the answer kept for a request to `url`: the address, but a page (HTML) drawn for a visitor
   * who has made the consent choice is kept apart from the one drawn with the banner. Other answers (JSON)
   * do not depend on the choice and are shared by everyone who is not signed in.
   */
  private keyFor(url: string, headers: IncomingHttpHeaders): string {
    if (!hasConsentChoice(headers)) return url;
    const kept = this.answers.get(url);
    return kept && !isPage(kept.contentType) ? url : url + CONSENT_CHOSEN_KEY;
  }

  /** The kept answer for a public (not personal) request, if fresh (see {@link get}). */
  lookup(url: string, headers: IncomingHttpHeaders): CachedAnswer | undefined {
    return this.get(this.keyFor(url, headers));
  }

  /**
   * Keeps the answer a public request made, unless the cache was emptied since the request started
   * (`clearsAtStart`, the value of {@link clears} then).
   */
  keep(
    url: string,
    headers: IncomingHttpHeaders,
    answer: Omit<CachedAnswer, 'expiresAt'>,
    clearsAtStart: number,
  ): void {
    if (clearsAtStart !== this.clears) return;
    const key = isPage(answer.contentType) && hasConsentChoice(headers) ? url + CONSENT_CHOSEN_KEY : url;
    this.set(key, answer);
  }

  private forget(url: string): void {
    const answer = this.answers.get(url);
    if (!answer) return;
    this.answers.delete(url);
    this.bytes -= answer.body.length + (answer.gzip?.length ?? 0) + (answer.brotli?.length ?? 0);
  }

  /**
   * Answers a plain public GET straight from the cache on the raw HTTP server, before the framework sees
   * it: the same status, headers (CORS included), ETag/304 and compression as the full path. Returns false,
   * touching nothing, when the request is not one it may answer.
   */
  serveRaw(request: IncomingMessage, response: ServerResponse): boolean {
    if (request.method !== 'GET' || request.url === undefined || isPersonalRequest(request.headers))
      return false;
    const key = this.keyFor(request.url, request.headers);
    const answer = this.get(key);
    if (!answer) return false;
    this.hits++;
    this.lastRoute = answer.route;
    const common: Record<string, string> = {
      ...CORS_HEADERS,
      etag: answer.etag,
      'cache-control': this.cacheControl,
      vary: VARY_HEADERS.join(', '),
    };
    if (etagMatches(request.headers['if-none-match'], answer.etag)) {
      response.writeHead(304, common).end();
      return true;
    }
    let body = answer.body;
    let encoding: string | undefined;
    if (body.length >= COMPRESSION_THRESHOLD_BYTES) {
      const accepted = String(request.headers['accept-encoding'] ?? '');
      if (/\bbr\b/.test(accepted)) {
        if (!answer.brotli) {
          answer.brotli = brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } });
          if (this.answers.get(key) === answer) this.bytes += answer.brotli.length;
        }
        body = answer.brotli;
        encoding = 'br';
      } else if (/\bgzip\b/.test(accepted)) {
        if (!answer.gzip) {
          answer.gzip = gzipSync(body, { level: 6 });
          if (this.answers.get(key) === answer) this.bytes += answer.gzip.length;
        }
        body = answer.gzip;
        encoding = 'gzip';
      }
    }
    response.writeHead(200, {
      ...answer.extraHeaders,
      ...common,
      'content-type': answer.contentType,
      'content-length': String(body.length),
      ...(encoding ? { 'content-encoding': encoding } : {}),
    });
    response.end(body);
    return true;
  }
}
