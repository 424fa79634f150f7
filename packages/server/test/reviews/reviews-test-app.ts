import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql } from 'drizzle-orm';
import { importJWK, SignJWT } from 'jose';
import { buildApp } from '../../src/app';
import { loadSharedIdentityKeys } from '../../src/auth/keys';
import { loadConfig, type Config } from '../../src/config';
import { openDatabase, type Database, type DatabaseConnection, type DatabaseKind } from '../../src/db/client';
import { users } from '../../src/db/schema';
import { createFileStore } from '../../src/storage';
import { seedCatalogue } from '../api/catalogue-fixture';
import { createTestDatabase, type TestDatabase } from '../db/test-database';

export interface ReviewsTestApp {
  app: FastifyInstance;
  db: Database;
  config: Config;
  testDatabase: TestDatabase;
  /** A signed-in user's Authorization header value, as the embedded identity service would issue it. */
  bearer(userId: number): Promise<string>;
  /** A request as that user (undefined: a guest). */
  call(userId: number | undefined, options: InjectOptions): Promise<LightMyRequestResponse>;
  /** Inserts a user directly (no password), for tests that need many. */
  addUser(login: string, extra?: { isAdmin?: boolean; banned?: boolean }): Promise<number>;
  /** PostgreSQL only: a second server process on the same database, as behind a load balancer. */
  secondApp(): Promise<FastifyInstance>;
  close(): Promise<void>;
}

export interface ReviewsTestAppOptions {
  kind?: DatabaseKind;
  /** Load the API tests' known catalogue (default true). */
  catalogue?: boolean;
  /** More environment settings for the server's configuration (TRUST_PROXY...). */
  env?: Record<string, string>;
}

/** The real application (buildApp) on a fresh database and data directory. */
export async function createReviewsTestApp(options: ReviewsTestAppOptions = {}): Promise<ReviewsTestApp> {
  const testDatabase = await createTestDatabase(options.kind ? { kind: options.kind } : {});
  const dataDir = await mkdtemp(join(tmpdir(), 'mp-reviews-'));
  const fileStore = createFileStore(dataDir);
  const config = loadConfig(
    {
      DATA_DIR: dataDir,
      RESPONSE_CACHE_MS: '0',
      PUBLIC_URL: 'https://plugins.example.com',
      WRITE_RATE_LIMIT: '100000',
      LOGIN_RATE_LIMIT: '100000',
      ...options.env,
    },
    [],
    dataDir,
  );
  const db = testDatabase.database.db;
  const extraApps: { app: FastifyInstance; database: DatabaseConnection }[] = [];
  let app: FastifyInstance | undefined;
  try {
    if (options.catalogue ?? true) {
      await seedCatalogue(db, fileStore);
      // The catalogue gives its reviews and replies fixed ids; new ones must not collide with them.
      await db.execute(sql`SELECT setval('reviews_id_seq', (SELECT max(id) FROM reviews))`);
      await db.execute(sql`SELECT setval('review_replies_id_seq', (SELECT max(id) FROM review_replies))`);
    }
    app = await buildApp({ database: testDatabase.database, fileStore, config });
    await app.ready();
  } catch (error) {
    await app?.close();
    await testDatabase.dispose();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const ready = app;

  const keys = await loadSharedIdentityKeys(db, dataDir);
  const jwk = keys.signingKeys.find((key) => key.alg === 'ES256');
  if (!jwk) throw new Error('The identity keys have no ES256 key.');
  const signingKey = await importJWK(jwk, 'ES256');
  const bearer = async (userId: number) =>
    `Bearer ${await new SignJWT({ scope: 'api' })
      .setProtectedHeader({ alg: 'ES256', kid: jwk.kid ?? '', typ: 'at+jwt' })
      .setIssuer(config.auth.identity.issuer)
      .setAudience(config.auth.audience)
      .setSubject(String(userId))
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(signingKey)}`;

  return {
    app: ready,
    db,
    config,
    testDatabase,
    bearer,
    async call(userId, request) {
      const headers = { ...(request.headers ?? {}) };
      if (userId !== undefined) headers.authorization = await bearer(userId);
      return ready.inject({ ...request, headers });
    },
    async addUser(login, extra = {}) {
      const [row] = await db
        .insert(users)
        .values({
          login,
          name: `User ${login}`,
          isAdmin: extra.isAdmin ?? false,
          banned: extra.banned ?? false,
        })
        .returning({ id: users.id });
      return row!.id;
    },
    async secondApp() {
      if (!testDatabase.databaseUrl) throw new Error('A second server process needs PostgreSQL.');
      const database = await openDatabase({
        databaseUrl: testDatabase.databaseUrl,
        dataDir,
        maxConnections: 4,
      });
      const other = await buildApp({ database, fileStore, config });
      extraApps.push({ app: other, database });
      await other.ready();
      return other;
    },
    async close() {
      for (const extra of extraApps) {
        await extra.app.close();
        await extra.database.close();
      }
      await ready.close();
      await testDatabase.dispose();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
