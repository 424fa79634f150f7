import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CacheActionQuery,
  CacheActionResultSchema,
  ErrorBody,
  PerformanceEnableQuery,
  PerformanceReasonQuery,
  PerformanceReportSchema,
  PerformanceStateSchema,
  type CacheActionResult,
} from '@marketplace/api-contract';
import type { FastifyRequest } from 'fastify';
import type { Registry } from 'prom-client';
import { signedInViewer } from '../../auth/authorization';
import { ApiError } from '../../plugins/app/errors';
import { recordAdminAudit } from '../audit';
import { announceCacheEvent } from '../caches/events';
import { UnknownCacheError } from '../caches/registry';
import { prometheusRegistry } from './prometheus';
import { performanceReport } from './report';
import type { PoolUse } from '../../db/connection-usage';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody } as const;
const BASE = '/api/performance';
const TAGS = ['admin'];
/** Admin only; none of these changes the catalogue, so the answers kept for visitors stay. */
const ADMIN = { auth: { rule: 'admin' }, readOnly: true } as const;

export const METRICS_TOKEN_REQUIRED = 'GET /metrics needs the bearer token set in METRICS_TOKEN.';
export const METRICS_LOOPBACK_ONLY =
  'GET /metrics answers only requests from this machine that no proxy forwarded; set METRICS_TOKEN to scrape it from elsewhere.';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether a request may read /metrics: with the configured token, or without one from loopback, unproxied. */
function metricsRefusal(request: FastifyRequest, token: string | undefined): ApiError | undefined {
  if (token !== undefined) {
    const header = request.headers.authorization ?? '';
    const given = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim() ?? '';
    return sameSecret(given, token) ? undefined : new ApiError('unauthorized', METRICS_TOKEN_REQUIRED);
  }
  const address = request.raw.socket.remoteAddress ?? '';
  const forwarded =
    request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
  return LOOPBACK.has(address) && !forwarded ? undefined : new ApiError('forbidden', METRICS_LOOPBACK_ONLY);
}

export interface PerformanceRoutesOptions {
  /** This process among the nodes: events it announces are skipped when it reads them back. */
  node: string;
}

/** Spec §7's `/api/performance...` (see api-contract's admin-performance.ts) and `GET /metrics`. */
export const performanceRoutes: FastifyPluginAsyncTypebox<PerformanceRoutesOptions> = async (
  app,
  options,
) => {
  const { node } = options;
  const metrics = app.performanceMetrics;
  const caches = app.caches;
  const usage = app.databaseConnection.usage;
  const pool = (): PoolUse =>
    usage?.pool() ?? { kind: app.databaseKind, total: 0, idle: 0, waiting: 0, max: 0 };
  let registry: Registry | undefined;

  const actorOf = (request: FastifyRequest) => signedInViewer(request).user.id;

  app.get(
    BASE,
    {
      config: ADMIN,
      schema: {
        tags: TAGS,
        summary: 'Requests, latency, errors, caches and database use of this server process (administrators)',
        response: { 200: PerformanceReportSchema, ...errors },
      },
    },
    async () => performanceReport({ metrics, caches, pool: pool(), node }),
  );

  app.post(
    `${BASE}/reset`,
    {
      config: ADMIN,
      schema: {
        tags: TAGS,
        summary: 'Start the figures over (administrators)',
        querystring: PerformanceReasonQuery,
        response: { 200: PerformanceStateSchema, ...errors },
      },
    },
    async (request) => {
      metrics.reset();
      await recordAdminAudit(app.db, {
        actorId: actorOf(request),
        action: 'performance-reset',
        subject: `performance:${node}`,
        ...(request.query.reason ? { reason: request.query.reason } : {}),
      });
      return { enabled: metrics.enabled, since: metrics.since };
    },
  );

  app.post(
    `${BASE}/enable`,
    {
      config: ADMIN,
      schema: {
        tags: TAGS,
        summary: 'Turn collection on (value=true) or off (value=false) (administrators)',
        querystring: PerformanceEnableQuery,
        response: { 200: PerformanceStateSchema, ...errors },
      },
    },
    async (request) => {
      const enabled = request.query.value === 'true';
      metrics.setEnabled(enabled);
      await recordAdminAudit(app.db, {
        actorId: actorOf(request),
        action: enabled ? 'performance-enable' : 'performance-disable',
        subject: `performance:${node}`,
        ...(request.query.reason ? { reason: request.query.reason } : {}),
      });
      return { enabled: metrics.enabled, since: metrics.since };
    },
  );

  /** Flush or reload here, then tell the other nodes (one row they read) and write the audit entry. */
  async function cacheAction(
    request: FastifyRequest,
    action: 'flush' | 'reload',
  ): Promise<CacheActionResult> {
    const { name, reason } = request.query as CacheActionQuery;
    let names: string[];
    try {
      names = action === 'flush' ? await caches.flush(name) : caches.reload(name).names;
    } catch (error) {
      if (error instanceof UnknownCacheError) throw new ApiError('badRequest', error.message);
      throw error;
    }
    const actorId = actorOf(request);
    await app.db.transaction(async (transaction) => {
      await announceCacheEvent(transaction, {
        action,
        cacheName: name ?? null,
        origin: node,
        requestedBy: actorId,
      });
      await recordAdminAudit(transaction, {
        actorId,
        action: `cache-${action}`,
        subject: `cache:${name ?? '*'}`,
        ...(reason ? { reason } : {}),
        details: { caches: names, node },
      });
    });
    return { action, caches: names, otherNodes: 'notified' };
  }

  app.post(
    `${BASE}/cache/flush`,
    {
      config: ADMIN,
      schema: {
        tags: TAGS,
        summary: 'Empty one cache (?name=) or all of them, on every node (administrators)',
        querystring: CacheActionQuery,
        response: { 200: CacheActionResultSchema, ...errors },
      },
    },
    async (request) => cacheAction(request, 'flush'),
  );

  app.post(
    `${BASE}/cache/reload`,
    {
      config: ADMIN,
      schema: {
        tags: TAGS,
        summary:
          'Rebuild one cache (?name=) or all of them in the background, on every node; the old contents answer meanwhile (administrators)',
        querystring: CacheActionQuery,
        response: { 202: CacheActionResultSchema, ...errors },
      },
    },
    async (request, reply) => reply.code(202).send(await cacheAction(request, 'reload')),
  );

  app.get(
    '/metrics',
    {
      // Read by the operator's scraper, which has no user session: its own token, or this machine only.
      config: { auth: { rule: 'public' }, ownAuthorization: true },
      schema: { hide: true },
    },
    async (request, reply) => {
      const refusal = metricsRefusal(request, app.config.performance.metricsToken);
      if (refusal) throw refusal;
      registry ??= prometheusRegistry({ metrics, caches, pool });
      return reply.type(registry.contentType).send(await registry.metrics());
    },
  );
};
