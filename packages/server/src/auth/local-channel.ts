import { chmod, mkdir, rm } from 'node:fs/promises';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import {
  AdminRequestError,
  parseAdminRequest,
  runAdminRequest,
  type AdminRequest,
  type AdminResult,
} from './admin-operations';

/**
 * The local admin channel: an HTTP server on a Unix socket in DATA_DIR, through which `mp users` and
 * `mp tokens` ask the running server to change accounts (the embedded database admits one process only).
 * Only the operating-system user who runs the server can reach it: the socket sits in a directory of mode 0700.
 * Nothing of it is reachable over the network.
 */
export const LOCAL_CHANNEL_DIRECTORY = 'admin';
export const LOCAL_CHANNEL_SOCKET = 'admin.sock';
const MAX_REQUEST_BYTES = 16 * 1024;

export function localChannelPath(dataDir: string): string {
  return join(dataDir, LOCAL_CHANNEL_DIRECTORY, LOCAL_CHANNEL_SOCKET);
}

export interface LocalChannel {
  readonly path: string;
  close(): Promise<void>;
}

/** The server's logger (app.log) or anything with the same three methods. */
type ChannelLogger = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

function answer(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_REQUEST_BYTES) throw new AdminRequestError('The request is too large.');
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new AdminRequestError('The request is not JSON.');
  }
}

/** Whether something answers on the socket (a server of the same DATA_DIR is running). */
async function socketAnswers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = httpRequest(
      { socketPath: path, path: '/health', method: 'GET', timeout: 1000 },
      (response) => {
        response.resume();
        resolve(true);
      },
    );
    probe.on('error', () => resolve(false));
    probe.on('timeout', () => {
      probe.destroy();
      resolve(false);
    });
    probe.end();
  });
}

/**
 * Opens the channel. A socket file left by a server that died is replaced; when another live server of the
 * same DATA_DIR already answers (several processes on one PostgreSQL), this one leaves it to that server.
 */
export async function startLocalChannel(options: {
  dataDir: string;
  db: Database;
  log: ChannelLogger;
}): Promise<LocalChannel | undefined> {
  const directory = join(options.dataDir, LOCAL_CHANNEL_DIRECTORY);
  const path = localChannelPath(options.dataDir);
  await mkdir(directory, { recursive: true, mode: 0o700 });
  await chmod(directory, 0o700);
  if (await socketAnswers(path)) {
    options.log.warn(`Another server already answers account commands at ${path}; this one does not.`);
    return undefined;
  }
  await rm(path, { force: true });

  const server: Server = createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/health') return answer(response, 200, { ok: true });
    if (request.method !== 'POST' || request.url !== '/admin') {
      return answer(response, 404, { message: 'The local channel answers POST /admin only.' });
    }
    readJson(request)
      .then(parseAdminRequest)
      .then(async (adminRequest) => {
        const result = await runAdminRequest(options.db, adminRequest);
        options.log.info(`account command ${adminRequest.operation} for "${adminRequest.login}" done`);
        answer(response, 200, result);
      })
      .catch((error: unknown) => {
        if (error instanceof AdminRequestError) return answer(response, 400, { message: error.message });
        options.log.error({ err: error }, 'account command failed');
        answer(response, 500, { message: 'The server could not do this; its log says why.' });
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
  await chmod(path, 0o600);
  return {
    path,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The server is not running (no socket, or nobody answers on it): the command opens the database itself. */
export class NoServerRunningError extends Error {
  override name = 'NoServerRunningError';
}

/** Sends one account command to the running server. */
export async function sendToLocalChannel(dataDir: string, adminRequest: AdminRequest): Promise<AdminResult> {
  const path = localChannelPath(dataDir);
  const body = JSON.stringify(adminRequest);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        socketPath: path,
        path: '/admin',
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          let parsed: unknown;
          try {
            parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            return reject(
              new Error('The server answered the account command with something that is not JSON.'),
            );
          }
          if (response.statusCode === 200) return resolve(parsed as AdminResult);
          const message = (parsed as { message?: unknown }).message;
          const text = typeof message === 'string' ? message : `The server answered ${response.statusCode}.`;
          reject(response.statusCode === 400 ? new AdminRequestError(text) : new Error(text));
        });
      },
    );
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') {
        reject(new NoServerRunningError(`No server answers at ${path}.`));
      } else {
        reject(error);
      }
    });
    outgoing.end(body);
  });
}
