import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { repositoryRoot } from './paths';

export interface RunningMarketplace {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** True when it started on a copy of the global set-up's data folder (demo-template.ts): passwords set. */
  fromTemplate: boolean;
  /** An API token of a demo account made in the template (`mp tokens create`), or undefined when not. */
  templateToken(login: string, scope: string): string | undefined;
  /** Runs the `mp` command against this server's data folder (while it runs) and returns what it printed. */
  mp(args: readonly string[]): string;
  /**
   * Stops it: SIGTERM, then SIGKILL after 10 s (or `graceMs`). Resolves true when the server had released its
   * data folder (closed its database) by then.
   */
  close(graceMs?: number): Promise<boolean>;
}

const serverDir = join(repositoryRoot, 'packages/server');

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function waitUntilAnswering(origin: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`The marketplace server exited with code ${child.exitCode}:\n${output()}`);
    }
    try {
      const response = await fetch(`${origin}/api/plugins/1`);
      await response.body?.cancel();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`The marketplace server did not answer at ${origin} within 120 s:\n${output()}`);
}

/** Where the e2e global set-up (demo-template.ts) tells the test files' processes its template folder is. */
export const DEMO_TEMPLATE_VARIABLE = 'E2E_DEMO_DATA_TEMPLATE';
/** The API tokens made in the template, as JSON keyed `<login>:<scope>` (every copy of the folder has them). */
export const DEMO_TOKENS_VARIABLE = 'E2E_DEMO_TOKENS';

export interface StartOptions {
  /** Start on this (new) folder and leave it in place when stopped, instead of a temporary one removed after. */
  keepDataDir?: string;
}

/**
 * Starts the real server the way `pnpm start` does (the server package's start script), on a free port with
 * a fresh data folder and the demo catalogue, and stops it (with its process group) afterwards. Under the
 * e2e global set-up the folder starts as a copy of the template it made (E2E_DEMO_DATA_TEMPLATE): the state
 * a first start leaves, made once per run.
 */
export async function startMarketplace(options: StartOptions = {}): Promise<RunningMarketplace> {
  const manifest = JSON.parse(await readFile(join(serverDir, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  const startScript = manifest.scripts?.start;
  if (!startScript) throw new Error('packages/server/package.json has no "start" script to run.');
  const template = options.keepDataDir ? undefined : process.env[DEMO_TEMPLATE_VARIABLE];
  const dataDir = options.keepDataDir ?? (await mkdtemp(join(tmpdir(), 'marketplace-e2e-')));
  if (options.keepDataDir) await mkdir(dataDir, { recursive: true });
  if (template) {
    await cp(template, dataDir, { recursive: true }).catch(async (error: unknown) => {
      await rm(dataDir, { recursive: true, force: true });
      throw error;
    });
  }
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    PATH: [
      join(serverDir, 'node_modules/.bin'),
      join(repositoryRoot, 'node_modules/.bin'),
      process.env.PATH,
    ].join(delimiter),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: origin,
    DEMO: 'true',
    LOG_LEVEL: 'warn',
  };
  const child = spawn(startScript, {
    cwd: serverDir,
    shell: true,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));

  // The start script runs under a shell: signal the whole process group this test started, nothing else.
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  const stop = async (graceMs = 10_000): Promise<boolean> => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      signalGroup('SIGTERM');
      const forced = setTimeout(() => signalGroup('SIGKILL'), graceMs);
      await exited;
      // The shell may end before the server under it has closed its database; a folder that is kept must
      // be left whole, so wait for the server to let go of it (its lock file) before killing what is left.
      if (options.keepDataDir) {
        const deadline = Date.now() + graceMs;
        while (existsSync(join(dataDir, 'pglite.lock')) && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      clearTimeout(forced);
    }
    const stoppedCleanly = !existsSync(join(dataDir, 'pglite.lock'));
    signalGroup('SIGKILL');
    if (!options.keepDataDir) await rm(dataDir, { recursive: true, force: true });
    return stoppedCleanly;
  };

  try {
    await waitUntilAnswering(origin, child, () => log);
  } catch (error) {
    await stop();
    throw error;
  }
  const mp = (args: readonly string[]): string => {
    const result = spawnSync('tsx', ['src/cli/mp.ts', ...args], { cwd: serverDir, env, encoding: 'utf8' });
    if (result.status !== 0)
      throw new Error(`mp ${args.slice(0, 2).join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
    return result.stdout;
  };
  const templateTokens = template
    ? (JSON.parse(process.env[DEMO_TOKENS_VARIABLE] ?? '{}') as Record<string, string>)
    : {};
  const templateToken = (login: string, scope: string) => templateTokens[`${login}:${scope}`];
  return { origin, fromTemplate: template !== undefined, templateToken, mp, close: stop };
}
