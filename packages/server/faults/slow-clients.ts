import { readdir, mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uploadTempDirectory } from '../src/publishing';
import { multipartBody } from '../test/publishing/publishing-test-app';
import {
  createPostgresDatabase,
  describeBody,
  openDescriptors,
  percentile,
  pluginArchive,
  prepareCatalogue,
  serverPid,
  sleep,
  startServer,
  timedRequest,
  uploadVersion,
  type DriverResult,
  type PostgresDatabase,
  type ServerProcess,
} from './support';

export interface SlowClientsOptions {
  /** Slow and broken clients hanging at once (FAULTS_SLOW_CLIENTS), a third of each kind. */
  clients: number;
  /** The download nobody reads (MB, FAULTS_SLOW_DOWNLOAD_MB). */
  downloadMb: number;
  /** The server's idle time-out for this run (HTTP_IDLE_TIMEOUT_SECONDS, FAULTS_SLOW_IDLE_SECONDS). */
  idleSeconds: number;
  /** A normal reader's p99 must stay under this while the slow clients hang (ms, FAULTS_SLOW_P99_MS). */
  p99LimitMs: number;
}

/** Node's own limits the server keeps: headers must be complete in 60 s, checked every 30 s. */
const HEADERS_TIMEOUT_S = 60;
const CHECK_INTERVAL_S = 30;

type Kind = 'slowloris headers' | 'body stopped half-way' | 'download never read';

interface SlowClient {
  kind: Kind;
  socket: Socket;
  openedAt: number;
  closedAt?: number;
  timer?: NodeJS.Timeout;
}

/**
 * Slow and broken clients: `clients` connections that hang (slowloris headers sent a line every 5 s, an
 * upload whose body stops half-way, a large download whose answer is never read) while a normal reader
 * reads an item, a search and the version list. The reader's answers must all succeed, with p99 under the
 * limit; the server must close every hanging connection by itself within its time-outs (the idle time-out
 * for the body and the download, Node's header time-out for slowloris), after which its sockets, open files
 * and temporary upload files are back to what they were.
 */
export async function runSlowClients(options: SlowClientsOptions): Promise<DriverResult> {
  const name = 'slow and broken clients';
  const failures: string[] = [];
  const dataDir = await mkdtemp(join(tmpdir(), 'mp-faults-slow-'));
  let postgres: PostgresDatabase | undefined;
  let server: ServerProcess | undefined;
  const clients: SlowClient[] = [];
  try {
    postgres = await createPostgresDatabase('slow');
    const home = { dataDir, databaseUrl: postgres.url };
    const catalogue = await prepareCatalogue(home, { pluginCount: 2, label: 'slow' });
    server = await startServer(home, {
      env: { HTTP_IDLE_TIMEOUT_SECONDS: String(options.idleSeconds), RESPONSE_CACHE_MS: '0' },
    });
    const origin = server.origin;
    const pid = serverPid(server);
    const [plugin, other] = catalogue.plugins as [
      { id: number; xmlId: string },
      { id: number; xmlId: string },
    ];

    const big = await pluginArchive(plugin.xmlId, '1.0.0', options.downloadMb * 1024 * 1024);
    const stored = await uploadVersion(origin, catalogue.token, plugin.xmlId, big);
    if (stored.versionId === undefined)
      throw new Error(`The large version was not stored: ${describeBody(stored.body)}`);
    const halfBody = multipartBody(
      { xmlId: other.xmlId },
      { name: 'stalled.jar', content: await pluginArchive(other.xmlId, '9.9.9', 2 * 1024 * 1024) },
      { fileFirst: false },
    );

    // The reader: an item, a search, the version list, in turn, each on a connection of its own.
    const readerPaths = [
      `/api/plugins/${plugin.id}`,
      '/api/searchPlugins?search=Fault',
      `/api/plugins/${plugin.id}/updates`,
    ];
    const readFor = async (ms: number) => {
      const latencies: number[] = [];
      const errors: string[] = [];
      const until = Date.now() + ms;
      for (let index = 0; Date.now() < until; index++) {
        const path = readerPaths[index % readerPaths.length]!;
        const answer = await timedRequest(`${origin}${path}`, { timeoutMs: 20_000 });
        latencies.push(answer.ms);
        if (answer.status !== 200 && errors.length < 5)
          errors.push(`${path}: ${answer.status} ${answer.error ?? ''}`);
        await sleep(50);
      }
      return { latencies, errors };
    };

    await sleep(1000);
    const baseline = await openDescriptors(pid);
    const quiet = await readFor(5000);

    const opened = Date.now();
    const open = (kind: Kind, start: (socket: Socket, client: SlowClient) => void) => {
      const socket = connect(server!.port, '127.0.0.1');
      const client: SlowClient = { kind, socket, openedAt: Date.now() };
      socket.on('error', () => undefined);
      socket.on('close', () => {
        client.closedAt = Date.now();
        if (client.timer) clearInterval(client.timer);
      });
      socket.once('connect', () => start(socket, client));
      clients.push(client);
    };
    for (let index = 0; index < options.clients; index++) {
      const kind = index % 3;
      if (kind === 0) {
        open('slowloris headers', (socket, client) => {
          socket.write(`GET /api/searchPlugins HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
          let line = 0;
          client.timer = setInterval(() => socket.write(`X-Slow-${line++}: 1\r\n`), 5000);
          socket.resume();
        });
      } else if (kind === 1) {
        open('body stopped half-way', (socket) => {
          const head = Object.entries({ ...halfBody.headers, authorization: `Bearer ${catalogue.token}` })
            .map(([header, value]) => `${header}: ${value}\r\n`)
            .join('');
          socket.write(`POST /api/updates/upload HTTP/1.1\r\nHost: 127.0.0.1\r\n${head}\r\n`);
          socket.write(halfBody.body.subarray(0, Math.floor(halfBody.body.length / 2)));
          socket.resume();
        });
      } else {
        open('download never read', (socket) => {
          socket.write(
            `GET /plugin/download?updateId=${stored.versionId} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
              `Authorization: Bearer ${catalogue.token}\r\n\r\n`,
          );
          // Read the first bytes, then never again: the server's writes pile up until it gives up.
          socket.once('data', () => socket.pause());
        });
      }
    }
    await sleep(2000);
    const hanging = await openDescriptors(pid);

    // The reader, while they hang: until the server has closed them all, or the longest time-out has passed.
    // Node fires a socket's idle time-out a second time before closing one with an answer still being
    // written (measured: a never-read download closes after twice the idle time-out), so the download gets 2x.
    const deadlineS = Math.max(2 * options.idleSeconds + 15, HEADERS_TIMEOUT_S + CHECK_INTERVAL_S + 15);
    const loaded = await readFor(
      Math.min(deadlineS * 1000, Math.max(20_000, options.idleSeconds * 1000 - 5000)),
    );
    let socketsFreedAt: number | undefined;
    while (Date.now() - opened < deadlineS * 1000) {
      const now = await openDescriptors(pid);
      if (now.sockets <= baseline.sockets + 2) {
        socketsFreedAt = Date.now();
        break;
      }
      await sleep(1000);
    }
    await sleep(500);
    const after = await openDescriptors(pid);
    const temporaryLeft = (await readdir(uploadTempDirectory(dataDir)).catch(() => [])).length;

    // Per kind: how long until the server closed them (a paused reader sees the close only when it reads on).
    const closeSeconds: Record<string, string> = {};
    for (const kind of ['slowloris headers', 'body stopped half-way'] as Kind[]) {
      const ofKind = clients.filter((client) => client.kind === kind);
      const open = ofKind.filter((client) => client.closedAt === undefined).length;
      const times = ofKind.flatMap((client) =>
        client.closedAt ? [(client.closedAt - client.openedAt) / 1000] : [],
      );
      closeSeconds[`${kind}: closed by the server after s (max)`] =
        open > 0 ? `${open} still open` : Math.round(Math.max(...times)).toString();
      if (open > 0) failures.push(`${open} connection(s) of "${kind}" were still open after ${deadlineS} s.`);
    }
    if (socketsFreedAt === undefined) {
      failures.push(
        `The server still held ${after.sockets} sockets (${baseline.sockets} before the slow clients) after ${deadlineS} s.`,
      );
    }
    if (after.files > baseline.files + 2) {
      failures.push(`Open files went from ${baseline.files} to ${after.files}: downloads left files open.`);
    }
    if (temporaryLeft > 0) failures.push(`${temporaryLeft} temporary upload file(s) left by stopped bodies.`);
    if (loaded.errors.length > 0)
      failures.push(`The reader failed while the clients hung: ${loaded.errors.join('; ')}`);
    const p99 = percentile(loaded.latencies, 99);
    if (!(p99 <= options.p99LimitMs)) {
      failures.push(
        `The reader's p99 was ${Math.round(p99)} ms while the clients hung (limit ${options.p99LimitMs}).`,
      );
    }
    if (server.child.exitCode !== null) failures.push('The server exited.');

    return {
      name,
      failures,
      figures: {
        'faults injected (slow clients)': clients.length,
        'server idle time-out s': options.idleSeconds,
        'reader requests (quiet / under slow clients)': `${quiet.latencies.length} / ${loaded.latencies.length}`,
        'reader p50 / p99 ms, quiet': `${percentile(quiet.latencies, 50).toFixed(1)} / ${percentile(quiet.latencies, 99).toFixed(1)}`,
        'reader p50 / p99 ms, under slow clients': `${percentile(loaded.latencies, 50).toFixed(1)} / ${p99.toFixed(1)}`,
        'reader errors': loaded.errors.length,
        ...closeSeconds,
        'all slow sockets freed after s': socketsFreedAt
          ? Math.round((socketsFreedAt - opened) / 1000)
          : 'never',
        'server fds before / hanging / after': `${baseline.total} / ${hanging.total} / ${after.total}`,
        'temporary upload files left': temporaryLeft,
      },
    };
  } finally {
    for (const client of clients) {
      if (client.timer) clearInterval(client.timer);
      client.socket.destroy();
    }
    if (server) await server.stop('SIGTERM').catch(() => undefined);
    await postgres?.drop().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
  }
}
