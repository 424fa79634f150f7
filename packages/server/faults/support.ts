import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import pg from 'pg';
import type { TokenScope } from '@marketplace/api-contract';
import { createApiToken } from '../src/auth/api-tokens';
import { createLocalUser } from '../src/auth/users';
import { openDatabase, type DatabaseConnection } from '../src/db/client';
import { migrate } from '../src/db/migrate';
import { plugins, vendors } from '../src/db/schema';
import { unsignedZip } from '../src/trust/signatures';
import { archiveBytes, pluginJarContent, pluginXml } from '../test/archive/plugin-fixtures';
import { startServerProcess, type ServerProcess } from '../test/support/server-process';

/*
 * What every fault driver shares: settings from the environment, a fresh PostgreSQL database or PGlite data
 * folder, the real server started as `pnpm start` runs it, plugin archives made on the spot, uploads and
 * downloads over real HTTP, and the figures (percentiles, a fitted slope, /proc readings) of the report.
 * The scale-out issue reuses these with two server processes on one database.
 */

/** One driver's outcome: its figures for the report, and every rule it saw broken (empty: passed). */
export interface DriverResult {
  name: string;
  figures: Record<string, number | string>;
  failures: string[];
  /** Set when the driver could not run here at all, with the reason (counts as a failure unless allowed). */
  skipped?: string;
  durationMs?: number;
}

/** A whole number from the environment (FAULTS_*), or the value when unset. */
export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number >= 0, got "${raw}".`);
  return value;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The PostgreSQL server the suite makes its databases on (trust authentication, as CI has it). */
export const POSTGRES_ADMIN_URL =
  process.env.FAULTS_POSTGRES_URL ??
  process.env.TEST_POSTGRES_URL ??
  'postgres://postgres@127.0.0.1:5432/test';

export async function withAdminClient<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export interface PostgresDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** A new, empty PostgreSQL database of its own, dropped (with any connection left) by `drop`. */
export async function createPostgresDatabase(label: string): Promise<PostgresDatabase> {
  const name = `mp_faults_${label}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await withAdminClient((admin) => admin.query(`CREATE DATABASE ${name}`));
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      await withAdminClient((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** Cuts every connection the server holds to this database; answers how many were cut. */
export async function terminateBackends(databaseName: string): Promise<number> {
  return withAdminClient(async (admin) => {
    const result = await admin.query<{ cut: boolean }>(
      `SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity
        WHERE datname = $1 AND pid <> pg_backend_pid()`,
      [databaseName],
    );
    return result.rows.filter((row) => row.cut).length;
  });
}

/** Where a server keeps its data: DATA_DIR always, and the database at DATABASE_URL or PGlite in DATA_DIR. */
export interface ServerHome {
  dataDir: string;
  databaseUrl?: string;
}

/**
 * The real server (`src/server.ts` through tsx) on this data: no demo catalogue, no Redis, no sweep of its
 * own (the drivers sweep when they mean to), limits that the traffic of a driver does not reach.
 */
export function startServer(
  home: ServerHome,
  options: { port?: number; env?: Record<string, string> } = {},
): Promise<ServerProcess> {
  return startServerProcess({
    ...(options.port !== undefined ? { port: options.port } : {}),
    startTimeoutMs: 180_000,
    env: {
      DATA_DIR: home.dataDir,
      DATABASE_URL: home.databaseUrl ?? '',
      NO_DEMO: 'true',
      NODE_ENV: 'production',
      LOG_LEVEL: process.env.FAULTS_SERVER_LOG ?? 'error',
      REDIS_URL: '',
      WRITE_RATE_LIMIT: '1000000',
      LOGIN_RATE_LIMIT: '1000000',
      TOKEN_FAILURE_RATE_LIMIT: '1000000',
      SWEEP_INTERVAL_SECONDS: '0',
      ...options.env,
    },
  });
}

export interface Catalogue {
  ownerId: number;
  /** A `perm:` token of the owner with the upload and manage scopes. */
  token: string;
  plugins: { id: number; xmlId: string }[];
  /** Reviewers, each with a manage token, for traffic that writes reviews. */
  reviewers: { id: number; token: string }[];
}

/**
 * Migrates the database and writes an owner with an upload token, `pluginCount` listed plugins of theirs and `reviewerCount` reviewers. With PGlite, call it before the
 * server starts: the embedded database is one process's at a time.
 */
export async function prepareCatalogue(
  home: ServerHome,
  options: { pluginCount: number; reviewerCount?: number; label?: string },
): Promise<Catalogue> {
  const database: DatabaseConnection = await openDatabase({
    dataDir: home.dataDir,
    databaseUrl: home.databaseUrl,
    maxConnections: 2,
  });
  try {
    await migrate(database);
    const label = options.label ?? 'faults';
    const scopes: TokenScope[] = ['upload', 'manage'];
    const owner = await createLocalUser(database.db, {
      login: `${label}-owner`,
      password: `${label}-owner-password`,
    });
    const { token } = await createApiToken(database.db, { userId: owner.id, name: 'faults', scopes });
    const [vendor] = await database.db
      .insert(vendors)
      .values({ name: `Vendor of ${label}` })
      .returning({ id: vendors.id });
    const created: Catalogue['plugins'] = [];
    for (let index = 0; index < options.pluginCount; index++) {
      const xmlId = `org.faults.${label}.p${index}`;
      const [row] = await database.db
        .insert(plugins)
        .values({
          family: 'intellij',
          xmlId,
          name: `Fault Plugin ${index}`,
          vendorId: vendor!.id,
          ownerId: owner.id,
          description: `A plugin the fault suite uploads to, number ${index}.`,
          // Listed, so that it can be reviewed and found; its versions still wait for approval.
          lifecycleState: 'published',
          approved: true,
          publishedAt: new Date(),
        })
        .returning({ id: plugins.id });
      created.push({ id: row!.id, xmlId });
    }
    const reviewers: Catalogue['reviewers'] = [];
    for (let index = 0; index < (options.reviewerCount ?? 0); index++) {
      const user = await createLocalUser(database.db, {
        login: `${label}-reviewer${index}`,
        password: `${label}-reviewer-password`,
      });
      const made = await createApiToken(database.db, { userId: user.id, name: 'reviews', scopes });
      reviewers.push({ id: user.id, token: made.token });
    }
    return { ownerId: owner.id, token, plugins: created, reviewers };
  } finally {
    await database.close();
  }
}

/**
 * A plugin jar declaring `xmlId` at `version`, with `payloadBytes` of random (so incompressible) bytes:
 * the archive the server inspects, stores and serves back.
 */
export async function pluginArchive(xmlId: string, version: string, payloadBytes: number): Promise<Buffer> {
  return archiveBytes({
    ...pluginJarContent(
      pluginXml({
        id: `<id>${xmlId}</id>`,
        version: `<version>${version}</version>`,
        // Fixed ids need no vendor URL check; keep the vendor plain.
        vendor: '<vendor email="faults@example.com">Fault Suite</vendor>',
      }),
    ),
    'resources/payload.bin': randomBytes(payloadBytes),
  });
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export interface UploadAnswer {
  status: number;
  body: unknown;
  /** The version id when answered 200. */
  versionId?: number;
}

/** POST /api/updates/upload as the Gradle plugin sends it: the xml id first, then the archive. */
export async function uploadVersion(
  origin: string,
  token: string,
  xmlId: string,
  archive: Buffer,
  options: { signal?: AbortSignal } = {},
): Promise<UploadAnswer> {
  const form = new FormData();
  form.set('xmlId', xmlId);
  form.set('file', new Blob([new Uint8Array(archive)]), `${xmlId}.jar`);
  const response = await fetch(`${origin}/api/updates/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: kept as text for the report.
  }
  const versionId =
    response.status === 200 && typeof (body as { id?: unknown }).id === 'number'
      ? (body as { id: number }).id
      : undefined;
  return { status: response.status, body, ...(versionId !== undefined ? { versionId } : {}) };
}

/**
 * GET /plugin/download?updateId=N as the owner: the status and, when 200, the sha256 of the bytes and of
 * their content without signatures (`contentSha256`: what was uploaded, before the marketplace countersigned
 * it), which is what an upload is compared with.
 */
export async function downloadVersion(
  origin: string,
  token: string,
  versionId: number,
): Promise<{ status: number; sha256?: string; contentSha256?: string; size?: number }> {
  const response = await fetch(`${origin}/plugin/download?updateId=${versionId}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (response.status !== 200) {
    await response.arrayBuffer().catch(() => undefined);
    return { status: response.status };
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  return {
    status: 200,
    sha256: sha256(bytes),
    contentSha256: sha256(unsignedZip(Buffer.from(bytes))),
    size: bytes.byteLength,
  };
}

export interface TimedAnswer {
  status: number;
  ms: number;
  body: string;
  error?: string;
}

/**
 * One request over a connection of its own (no keep-alive pool shared with other traffic), timed from the
 * first byte sent to the last byte received. Status 0 when the connection failed.
 */
export function timedRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number } = {},
): Promise<TimedAnswer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const request = httpRequest(
      url,
      {
        method: options.method ?? 'GET',
        headers: { connection: 'close', ...options.headers },
        agent: false,
        timeout: options.timeoutMs ?? 30_000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            ms: performance.now() - started,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', (error) =>
          resolve({ status: 0, ms: performance.now() - started, body: '', error: error.message }),
        );
      },
    );
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', (error) =>
      resolve({ status: 0, ms: performance.now() - started, body: '', error: error.message }),
    );
    request.end(options.body);
  });
}

/** The p-th percentile (0-100) of the values, nearest rank; NaN when there are none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** The least-squares line through the points: its slope (y per x) and intercept. */
export function fitLine(points: readonly { x: number; y: number }[]): { slope: number; intercept: number } {
  const n = points.length;
  if (n < 2) return { slope: 0, intercept: points[0]?.y ?? 0 };
  const meanX = points.reduce((sum, point) => sum + point.x, 0) / n;
  const meanY = points.reduce((sum, point) => sum + point.y, 0) / n;
  let numerator = 0;
  let denominator = 0;
  for (const point of points) {
    numerator += (point.x - meanX) * (point.y - meanY);
    denominator += (point.x - meanX) ** 2;
  }
  const slope = denominator === 0 ? 0 : numerator / denominator;
  return { slope, intercept: meanY - slope * meanX };
}

/**
 * The process serving the port: `startServerProcess` runs node directly, so the child is the server, but
 * its pid is looked up rather than assumed in case a wrapper ever stands between.
 */
export function serverPid(server: ServerProcess): number {
  const pid = server.child.pid;
  if (pid === undefined) throw new Error('The server process has no pid.');
  return pid;
}

/** Resident memory of a process, in bytes (VmRSS of /proc/<pid>/status). */
export async function residentBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (!match) throw new Error(`No VmRSS for process ${pid}.`);
  return Number(match[1]) * 1024;
}

/** Open file descriptors of a process, by kind (socket, file, pipe, other) and in total. */
export async function openDescriptors(
  pid: number,
): Promise<{ total: number; sockets: number; files: number; other: number }> {
  const names = await readdir(`/proc/${pid}/fd`);
  let sockets = 0;
  let files = 0;
  for (const name of names) {
    const target = await readlink(`/proc/${pid}/fd/${name}`).catch(() => '');
    if (target.startsWith('socket:')) sockets += 1;
    else if (target.startsWith('/')) files += 1;
  }
  return { total: names.length, sockets, files, other: names.length - sockets - files };
}

/** Runs `work` on `concurrency` workers until `shouldStop` says so; each worker gets its number. */
export async function workers(
  concurrency: number,
  shouldStop: () => boolean,
  work: (worker: number) => Promise<void>,
): Promise<void> {
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (!shouldStop()) await work(worker);
    }),
  );
}

/** A short, readable description of an answer body for a failure line. */
export function describeBody(body: unknown): string {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}

export { type ServerProcess } from '../test/support/server-process';
