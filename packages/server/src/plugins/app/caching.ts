import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `public`: the answer is the same for every visitor, so browsers, proxies and this process may keep it
     * (ETag, Cache-Control public, 304). Routes that leave it out answer `Cache-Control: no-store`.
     */
    cache?: 'public';
    /** A POST that only reads (searches with a body): it leaves this process's kept answers in place. */
    readOnly?: boolean;
  }
  interface FastifyInstance {
    /** Forgets every answer this process keeps; called after any change to the catalogue. */
    forgetCachedAnswers(): void;
  }
}

export interface CachingOptions {
  /** Seconds browsers and proxies may keep a public answer. */
  maxAgeSeconds: number;
  /** Milliseconds this process replays a serialized public answer (0 = never). */
  replayMs: number;
  /** Most answers kept at once; the oldest go first. */
  maxEntries?: number;
}

interface CachedAnswer {
  body: string | Buffer;
  etag: string;
  contentType: string;
  extraHeaders: Record<string, string>;
  expiresAt: number;
}

/** Headers a replayed answer repeats besides its body and content type. */
const REPLAYED_HEADERS = ['link', 'x-total-count', 'content-disposition'] as const;

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

/** A visitor's own view (signed in) is never shared with others or stored by proxies. */
function isPersonal(request: FastifyRequest): boolean {
  return request.headers.authorization !== undefined || request.headers.cookie !== undefined;
}

/**
 * Public GET answers get a strong ETag (hash of the body), `Cache-Control: public` and 304 for a matching
 * If-None-Match. Serialized public answers are also replayed for a few seconds: a cache only, bounded by time
 * and size and cleared by any change made through this process, so correctness never depends on it.
 */
export default fp(
  async function caching(app: FastifyInstance, options: CachingOptions) {
    const maxEntries = options.maxEntries ?? 2000;
    const answers = new Map<string, CachedAnswer>();
    const replayed = new WeakSet<FastifyReply>();
    const cacheControl = `public, max-age=${options.maxAgeSeconds}`;

    app.decorate('forgetCachedAnswers', () => answers.clear());

    function sendNotModified(reply: FastifyReply, etag: string) {
      return reply.code(304).header('etag', etag).header('cache-control', cacheControl).send();
    }

    if (options.replayMs > 0) {
      app.addHook('onRequest', async (request, reply) => {
        if (request.method !== 'GET' || isPersonal(request)) return;
        const answer = answers.get(request.url);
        if (!answer) return;
        if (answer.expiresAt <= Date.now()) {
          answers.delete(request.url);
          return;
        }
        replayed.add(reply);
        if (etagMatches(request.headers['if-none-match'], answer.etag))
          return sendNotModified(reply, answer.etag);
        reply.headers(answer.extraHeaders);
        return reply
          .code(200)
          .header('etag', answer.etag)
          .header('cache-control', cacheControl)
          .type(answer.contentType)
          .send(answer.body);
      });
    }

    app.addHook('onSend', async (request, reply, payload) => {
      if (replayed.has(reply)) return payload;
      const isRead = request.method === 'GET' || request.method === 'HEAD';
      if (!isRead) {
        if (reply.statusCode < 400 && reply.routeOptions.config?.readOnly !== true) answers.clear();
        return payload;
      }
      if (reply.getHeader('cache-control') !== undefined) return payload;
      const isPublicRoute = reply.routeOptions.config?.cache === 'public';
      const isStorable = typeof payload === 'string' || Buffer.isBuffer(payload);
      if (!isPublicRoute || reply.statusCode !== 200 || !isStorable || isPersonal(request)) {
        const personal = isPublicRoute && reply.statusCode === 200;
        reply.header('cache-control', personal ? 'private, no-cache' : 'no-store');
        return payload;
      }
      const etag = strongEtag(payload);
      reply.header('etag', etag).header('cache-control', cacheControl);
      if (options.replayMs > 0 && request.method === 'GET') {
        const extraHeaders: Record<string, string> = {};
        for (const name of REPLAYED_HEADERS) {
          const value = reply.getHeader(name);
          if (value !== undefined) extraHeaders[name] = String(value);
        }
        if (answers.size >= maxEntries) {
          const oldest = answers.keys().next();
          if (!oldest.done) answers.delete(oldest.value);
        }
        answers.set(request.url, {
          body: payload,
          etag,
          contentType: String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8'),
          extraHeaders,
          expiresAt: Date.now() + options.replayMs,
        });
      }
      if (etagMatches(request.headers['if-none-match'], etag)) {
        reply.code(304);
        return '';
      }
      return payload;
    });
  },
  { name: 'caching', fastify: '5.x' },
);
