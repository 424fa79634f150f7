import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TokenScope } from '@marketplace/api-contract';
import Fastify, { type FastifyInstance } from 'fastify';
import { importJWK, SignJWT } from 'jose';
import { createApiToken } from '../../src/auth/api-tokens';
import { loadSharedIdentityKeys } from '../../src/auth/keys';
import { authPlugin } from '../../src/auth/plugin';
import { createLocalUser, type UserRow } from '../../src/auth/users';
import { loadConfig, type Config } from '../../src/config';
import type { Database } from '../../src/db/client';
import { plugins, tags, vendors } from '../../src/db/schema';
import { AnswerCache } from '../../src/plugins/app/answer-cache';
import caching from '../../src/plugins/app/caching';
import catalogueSearch from '../../src/plugins/app/catalogue-search';
import { insightRecording } from '../../src/insight';
import errorHandling from '../../src/plugins/app/errors';
import services from '../../src/plugins/app/services';
import publishing, { type PublishingOptions } from '../../src/publishing';
import routes from '../../src/routes';
import { createFileStore, type DiskFileStore } from '../../src/storage';
import { createTestDatabase, type TestDatabase } from '../db/test-database';

export interface PublishingTestApp {
  app: FastifyInstance;
  db: Database;
  fileStore: DiskFileStore;
  config: Config;
  dataDir: string;
  testDatabase: TestDatabase;
  close(): Promise<void>;
}

/**
 * The server's plugin tree as buildApp assembles it (errors, services, caching, the catalogue's search index
 * and IDE feed, sign-in, read routes and feeds) with
 * publishing registered under the test's options, on a fresh database and data directory.
 */
export async function buildPublishingTestApp(
  options: Partial<PublishingOptions> = {},
): Promise<PublishingTestApp> {
  const testDatabase = await createTestDatabase();
  const dataDir = await mkdtemp(join(tmpdir(), 'mp-publishing-'));
  const fileStore = createFileStore(dataDir);
  const config = loadConfig(
    {
      DATA_DIR: dataDir,
      RESPONSE_CACHE_MS: '0',
      PUBLIC_URL: 'https://plugins.example.com',
      WRITE_RATE_LIMIT: '10000',
    },
    [],
    dataDir,
  );
  const app = Fastify({ logger: process.env.PUBLISHING_TEST_LOG ? { level: 'warn' } : false });
  await app.register(errorHandling);
  await app.register(services, { database: testDatabase.database, fileStore, config });
  // No answer is replayed (RESPONSE_CACHE_MS=0); the search index and the IDE feed follow every write.
  await app.register(caching, { answers: new AnswerCache(0, config.cacheMaxAgeSeconds) });
  await app.register(catalogueSearch);
  // Downloads record insight events: the catalogue routes need the recorder, as in buildApp.
  await app.register(insightRecording);
  await app.register(authPlugin, { database: testDatabase.database, config: config.auth });
  await app.register(routes);
  await app.register(publishing, { sweepIntervalMs: 0, ...options });
  await app.ready();
  return {
    app,
    db: testDatabase.database.db,
    fileStore,
    config,
    dataDir,
    testDatabase,
    async close() {
      await app.close();
      await testDatabase.dispose();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export async function addUser(db: Database, login: string, isAdmin = false): Promise<UserRow> {
  return createLocalUser(db, { login, password: `${login}-password-1`, isAdmin });
}

export async function permanentToken(db: Database, userId: number, scopes: TokenScope[]): Promise<string> {
  const created = await createApiToken(db, { userId, name: `token ${scopes.join('+')}`, scopes });
  return created.token;
}

/** A sign-in access token, as the embedded identity service issues it. */
export async function accessTokenFor(testApp: PublishingTestApp, userId: number): Promise<string> {
  const keys = await loadSharedIdentityKeys(testApp.db, testApp.dataDir);
  const jwk = keys.signingKeys.find((key) => key.alg === 'ES256');
  if (!jwk) throw new Error('The identity keys have no ES256 key.');
  return new SignJWT({ scope: 'api' })
    .setProtectedHeader({ alg: 'ES256', kid: jwk.kid ?? '', typ: 'at+jwt' })
    .setIssuer(testApp.config.auth.identity.issuer)
    .setAudience(testApp.config.auth.audience)
    .setSubject(String(userId))
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(await importJWK(jwk, 'ES256'));
}

/** A plugin row as the first manual upload leaves it (draft), owned by `ownerId`. */
export async function insertPlugin(
  db: Database,
  values: { xmlId: string; ownerId: number; name?: string } & Partial<typeof plugins.$inferInsert>,
): Promise<number> {
  const [vendor] = await db
    .insert(vendors)
    .values({ name: `Vendor of ${values.xmlId}` })
    .returning({ id: vendors.id });
  const [row] = await db
    .insert(plugins)
    .values({ family: 'intellij', name: values.name ?? values.xmlId, vendorId: vendor!.id, ...values })
    .returning({ id: plugins.id });
  return row!.id;
}

export async function insertTags(db: Database, names: string[]): Promise<void> {
  await db.insert(tags).values(names.map((name) => ({ name })));
}

/** A multipart/form-data body, as browsers and curl send it. */
export function multipartBody(
  fields: Record<string, string>,
  file?: { field?: string; name: string; content: Buffer; type?: string },
  options: { fileFirst?: boolean } = {},
): { body: Buffer; headers: Record<string, string> } {
  const boundary = `----mp-test-${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  const addFields = () => {
    for (const [name, value] of Object.entries(fields)) {
      chunks.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
      );
    }
  };
  const addFile = () => {
    if (!file) return;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\n` +
          `Content-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  };
  if (options.fileFirst ?? true) {
    addFile();
    addFields();
  } else {
    addFields();
    addFile();
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const body = Buffer.concat(chunks);
  return {
    body,
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(body.length),
    },
  };
}

export async function readBytes(path: string): Promise<Buffer> {
  return readFile(path);
}

/** Every file in the store (hashes), to check that refused uploads leave nothing behind. */
export async function storedHashes(fileStore: DiskFileStore): Promise<string[]> {
  const hashes: string[] = [];
  for await (const hash of fileStore.list()) hashes.push(hash);
  return hashes;
}
