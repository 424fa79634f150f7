import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DATABASE_UNAVAILABLE_MESSAGE,
  DISK_FULL_MESSAGE,
  isDatabaseUnavailable,
  outageOf,
} from '../../src/outage';
import errorHandling from '../../src/plugins/app/errors';
import { selectRows } from '../../src/search/sql';
import { createTestDatabase, TEST_POSTGRES_ADMIN_URL, type TestDatabase } from './test-database';

/*
 * PostgreSQL connections cut under the server (pg_terminate_backend, as a restart or a failover does): the
 * request in flight is answered 503 with a message saying the database cannot be reached, never a 500, the
 * process survives a connection lost in the middle of a transaction, and the pool reconnects by itself.
 * The fault suite (packages/server/faults, `pnpm test:faults`) does the same under load with the real server.
 */

async function cutConnections(databaseUrl: string): Promise<number> {
  const name = new URL(databaseUrl).pathname.slice(1);
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    const result = await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [name],
    );
    return result.rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

describe('outageOf', () => {
  it('recognises lost and refused database connections, through the causes Drizzle wraps them in', () => {
    const terminated = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
    });
    expect(isDatabaseUnavailable(terminated)).toBe(true);
    expect(isDatabaseUnavailable(new Error('Failed query: SELECT 1', { cause: terminated }))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(
      isDatabaseUnavailable(new Error('Client has encountered a connection error and is not queryable')),
    ).toBe(true);
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
      syscall: 'connect',
    });
    expect(outageOf(refused)).toEqual({
      status: 503,
      message: DATABASE_UNAVAILABLE_MESSAGE,
      retryAfterSeconds: 5,
    });
  });

  it('answers a full disk with 507, and leaves every other error alone', () => {
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    expect(outageOf(new Error('wrapped', { cause: full }))).toMatchObject({
      status: 507,
      message: DISK_FULL_MESSAGE,
    });
    expect(outageOf(new Error('boom'))).toBeUndefined();
    expect(outageOf(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBeUndefined();
    // A reset of some other outgoing connection (a webhook) is not the database's.
    expect(
      outageOf(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', syscall: 'read' })),
    ).toBeUndefined();
  });
});

describe('a PostgreSQL connection cut while requests are in flight', () => {
  let testDatabase: TestDatabase;
  let app: FastifyInstance;
  let releaseTransaction: () => void = () => undefined;

  beforeAll(async () => {
    testDatabase = await createTestDatabase({ kind: 'postgres' });
    const db = testDatabase.database.db;
    app = Fastify();
    await app.register(errorHandling);
    app.get('/slow', async () => {
      await db.execute(sql`SELECT pg_sleep(30)`);
      return { ok: true };
    });
    // A transaction that waits between two statements, as one calling out or computing does.
    app.post('/transaction', async () =>
      db.transaction(async (tx) => {
        await tx.execute(sql`CREATE TEMP TABLE IF NOT EXISTS marks (n int)`);
        await new Promise<void>((resolve) => (releaseTransaction = resolve));
        await tx.execute(sql`INSERT INTO marks VALUES (1)`);
        return { ok: true };
      }),
    );
    app.get('/read', async () => {
      const [row] = await selectRows<{ one: number }>(db, sql`SELECT 1 AS one`);
      return row;
    });
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await testDatabase?.dispose();
  });

  it('answers the query in flight 503 with a message, then reconnects by itself', async () => {
    const answer = app.inject({ method: 'GET', url: '/slow' });
    // Wait until the sleep is running on the server, then cut it.
    for (let tries = 0; tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const sleeping = await new pg.Client({ connectionString: TEST_POSTGRES_ADMIN_URL });
      await sleeping.connect();
      const { rowCount } = await sleeping.query(
        "SELECT 1 FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep%'",
      );
      await sleeping.end();
      if (rowCount) break;
    }
    expect(await cutConnections(testDatabase.databaseUrl!)).toBeGreaterThan(0);
    const response = await answer;
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ type: 'error', message: DATABASE_UNAVAILABLE_MESSAGE });
    expect(response.headers['retry-after']).toBe('5');

    const next = await app.inject({ method: 'GET', url: '/read' });
    expect(next.statusCode).toBe(200);
    expect(next.json()).toEqual({ one: 1 });
  });

  it('gives a connection back when its transaction cannot even begin, so the pool never runs dry', async () => {
    const db = testDatabase.database.db;
    // A BEGIN that fails, as one on a connection cut a moment before does: here refused for its words. The pool
    // holds 4 connections; each such BEGIN used to keep its connection forever, and then every query waited.
    const unbeginnable = { isolationLevel: 'no such level' } as unknown as Parameters<
      typeof db.transaction
    >[1];
    for (let attempt = 0; attempt < 6; attempt++) {
      await expect(db.transaction(async () => undefined, unbeginnable)).rejects.toThrow();
    }
    const read = app.inject({ method: 'GET', url: '/read' });
    const waited = new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 5000));
    const answer = await Promise.race([read, waited]);
    expect(answer, 'a read waited 5 s for a connection: the pool ran dry').not.toBe('waited');
    expect(answer === 'waited' ? 0 : answer.statusCode).toBe(200);
  });

  it('survives a connection lost between two statements of a transaction, which is rolled back', async () => {
    const answer = app.inject({ method: 'POST', url: '/transaction' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The checked-out connection has no query running: before the fix its 'error' event ended the process.
    expect(await cutConnections(testDatabase.databaseUrl!)).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    releaseTransaction();
    const response = await answer;
    expect(response.statusCode).toBe(503);
    expect(response.json().message).toBe(DATABASE_UNAVAILABLE_MESSAGE);

    for (let index = 0; index < 5; index++) {
      const next = await app.inject({ method: 'GET', url: '/read' });
      expect(next.statusCode).toBe(200);
    }
  });
});
