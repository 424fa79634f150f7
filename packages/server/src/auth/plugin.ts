import rateLimit from '@fastify/rate-limit';
import type { TokenScope } from '@marketplace/api-contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import type Provider from 'oidc-provider';
import { ConfigError } from '../config';
import type { DatabaseConnection } from '../db/client';
import { ApiError } from '../plugins/app/errors';
import {
  createAccessTokenVerifier,
  IdentityServiceUnavailableError,
  InvalidAccessTokenError,
  type AccessTokenVerifier,
} from './access-tokens';
import { isPermanentTokenText, resolveApiToken } from './api-tokens';
import { checkRouteRule, GUEST_VIEWER, isWriteMethod, refusalFor, type Viewer } from './authorization';
import type { AuthConfig } from './config';
import { createEmbeddedProvider } from './embedded-provider';
import { loadSharedIdentityKeys, publicJwks } from './keys';
import { startLocalChannel, type LocalChannel } from './local-channel';
import { oidcRoutes } from './oidc-routes';
import { accountRoutes } from './routes';
import { findOrCreateExternalUser, findUserById, toAuthenticatedUser, type UserRow } from './users';

export interface AuthPluginOptions {
  database: DatabaseConnection;
  config: AuthConfig;
  /** Key prefix of the rate-limit counters in Redis (tests use their own). */
  rateLimitNamespace?: string;
  /**
   * Open the local admin channel (DATA_DIR/admin/admin.sock) for `mp users` / `mp tokens` once the server
   * listens (default true). Without it those commands would open the embedded database beside the server.
   */
  localChannel?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The embedded identity service, when this server is its own (undefined with an external issuer). */
    identityProvider: Provider | undefined;
  }
}

const INVALID_TOKEN_MESSAGE = 'Your sign-in is not valid or has expired. Please sign in again.';

function invalidToken(reply: FastifyReply, description: string): ApiError {
  reply.header('www-authenticate', `Bearer error="invalid_token", error_description="${description}"`);
  return new ApiError('unauthorized', INVALID_TOKEN_MESSAGE);
}

function userViewer(row: UserRow, tokenScopes?: readonly TokenScope[]): Viewer {
  const user = toAuthenticatedUser(row);
  return {
    kind: 'user',
    user,
    isAdmin: user.isAdmin,
    banned: user.banned,
    ...(tokenScopes ? { tokenScopes } : {}),
  };
}

/**
 * Sign-in, roles and API tokens for the whole server: resolves `request.viewer` from the bearer token
 * (embedded or external OpenID Connect JWT, or a `perm:` API token), enforces each route's declared rule,
 * refuses to start when a write route declares none, limits the rate of writes and of password attempts,
 * mounts the embedded identity service under /oidc, and serves the account routes (`/api/users/me`, tokens).
 *
 * Register it before any route: the declaration check sees only routes added after it.
 */
async function auth(app: FastifyInstance, options: AuthPluginOptions) {
  const { config } = options;
  const db = options.database.db;

  let provider: Provider | undefined;
  let verifyAccessToken: AccessTokenVerifier;
  if (config.identity.kind === 'embedded') {
    const keys = await loadSharedIdentityKeys(db, config.dataDir);
    provider = createEmbeddedProvider(db, config, keys);
    verifyAccessToken = createAccessTokenVerifier({
      issuer: config.identity.issuer,
      audience: config.audience,
      algorithms: config.algorithms,
      keys: { kind: 'local', jwks: publicJwks(keys) },
      requiredType: 'at+jwt',
    });
  } else {
    verifyAccessToken = createAccessTokenVerifier({
      issuer: config.identity.issuer,
      audience: config.audience,
      algorithms: config.algorithms,
      keys: { kind: 'discovered' },
    });
  }
  app.decorate('identityProvider', provider);
  // Fastify forbids shared objects as request decorations: start empty, the onRequest hook sets it.
  app.decorateRequest<Viewer | null>('viewer', null);

  app.addHook('onRoute', (route) => checkRouteRule(route));

  const redis = config.redisUrl ? await connectRateLimitStore(config.redisUrl) : undefined;
  if (redis) {
    redis.on('error', (error: Error) => app.log.warn({ err: error }, 'rate-limit store (Redis) error'));
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
  }
  await app.register(rateLimit, {
    global: false,
    // Rate limits protect; they must not take the site down with them when Redis is away.
    skipOnError: true,
    ...(redis ? { redis, nameSpace: options.rateLimitNamespace ?? config.redisKeyPrefix } : {}),
  });

  const limitWrites = app.createRateLimit({
    max: config.rateLimits.writesPerMinute,
    timeWindow: 60_000,
    keyGenerator: (request) =>
      request.viewer.kind === 'user' ? `write:user:${request.viewer.user.id}` : `write:ip:${request.ip}`,
  });
  const limitLogins = app.createRateLimit({
    max: config.rateLimits.loginPerMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => `login:ip:${request.ip}`,
  });
  // Guessing one account's password from many addresses meets this one. Twice the per-address limit, so an
  // owner who mistypes from one place is stopped by the address limit first; a lockout lasts one minute.
  const limitAccountLogins = app.createRateLimit({
    max: config.rateLimits.loginPerMinute * 2,
    timeWindow: 60_000,
    keyGenerator: (request) => {
      const body = request.body as { login?: unknown } | undefined;
      const login = typeof body?.login === 'string' ? body.login.trim().toLowerCase().slice(0, 50) : '';
      return `login:account:${login}`;
    },
  });

  // Guessing tokens costs a lookup each: failures are counted per address, whatever the route and whether or
  // not it limits writes, and past the limit the answer is 429 instead of 401.
  const limitFailedTokens = app.createRateLimit({
    max: config.rateLimits.failedTokensPerMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => `token-failure:ip:${request.ip}`,
  });

  async function viewerOrRefusal(request: FastifyRequest, reply: FastifyReply): Promise<Viewer> {
    try {
      return await viewerFor(request, reply);
    } catch (error) {
      if (!(error instanceof ApiError) || error.statusCode !== 401) throw error;
      const result = await limitFailedTokens(request);
      if (result.isAllowed || !result.isExceeded) throw error;
      request.log.warn({ ip: request.ip }, 'too many refused tokens from one address');
      reply.removeHeader('www-authenticate');
      reply.header('retry-after', String(result.ttlInSeconds));
      throw new ApiError(
        'tooManyRequests',
        `Too many requests with a token that is not valid. Please wait ${result.ttlInSeconds} seconds and try again.`,
      );
    }
  }

  async function viewerFor(request: FastifyRequest, reply: FastifyReply): Promise<Viewer> {
    const header = request.headers.authorization;
    if (header === undefined || header === '') return GUEST_VIEWER;
    const match = /^Bearer +(\S+)$/i.exec(header.trim());
    if (!match?.[1]) throw invalidToken(reply, 'The Authorization header must be "Bearer <token>".');
    const token = match[1];
    if (isPermanentTokenText(token)) {
      const resolved = await resolveApiToken(db, token);
      if (!resolved) throw invalidToken(reply, 'Unknown, revoked or expired API token.');
      return userViewer(resolved.user, resolved.scopes);
    }
    let verified;
    try {
      verified = await verifyAccessToken(token);
    } catch (error) {
      if (error instanceof IdentityServiceUnavailableError) {
        request.log.error({ err: error }, 'cannot check a bearer token');
        reply.header('retry-after', '30');
        throw new ApiError(
          'unavailable',
          'Sign-in cannot be checked right now because the identity service does not answer. Please try again soon.',
        );
      }
      if (!(error instanceof InvalidAccessTokenError)) throw error;
      request.log.info({ reason: error.message }, 'bearer token refused');
      throw invalidToken(reply, 'The access token is not valid.');
    }
    if (config.identity.kind === 'embedded') {
      const id = /^\d{1,10}$/.test(verified.subject) ? Number(verified.subject) : NaN;
      const row = Number.isSafeInteger(id) ? await findUserById(db, id) : undefined;
      if (!row) throw invalidToken(reply, 'The access token names an unknown user.');
      return userViewer(row);
    }
    const claims = verified.claims;
    const row = await findOrCreateExternalUser(db, config.identity.issuer, {
      subject: verified.subject,
      preferredUsername:
        typeof claims.preferred_username === 'string' ? claims.preferred_username : undefined,
      name: typeof claims.name === 'string' ? claims.name : undefined,
      email: typeof claims.email === 'string' ? claims.email : undefined,
      emailVerified: typeof claims.email_verified === 'boolean' ? claims.email_verified : undefined,
    });
    return userViewer(row);
  }

  app.addHook('onRequest', async (request, reply) => {
    const routeConfig = request.routeOptions.config;
    request.viewer = routeConfig.ownAuthorization ? GUEST_VIEWER : await viewerOrRefusal(request, reply);
    const refusal = await refusalFor(request, routeConfig.auth);
    if (refusal) {
      if (refusal.status === 401) reply.header('www-authenticate', 'Bearer');
      throw new ApiError(
        refusal.status === 401 ? 'unauthorized' : refusal.status === 403 ? 'forbidden' : 'notFound',
        refusal.message,
      );
    }
    if (isWriteMethod(request.method) && routeConfig.writeLimit !== false) {
      const result = await limitWrites(request);
      if (!result.isAllowed && result.isExceeded) {
        reply.header('retry-after', String(result.ttlInSeconds));
        throw new ApiError(
          'tooManyRequests',
          `Too many changes in a short time. Please wait ${result.ttlInSeconds} seconds and try again.`,
        );
      }
    }
  });

  if (provider) {
    const embedded = provider;
    await app.register(oidcRoutes, {
      provider: embedded,
      db,
      limitLoginAttempt: async (request) => {
        for (const limit of [limitLogins, limitAccountLogins]) {
          const result = await limit(request);
          if (!result.isAllowed && result.isExceeded) return result.ttlInSeconds;
        }
        return undefined;
      },
    });
  }
  await app.register(accountRoutes, { db });

  if (options.localChannel !== false) {
    // The opening itself is kept, not only its result: a stop right after listen (while the channel still
    // opens) must wait for it and close it, or the socket is left in DATA_DIR and answers no one.
    let opening: Promise<LocalChannel | undefined> | undefined;
    let closed = false;
    app.addHook('onListen', async () => {
      if (closed) return;
      opening = startLocalChannel({ dataDir: config.dataDir, db, log: app.log }).catch((error: unknown) => {
        app.log.error(
          { err: error },
          `The local admin channel could not open in ${config.dataDir}; stop the server before using mp users or mp tokens.`,
        );
        return undefined;
      });
      await opening;
    });
    app.addHook('onClose', async () => {
      closed = true;
      await (await opening)?.close();
    });
  }
}

export const authPlugin = fp(auth, { name: 'auth', fastify: '5.x' });
export default authPlugin;

/**
 * Connects to the Redis that keeps the rate limits every node shares (REDIS_URL), at start: a Redis that is
 * configured but cannot be reached stops the start with one line naming the setting, rather than every
 * node quietly limiting on its own. Once running, a Redis that goes away is logged and limits are skipped
 * (the plugin's `skipOnError`) until it is back: ioredis reconnects by itself.
 */
export async function connectRateLimitStore(url: string): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
  });
  let lastError: Error | undefined;
  const noteError = (error: Error) => {
    lastError = error;
  };
  redis.on('error', noteError);
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    let where = url;
    try {
      const parsed = new URL(url);
      where = `${parsed.hostname}:${parsed.port || '6379'}`;
    } catch {
      // Not a URL ioredis would take either: its own message says why.
    }
    const reason = (lastError ?? (error as Error)).message;
    throw new ConfigError(
      `REDIS_URL (${where}) cannot be used (${reason}): check REDIS_URL, or unset it to keep rate limits in each node.`,
    );
  }
  redis.off('error', noteError);
  return redis;
}
