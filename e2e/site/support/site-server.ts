import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { repositoryRoot } from '../../support/paths';

const serverDir = join(repositoryRoot, 'packages/server');
const siteDir = join(repositoryRoot, 'site');
const binPath = [
  join(serverDir, 'node_modules/.bin'),
  join(repositoryRoot, 'node_modules/.bin'),
  process.env.PATH,
].join(delimiter);

/** Builds the site as `pnpm build` does, so the server hosts the code under test. */
export function buildSite(): void {
  const result = spawnSync('vite', ['build', '--logLevel', 'warn'], {
    cwd: siteDir,
    encoding: 'utf8',
    // Test runners set NODE_ENV=test, which would bundle React's development build.
    env: { ...process.env, PATH: binPath, NODE_ENV: 'production' },
  });
  if (result.status !== 0)
    throw new Error(
      `The site build failed: ${result.error?.message ?? ''}\n${result.stdout}\n${result.stderr}`,
    );
}

export interface SiteServer {
  origin: string;
  /** Passwords given to the demo accounts admin, developer and visitor. */
  passwords: Record<'admin' | 'developer' | 'visitor', string>;
  /** A new permanent API token of a demo account, made with `mp tokens create`. */
  createToken(login: string, scope: 'upload' | 'manage'): string;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function waitUntilAnswering(origin: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 150_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited with code ${child.exitCode}:\n${log()}`);
    try {
      const response = await fetch(`${origin}/api/plugins/1`);
      await response.body?.cancel();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`The server did not answer at ${origin} within 150 s:\n${log()}`);
}

/**
 * Starts the server with the server package's start script (as `pnpm start` does) on a fresh data folder with
 * the demo catalogue, and gives the demo accounts passwords through the `mp users` command.
 */
export async function startSiteServer(): Promise<SiteServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'marketplace-site-e2e-'));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    PATH: binPath,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: origin,
    DEMO: 'true',
    LOG_LEVEL: 'warn',
  };
  const child = spawn('tsx src/server.ts', {
    cwd: serverDir,
    shell: true,
    detached: true,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      signalGroup('SIGTERM');
      const forced = setTimeout(() => signalGroup('SIGKILL'), 10_000);
      await exited;
      clearTimeout(forced);
    }
    await rm(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  };
  try {
    await waitUntilAnswering(origin, child, () => log);
    const passwords = {
      admin: 'e2e-admin-pass',
      developer: 'e2e-developer-pass',
      visitor: 'e2e-visitor-pass',
    };
    const mp = (args: string[]): string => {
      const result = spawnSync('tsx', ['src/cli/mp.ts', ...args], { cwd: serverDir, env, encoding: 'utf8' });
      if (result.status !== 0)
        throw new Error(`mp ${args.slice(0, 2).join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
      return result.stdout;
    };
    for (const [login, password] of Object.entries(passwords)) {
      mp(['users', 'set-password', '--login', login, '--password', password]);
    }
    const createToken = (login: string, scope: 'upload' | 'manage') =>
      mp(['tokens', 'create', '--login', login, '--scope', scope]).trim();
    return { origin, passwords, createToken, close };
  } catch (error) {
    await close();
    throw error;
  }
}
