import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { importJWK, SignJWT } from 'jose';
import { authConfigFromEnv, type AuthConfig } from '../../src/auth/config';
import { loadSharedIdentityKeys } from '../../src/auth/keys';
import { authPlugin } from '../../src/auth/plugin';
import { createLocalUser, type UserRow } from '../../src/auth/users';
import errorHandling from '../../src/plugins/app/errors';
import { createTestDatabase, type TestDatabase } from '../db/test-database';

export interface AuthTestApp {
  app: FastifyInstance;
  config: AuthConfig;
  testDatabase: TestDatabase;
  dataDir: string;
  close(): Promise<void>;
}

export interface AuthTestAppOptions {
  /** The server's public address (the embedded issuer is `<publicUrl>/oidc`). */
  publicUrl?: string;
  env?: NodeJS.ProcessEnv;
  /** Routes of the test, registered after the auth plugin like the real routes are. */
  routes?: (app: FastifyInstance) => Promise<void> | void;
  /** Share one data directory (identity keys) between apps. */
  dataDir?: string;
  testDatabase?: TestDatabase;
  rateLimitNamespace?: string;
}

/** A Fastify instance with the auth plugin on a fresh test database and a fresh data directory. */
export async function buildAuthTestApp(options: AuthTestAppOptions = {}): Promise<AuthTestApp> {
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'mp-auth-')));
  const testDatabase = options.testDatabase ?? (await createTestDatabase());
  const config = authConfigFromEnv(options.env ?? {}, {
    publicUrl: options.publicUrl ?? 'http://127.0.0.1:8080',
    dataDir,
  });
  const app = Fastify({ logger: false });
  await app.register(errorHandling);
  await app.register(authPlugin, {
    database: testDatabase.database,
    config,
    ...(options.rateLimitNamespace ? { rateLimitNamespace: options.rateLimitNamespace } : {}),
  });
  if (options.routes) await app.register(async (scope) => options.routes?.(scope));
  await app.ready();
  return {
    app,
    config,
    testDatabase,
    dataDir,
    async close() {
      await app.close();
      if (!options.testDatabase) await testDatabase.dispose();
      if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export async function addUser(
  testApp: AuthTestApp,
  login: string,
  extra: { isAdmin?: boolean; password?: string } = {},
): Promise<UserRow> {
  return createLocalUser(testApp.testDatabase.database.db, {
    login,
    password: extra.password ?? `${login}-password`,
    isAdmin: extra.isAdmin ?? false,
  });
}

/** A valid access token for the user, as the embedded provider would issue it (signed with its key). */
export async function accessTokenFor(testApp: AuthTestApp, userId: number): Promise<string> {
  const keys = await loadSharedIdentityKeys(testApp.testDatabase.database.db, testApp.dataDir);
  const jwk = keys.signingKeys.find((key) => key.alg === 'ES256');
  if (!jwk) throw new Error('The identity keys have no ES256 key.');
  return new SignJWT({ scope: 'api' })
    .setProtectedHeader({ alg: 'ES256', kid: jwk.kid ?? '', typ: 'at+jwt' })
    .setIssuer(testApp.config.identity.issuer)
    .setAudience(testApp.config.audience)
    .setSubject(String(userId))
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(await importJWK(jwk, 'ES256'));
}

/** Starts a sign-in as the site would; returns the login page's path and the browser's cookies. */
export async function startSignIn(
  testApp: AuthTestApp,
  state = 'abc',
): Promise<{ loginPath: string; cookie: string }> {
  const identity = testApp.config.identity;
  if (identity.kind !== 'embedded') throw new Error('The embedded provider is not configured.');
  const start = await testApp.app.inject({
    url: `/oidc/auth?${new URLSearchParams({
      client_id: identity.clientId,
      response_type: 'code',
      redirect_uri: `${testApp.config.publicUrl}/auth/callback`,
      scope: 'openid profile',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      state,
    }).toString()}`,
  });
  if (start.statusCode !== 303) throw new Error(`The authorization request answered ${start.statusCode}.`);
  return {
    loginPath: new URL(String(start.headers.location), testApp.config.publicUrl).pathname,
    cookie: start.cookies.map((entry) => `${entry.name}=${entry.value}`).join('; '),
  };
}
