import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  etagMatches,
  isPersonalRequest,
  strongEtag,
  VARY_HEADERS,
  withVary,
  type AnswerCache,
} from './answer-cache';

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
    /**
     * The kept answers' generation: it changes whenever they are forgotten. Something kept beside them (the
     * rendered home page) is good while the generation it was made in lasts, and for as long as they are.
     */
    cachedAnswersGeneration(): { clears: number; ttlMs: number };
  }
}

export interface CachingOptions {
  /** The answers this process keeps (shared with the raw fast path of the HTTP server). */
  answers: AnswerCache;
}

/** A request that may have changed the catalogue: a successful write that is not a read-only POST. */
export function changesCatalogue(request: FastifyRequest, reply: FastifyReply): boolean {
  const isRead = request.method === 'GET' || request.method === 'HEAD';
  return !isRead && reply.statusCode < 400 && reply.routeOptions.config?.readOnly !== true;
}

/** Headers a replayed answer repeats besides its body and content type. */
const REPLAYED_HEADERS = [
  'link',
  'x-total-count',
  // An HTML answer's security headers (site-hosting/html-security.ts) travel with it.
  'content-security-policy',
  'x-frame-options',
  'x-content-type-options',
  'referrer-policy',
] as const;

/**
 * Public GET answers get a strong ETag (hash of the body), `Cache-Control: public` and 304 for a matching
 * If-None-Match. Serialized public answers are also replayed for a few seconds: a cache only, bounded by time
 * and size and cleared by any change made through this process, so correctness never depends on it.
 */
export default fp(
  async function caching(app: FastifyInstance, options: CachingOptions) {
    const { answers } = options;
    const replayed = new WeakSet<FastifyReply>();
    /** The answer cache's clear count when each request started (see AnswerCache.clears). */
    const clearsAtStart = new WeakMap<FastifyRequest, number>();

    app.decorate('forgetCachedAnswers', () => answers.clear());
    app.decorate('cachedAnswersGeneration', () => ({ clears: answers.clears, ttlMs: answers.ttlMs }));
    // Plugin tests assemble the app without the performance plugin, and so without the caches' registry.
    if (app.hasDecorator('caches'))
      app.caches.register({
        name: 'answer-cache',
        description:
          'Public answers kept by URL for a few seconds and replayed (RESPONSE_CACHE_MS). Bytes: the bodies and their compressed forms. Filled on demand, so a reload empties it.',
        statistics: () => ({
          entries: answers.size,
          bytes: answers.heldBytes,
          builtAt: answers.clearedAt,
          hits: answers.hits,
          misses: answers.misses,
        }),
        flush: () => answers.clear(),
        reload: async () => answers.clear(),
      });

    function sendNotModified(reply: FastifyReply, etag: string) {
      return reply.code(304).header('etag', etag).header('cache-control', answers.cacheControl).send();
    }

    // Requests the HTTP server's raw fast path did not take (HEAD, injected requests) are replayed here.
    if (answers.enabled) {
      app.addHook('onRequest', async (request, reply) => {
        // Noted before anything is read: an answer is kept only if no change cleared the cache meanwhile.
        clearsAtStart.set(request, answers.clears);
        if (request.method !== 'GET' || isPersonalRequest(request.headers)) return;
        const answer = answers.lookup(request.url, request.headers);
        if (!answer) return;
        answers.hits++;
        replayed.add(reply);
        reply.header('vary', withVary(reply.getHeader('vary'), VARY_HEADERS));
        if (etagMatches(request.headers['if-none-match'], answer.etag)) {
          return sendNotModified(reply, answer.etag);
        }
        reply.headers(answer.extraHeaders);
        return reply
          .code(200)
          .header('etag', answer.etag)
          .header('cache-control', answers.cacheControl)
          .type(answer.contentType)
          .send(answer.body);
      });
    }

    app.addHook('onSend', async (request, reply, payload) => {
      if (replayed.has(reply)) return payload;
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        if (changesCatalogue(request, reply)) answers.clear();
        return payload;
      }
      if (reply.getHeader('cache-control') !== undefined) return payload;
      const isPublicRoute = reply.routeOptions.config?.cache === 'public';
      // The same URL answers a signed-in owner differently (their unlisted items): caches must tell them apart.
      if (isPublicRoute) reply.header('vary', withVary(reply.getHeader('vary'), VARY_HEADERS));
      const isStorable = typeof payload === 'string' || Buffer.isBuffer(payload);
      if (!isPublicRoute || reply.statusCode !== 200 || !isStorable || isPersonalRequest(request.headers)) {
        const personal = isPublicRoute && reply.statusCode === 200;
        reply.header('cache-control', personal ? 'private, no-cache' : 'no-store');
        return payload;
      }
      const etag = strongEtag(payload);
      reply.header('etag', etag).header('cache-control', answers.cacheControl);
      const startedAt = clearsAtStart.get(request);
      if (answers.enabled && request.method === 'GET' && startedAt !== undefined) {
        const extraHeaders: Record<string, string> = {};
        for (const name of REPLAYED_HEADERS) {
          const value = reply.getHeader(name);
          if (value !== undefined) extraHeaders[name] = String(value);
        }
        answers.keep(
          request.url,
          request.headers,
          {
            body: Buffer.isBuffer(payload) ? payload : Buffer.from(payload),
            etag,
            contentType: String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8'),
            extraHeaders,
            ...(reply.routeOptions.url === undefined ? {} : { route: reply.routeOptions.url }),
          },
          startedAt,
        );
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
