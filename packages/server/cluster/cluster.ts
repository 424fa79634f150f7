import { spawn, type ChildProcess } from 'node:child_process';
import { access, appendFile, constants, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import pg from 'pg';
import type { TokenScope } from '@marketplace/api-contract';
import { createApiToken } from '../src/auth/api-tokens';
import { openDatabase } from '../src/db/client';
import { freePort } from '../test/support/server-process';
import {
  createPostgresDatabase,
  sleep,
  startServer,
  type PostgresDatabase,
  type ServerProcess,
} from '../faults/support';

/*
 * The scale-out layout on one machine: an S3-API server (s3rver) holding the bucket, one fresh PostgreSQL
 * database, Redis, N identical server nodes (the real `src/server.ts`, each with a DATA_DIR of its own and the
 * load balancer's address as PUBLIC_URL) and haproxy in front of them on loopback. `pnpm cluster`, the
 * cluster test (test/cluster) and `pnpm bench cluster` all start it through `startCluster`.
 */

/** The path haproxy asks every node for; any 200 keeps the node in rotation. */
export const HEALTH_PATH = '/api/health';
/** The bucket every node stores files in. */
export const BUCKET = 'mp-files';
const S3_REGION = 'us-east-1';
const S3_KEY = 'S3RVER';

export class HaproxyMissingError extends Error {
  override name = 'HaproxyMissingError';
}

/** Debian's haproxy (`apt-get install haproxy`; `.ci/run` installs it), or HAPROXY_PATH. */
export async function findHaproxy(): Promise<string> {
  const candidates = process.env.HAPROXY_PATH
    ? [process.env.HAPROXY_PATH]
    : [
        ...(process.env.PATH ?? '').split(delimiter).filter((dir) => dir !== ''),
        '/usr/sbin',
        '/usr/local/sbin',
      ].map((dir) => join(dir, 'haproxy'));
  for (const candidate of candidates) {
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not there: the next one.
    }
  }
  throw new HaproxyMissingError(
    'haproxy is not installed: the cluster puts its nodes behind haproxy from Debian’s packages ' +
      '(`apt-get install haproxy`, which .ci/run does), or set HAPROXY_PATH to a haproxy binary.',
  );
}

export interface ClusterOptions {
  /** Server nodes behind the load balancer (default 2). */
  nodes?: number;
  /** Load the demo catalogue (through the first node, before the others start). Default false. */
  demo?: boolean;
  /** Part of the database's name (default `cluster`). */
  label?: string;
  /** Settings for every node on top of the cluster's own (e.g. rate limits, RESPONSE_CACHE_MS). */
  env?: Record<string, string>;
  /** The nodes' LOG_LEVEL (default `error`; their logs are files in the cluster's folder). */
  logLevel?: string;
  /** The load balancer's port on 127.0.0.1 (default: a free one). */
  port?: number;
  /** Shared Redis for rate limits (default REDIS_URL or redis://127.0.0.1:6379; '' for none). */
  redisUrl?: string;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
}

export interface ClusterNode {
  /** `a`, `b`, ...: also the haproxy server's name. */
  name: string;
  port: number;
  /** This node's own address, bypassing the load balancer. */
  url: string;
  dataDir: string;
  logFile: string;
  /** The running process's id (undefined while it is down). */
  readonly pid: number | undefined;
  readonly alive: boolean;
  /** Everything it printed since it was last started. */
  output(): string;
  /** Sends the signal (default SIGKILL) and waits for the process to end. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port and data (after kill), and waits until it serves. */
  restart(): Promise<void>;
}

export interface DemoAccount {
  login: string;
  password: string;
}

export type HaproxyServerState = 'ready' | 'drain' | 'maint';

export interface Cluster {
  /** The load balancer: the address visitors use (every node's PUBLIC_URL). */
  url: string;
  nodes: ClusterNode[];
  /** The shared database, and its name (for pg_stat_activity and the like). */
  databaseUrl: string;
  databaseName: string;
  s3: { endpoint: string; bucket: string; region: string; client: S3Client };
  redisUrl: string | undefined;
  /** The temporary folder holding the node's folders, logs, the bucket's files and haproxy's config. */
  directory: string;
  /** The demo accounts' passwords as the first node printed them (empty without the demo). */
  demoAccounts: DemoAccount[];
  /** One SQL query on the shared database. */
  query<Row extends pg.QueryResultRow = Record<string, unknown>>(
    text: string,
    values?: unknown[],
  ): Promise<Row[]>;
  /** A new permanent API token (`perm:...`) of that user, valid on every node. */
  createToken(login: string, scopes?: TokenScope[]): Promise<string>;
  /** The load balancer's runtime API (a command of haproxy's stats socket; the answer's text). */
  haproxy(command: string): Promise<string>;
  /** Per node: haproxy's view of it (UP, DOWN, MAINT, ...) and the sessions it has open to it now. */
  balancerView(): Promise<Record<string, { status: string; sessions: number; total: number }>>;
  /** Takes a node out of rotation (`maint`, `drain`) or puts it back (`ready`). */
  setNodeState(name: string, state: HaproxyServerState): Promise<void>;
  /** Waits until haproxy sees the node as UP (or, with `up` false, not UP). */
  waitForBalancer(name: string, up?: boolean, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** The demo accounts `src/server.ts` prints after loading the demo: `  admin / abcd-efgh-jkmn  (administrator)`, one a line. */
export function parseDemoAccounts(output: string): DemoAccount[] {
  const accounts: DemoAccount[] = [];
  for (const match of output.matchAll(/^\s+(\S+)\s+\/\s+(\S+)\s+\([a-z][a-z -]*\)\s*$/gm)) {
    accounts.push({ login: match[1]!, password: match[2]! });
  }
  return accounts;
}

function tail(text: string, lines = 40): string {
  return text.split('\n').slice(-lines).join('\n');
}

interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
  httpServer?: { closeAllConnections?: () => void };
}
type S3rverConstructor = new (options: {
  port: number;
  address: string;
  silent: boolean;
  directory: string;
}) => S3rverInstance;

/** s3rver has no type declarations: loaded through require with the little of it used here. */
function loadS3rver(): S3rverConstructor {
  return createRequire(import.meta.url)('s3rver') as S3rverConstructor;
}

/** One command to haproxy's stats socket; resolves with its answer once haproxy closes the connection. */
function haproxyCommand(socketPath: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ path: socketPath });
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.setTimeout(5000, () => socket.destroy(new Error(`haproxy did not answer "${command}"`)));
    socket.end(`${command}\n`);
  });
}

function haproxyConfig(options: {
  port: number;
  socketPath: string;
  servers: { name: string; port: number }[];
}): string {
  return `# Written by packages/server/cluster/cluster.ts for one run; see docs/operating.md for production.
global
    maxconn 4096
    stats socket ${options.socketPath} mode 600 level admin

defaults
    mode http
    timeout connect 2s
    timeout client 120s
    timeout server 120s
    timeout http-request 30s
    timeout queue 10s
    timeout check 2s
    # X-Forwarded-For with the visitor's address: the nodes believe it from 127.0.0.1 (TRUST_PROXY).
    option forwardfor
    # A request sent to a node that died or did not answer goes to another node: connection failures are
    # retried on another server (redispatch); an empty answer or a timeout only for GET and HEAD (below).
    retries 3
    option redispatch 1
    retry-on conn-failure empty-response response-timeout

frontend marketplace
    bind 127.0.0.1:${options.port}
    # A write may have happened on a node that died before answering: never replay it elsewhere. The client
    # retries an upload (content-addressed, so a retry stores nothing twice).
    http-request disable-l7-retry unless METH_GET || METH_HEAD
    default_backend nodes

backend nodes
    balance roundrobin
    option httpchk GET ${HEALTH_PATH}
    http-check expect status 200
    default-server check inter 500ms fastinter 250ms downinter 500ms rise 2 fall 2
${options.servers.map((server) => `    server ${server.name} 127.0.0.1:${server.port}`).join('\n')}
`;
}

/**
 * Starts the cluster: s3rver (temporary folder) with the bucket, a fresh database, the first node (loading
 * the demo when asked) until it serves, then the others, then haproxy until it sees every node UP. On a
 * failed start everything started so far is stopped and the error carries the tail of the node's log.
 */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const log = options.log ?? (() => {});
  const nodeCount = options.nodes ?? 2;
  if (!Number.isInteger(nodeCount) || nodeCount < 1 || nodeCount > 26) {
    throw new Error(`A cluster has 1 to 26 nodes, not ${String(options.nodes)}.`);
  }
  const haproxyPath = await findHaproxy();
  const redisUrl =
    options.redisUrl !== undefined
      ? options.redisUrl || undefined
      : process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const directory = await mkdtemp(join(tmpdir(), 'mp-cluster-'));
  const cleanups: (() => Promise<void>)[] = [];
  const cleanUp = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  };
  cleanups.push(() => rm(directory, { recursive: true, force: true }));

  try {
    // The bucket: s3rver on loopback, in this process.
    const S3rver = loadS3rver();
    const s3Directory = join(directory, 's3');
    await mkdir(s3Directory);
    const s3rver = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3Directory });
    const { port: s3Port } = await s3rver.run();
    cleanups.push(async () => {
      s3rver.httpServer?.closeAllConnections?.();
      await s3rver.close();
    });
    const endpoint = `http://127.0.0.1:${s3Port}`;
    // The AWS SDK's notice about Node.js 20, as the server turns it off (src/storage).
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    const s3Client = new S3Client({
      endpoint,
      region: S3_REGION,
      forcePathStyle: true,
      credentials: { accessKeyId: S3_KEY, secretAccessKey: S3_KEY },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    cleanups.push(async () => s3Client.destroy());
    await s3Client.send(new CreateBucketCommand({ Bucket: BUCKET }));
    log(`S3 API (s3rver) at ${endpoint}, bucket ${BUCKET}`);

    const database: PostgresDatabase = await createPostgresDatabase(options.label ?? 'cluster');
    cleanups.push(() => database.drop());
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    // Ends before the database is dropped (cleanups run last first).
    cleanups.push(() => pool.end());
    log(`PostgreSQL database ${database.name}`);

    const port = options.port ?? (await freePort());
    const url = `http://127.0.0.1:${port}`;
    const nodes: ClusterNode[] = [];
    const processes = new Map<string, ServerProcess>();
    cleanups.push(async () => {
      await Promise.all(
        [...processes.values()].map(async (server) => {
          const timer = setTimeout(() => server.child.kill('SIGKILL'), 10_000);
          await server.stop('SIGTERM').catch(() => undefined);
          clearTimeout(timer);
        }),
      );
    });

    const nodeEnv = (index: number, dataDir: string): Record<string, string> => ({
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      PUBLIC_URL: url,
      TRUST_PROXY: '127.0.0.1',
      REDIS_URL: redisUrl ?? '',
      DEMO: options.demo && index === 0 ? 'true' : 'false',
      NO_DEMO: options.demo && index === 0 ? 'false' : 'true',
      LOG_LEVEL: options.logLevel ?? 'error',
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: endpoint,
      S3_REGION,
      S3_ACCESS_KEY_ID: S3_KEY,
      S3_SECRET_ACCESS_KEY: S3_KEY,
      S3_FORCE_PATH_STYLE: 'true',
      S3_PRESIGNED_DOWNLOADS: 'false',
      ...options.env,
    });

    const startNode = async (
      node: { name: string; port: number; logFile: string },
      env: Record<string, string>,
    ) => {
      await appendFile(node.logFile, `--- starting node ${node.name} at ${new Date().toISOString()}\n`);
      let server: ServerProcess;
      try {
        server = await startServer(
          { dataDir: env.DATA_DIR!, databaseUrl: database.url },
          { port: node.port, env },
        );
      } catch (error) {
        const message = (error as Error).message;
        await appendFile(node.logFile, message);
        throw new Error(
          `Node ${node.name} did not start (log: ${node.logFile}); the end of its log:\n${tail(message)}`,
        );
      }
      await appendFile(node.logFile, server.output());
      const toLog = (chunk: Buffer) => void appendFile(node.logFile, chunk).catch(() => undefined);
      server.child.stdout?.on('data', toLog);
      server.child.stderr?.on('data', toLog);
      processes.set(node.name, server);
      // Serving: the health check answers 200 once the node's search index is built (503 before).
      const deadline = Date.now() + 120_000;
      for (;;) {
        const status = await fetch(`${server.origin}${HEALTH_PATH}`)
          .then((response) => response.arrayBuffer().then(() => response.status))
          .catch(() => 0);
        if (status === 200) break;
        if (Date.now() > deadline)
          throw new Error(`Node ${node.name} answers ${HEALTH_PATH} with ${status}.`);
        await sleep(200);
      }
      await fetch(`${server.origin}/api/search/aggregation/products`).then((response) =>
        response.arrayBuffer(),
      );
      return server;
    };

    for (let index = 0; index < nodeCount; index++) {
      const name = String.fromCharCode(97 + index);
      const dataDir = join(directory, `node-${name}`);
      await mkdir(dataDir);
      const nodePort = await freePort();
      const logFile = join(directory, `node-${name}.log`);
      const env = nodeEnv(index, dataDir);
      const started = Date.now();
      log(
        `Starting node ${name} on 127.0.0.1:${nodePort}${env.DEMO === 'true' ? ' (loading the demo catalogue)' : ''}...`,
      );
      await startNode({ name, port: nodePort, logFile }, env);
      log(
        `Node ${name} serves at http://127.0.0.1:${nodePort} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
      );
      nodes.push({
        name,
        port: nodePort,
        url: `http://127.0.0.1:${nodePort}`,
        dataDir,
        logFile,
        get pid() {
          const server = processes.get(name);
          return server && server.child.exitCode === null && server.child.signalCode === null
            ? server.child.pid
            : undefined;
        },
        get alive() {
          return this.pid !== undefined;
        },
        output: () => processes.get(name)?.output() ?? '',
        async kill(signal: NodeJS.Signals = 'SIGKILL') {
          await processes.get(name)?.stop(signal);
        },
        async restart() {
          const server = processes.get(name);
          if (server && server.child.exitCode === null && server.child.signalCode === null) {
            throw new Error(`Node ${name} is running: kill it before restarting it.`);
          }
          await startNode({ name, port: nodePort, logFile }, { ...env, DEMO: 'false', NO_DEMO: 'true' });
        },
      });
    }

    const demoAccounts = options.demo ? parseDemoAccounts(nodes[0]!.output()) : [];

    // The load balancer, in the foreground as a child of this process.
    const socketPath = join(directory, 'haproxy.sock');
    const configFile = join(directory, 'haproxy.cfg');
    await writeFile(
      configFile,
      haproxyConfig({
        port,
        socketPath,
        servers: nodes.map((node) => ({ name: node.name, port: node.port })),
      }),
    );
    const haproxyLog = join(directory, 'haproxy.log');
    const haproxy: ChildProcess = spawn(haproxyPath, ['-f', configFile, '-db'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let haproxyOutput = '';
    const onHaproxyOutput = (chunk: Buffer) => {
      haproxyOutput += chunk.toString();
      void appendFile(haproxyLog, chunk).catch(() => undefined);
    };
    haproxy.stdout?.on('data', onHaproxyOutput);
    haproxy.stderr?.on('data', onHaproxyOutput);
    cleanups.push(async () => {
      if (haproxy.exitCode !== null || haproxy.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => haproxy.once('exit', () => resolve()));
      haproxy.kill('SIGTERM');
      const timer = setTimeout(() => haproxy.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    });

    const command = (text: string) => haproxyCommand(socketPath, text);
    const balancerView = async () => {
      const csv = await command('show stat');
      const [header, ...rows] = csv.split('\n').filter((line) => line.trim() !== '');
      const columns = (header ?? '').replace(/^# /, '').split(',');
      const at = (name: string) => columns.indexOf(name);
      const view: Record<string, { status: string; sessions: number; total: number }> = {};
      for (const row of rows) {
        const cells = row.split(',');
        if (cells[at('pxname')] !== 'nodes' || ['BACKEND', 'FRONTEND'].includes(cells[at('svname')] ?? ''))
          continue;
        view[cells[at('svname')]!] = {
          status: cells[at('status')] ?? '',
          sessions: Number(cells[at('scur')] ?? 0),
          total: Number(cells[at('stot')] ?? 0),
        };
      }
      return view;
    };
    const waitForBalancer = async (name: string, up = true, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      let status = '';
      for (;;) {
        if (haproxy.exitCode !== null) throw new Error(`haproxy exited:\n${tail(haproxyOutput)}`);
        status =
          (await balancerView().catch(() => ({}) as Awaited<ReturnType<typeof balancerView>>))[name]
            ?.status ?? '';
        if (up ? status === 'UP' : status !== 'UP' && status !== '') return;
        if (Date.now() > deadline) {
          throw new Error(
            `haproxy sees node ${name} as "${status}" after ${timeoutMs} ms:\n${tail(haproxyOutput)}`,
          );
        }
        await sleep(100);
      }
    };
    for (const node of nodes) await waitForBalancer(node.name);
    log(`Load balancer (haproxy) at ${url}`);

    return {
      url,
      nodes,
      databaseUrl: database.url,
      databaseName: database.name,
      s3: { endpoint, bucket: BUCKET, region: S3_REGION, client: s3Client },
      redisUrl,
      directory,
      demoAccounts,
      async query<Row extends pg.QueryResultRow>(text: string, values?: unknown[]) {
        return (await pool.query<Row>(text, values)).rows;
      },
      async createToken(login: string, scopes: TokenScope[] = ['upload', 'manage']) {
        const connection = await openDatabase({
          dataDir: directory,
          databaseUrl: database.url,
          maxConnections: 1,
        });
        try {
          const [user] = (await pool.query<{ id: number }>('SELECT id FROM users WHERE login = $1', [login]))
            .rows;
          if (!user) throw new Error(`There is no user "${login}".`);
          const { token } = await createApiToken(connection.db, { userId: user.id, name: 'cluster', scopes });
          return token;
        } finally {
          await connection.close();
        }
      },
      haproxy: command,
      balancerView,
      async setNodeState(name: string, state: HaproxyServerState) {
        const answer = await command(`set server nodes/${name} state ${state}`);
        if (answer.trim() !== '')
          throw new Error(`haproxy refused to set ${name} ${state}: ${answer.trim()}`);
      },
      waitForBalancer,
      stop: cleanUp,
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
