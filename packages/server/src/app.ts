import { createServer } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import admin from './admin';
import { featureFlags } from './admin/features';
import { authPlugin } from './auth/plugin';
import commerce from './commerce';
import type { Config } from './config';
import type { DatabaseConnection } from './db/client';
import type { FileStore } from './storage';
import { AnswerCache } from './plugins/app/answer-cache';
import caching from './plugins/app/caching';
import performanceFigures from './plugins/app/performance';
import { ANSWER_CACHE_ROUTE, PerformanceMetrics } from './admin/performance/metrics';
import catalogueSearch from './plugins/app/catalogue-search';
import { otherNodes } from './plugins/app/other-nodes';
import errorHandling from './plugins/app/errors';
import insight, { insightRecording } from './insight';
import services from './plugins/app/services';
import compression from './plugins/external/compression';
import cors from './plugins/external/cors';
import openApi from './plugins/external/openapi';
import pages from './pages';
import publishing from './publishing';
import reviewRoutes from './reviews/routes';
import routes from './routes';
import sdkHosting from './sdk-hosting';
import seo from './seo';
import siteHosting, { htmlSecurityHeaders } from './site-hosting';
import trust from './trust';
import verification from './verification';

/** What the application is built from: tests pass a fresh database and store, the server its real ones. */
export interface AppDependencies {
  database: DatabaseConnection;
  fileStore: FileStore;
  config: Config;
  /** A logger instance (tests pass none: logging off), or Fastify logger options. */
  logger?: FastifyBaseLogger | FastifyServerOptions['logger'];
  /** The built site to host (default: site/dist of this repository); tests pass a build of their own. */
  siteDir?: string;
}

/**
 * Builds the marketplace application as a tree of Fastify plugins (external ones first, then the app's own,
 * then routes). It does not listen: server.ts does, tests use `app.inject`.
 */
export async function buildApp(dependencies: AppDependencies): Promise<FastifyInstance> {
  const { config } = dependencies;
  const loggerOption = dependencies.logger ?? false;
  const isLoggerInstance =
    typeof loggerOption === 'object' && loggerOption !== null && 'child' in loggerOption;
  const answers = new AnswerCache(config.responseCacheMs, config.cacheMaxAgeSeconds);
  const metrics = new PerformanceMetrics(config.performance);
  const app = Fastify({
    // A kept public answer is sent by the HTTP server itself, before routing, hooks and serialization.
    serverFactory: (handler) => {
      const server = createServer((request, response) => {
        if (!answers.enabled) return handler(request, response);
        // Replayed answers are counted too: two clock reads and a few array writes when collection is on.
        const started = metrics.enabled ? performance.now() : 0;
        if (!answers.serveRaw(request, response)) return handler(request, response);
        if (metrics.enabled) {
          const route = answers.lastRoute ?? ANSWER_CACHE_ROUTE;
          metrics.recordRequest('GET', route, response.statusCode, performance.now() - started);
        }
      });
      // Fastify sets its 72 s keep-alive only on servers it creates: with Node's 5 s, a client reusing an
      // idle connection could meet the server closing it ("other side closed").
      server.keepAliveTimeout = 72_000;
      // Nor its idle-socket time-out: a body that stopped half-way or a download nobody reads would hold its
      // connection, file and memory for ever (Node closes silent headers and unfinished requests only).
      server.setTimeout(config.idleTimeoutSeconds * 1000);
      return server;
    },
    ...(isLoggerInstance ? { loggerInstance: loggerOption as FastifyBaseLogger } : { logger: loggerOption }),
    trustProxy: config.trustProxy,
    // Keep the API's own URLs exact: a trailing slash is a different resource for caches and ETags.
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 500 },
    bodyLimit: 1024 * 1024,
    ajv: {
      customOptions: { coerceTypes: 'array', removeAdditional: true, useDefaults: true, allErrors: false },
    },
  });

  await app.register(errorHandling);
  await app.register(performanceFigures, { metrics, database: dependencies.database });
  // Before the answer cache: its kept HTML answers are replayed with the headers this adds.
  await app.register(htmlSecurityHeaders, { auth: config.auth });
  // CORS first: its onRequest hook must also run for answers the caching plugin replays.
  await app.register(cors);
  await app.register(caching, { answers });
  await app.register(compression);
  await app.register(services, dependencies);
  await app.register(catalogueSearch);
  await app.register(insightRecording);
  // Feature flags before the routes: any part may read them (app.features.isOn).
  await app.register(featureFlags);
  // Sign-in resolves request.viewer and checks every route's declared rule: it must precede the routes.
  await app.register(authPlugin, { database: dependencies.database, config: config.auth });
  await app.register(openApi, { publicUrl: config.publicUrl });
  await app.register(routes);
  await app.register(publishing);
  await app.register(reviewRoutes);
  await app.register(commerce);
  await app.register(insight);
  await app.register(verification);
  await app.register(trust);
  await app.register(pages);
  await app.register(admin);
  // After the search, the feed and the caches' registry it wakes when another node changes something.
  await app.register(otherNodes, { database: dependencies.database });
  await app.register(seo);
  await app.register(siteHosting, {
    auth: config.auth,
    links: config.siteLinks,
    ...(dependencies.siteDir ? { siteDir: dependencies.siteDir } : {}),
  });
  await app.register(sdkHosting);
  return app;
}
