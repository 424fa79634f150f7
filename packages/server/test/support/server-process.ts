import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The server package, where `src/server.ts` runs from. */
const SERVER_DIRECTORY = fileURLToPath(new URL('../..', import.meta.url));
/**
 * How long a server may take to stop once signalled: it stops within 10 s (src/process/graceful-stop.ts), and
 * this leaves room for a loaded machine.
 */
const STOP_TIMEOUT_MS = 30_000;

/** A port nobody listens on right now (the system picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * `src/server.ts` in a child process, as `pnpm start` runs it, answering on 127.0.0.1:`port`, with `env` on top
 * of this process's environment; its output piped.
 */
export function spawnServer(port: number, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: SERVER_DIRECTORY,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The real server in a child process, as `pnpm start` runs it, for tests and benchmarks that need one. */
export interface ServerProcess {
  child: ChildProcess;
  port: number;
  origin: string;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Sends the signal and waits for the process to end (at once if it already has). */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface ServerProcessOptions {
  /** Settings on top of this process's environment (DATA_DIR, DATABASE_URL, ...). */
  env: Record<string, string>;
  /** Default: a free port. */
  port?: number;
  /** How long it may take to start serving (a busy machine, a large database to migrate). */
  startTimeoutMs?: number;
}

/**
 * Starts `src/server.ts` on 127.0.0.1 and resolves once it says it is serving; rejects with its output if it
 * exits or takes longer than `startTimeoutMs`.
 */
export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const child = spawnServer(port, options.env);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`The server did not start in time:\n${output}`));
    }, options.startTimeoutMs ?? 120_000);
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`The server exited with ${String(code)} before serving:\n${output}`));
    };
    child.once('exit', onExit);
    child.stdout?.on('data', function serving() {
      if (!output.includes('The marketplace is serving at')) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      child.stdout?.off('data', serving);
      resolve();
    });
  });
  return {
    child,
    port,
    origin: `http://127.0.0.1:${port}`,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<'exited'>((resolve) => child.once('exit', () => resolve('exited')));
      child.kill(signal);
      // A server that does not stop is a fault of its own, said so, rather than a run that never ends.
      const waited = new Promise<'waited'>((resolve) =>
        setTimeout(resolve, STOP_TIMEOUT_MS, 'waited').unref(),
      );
      if ((await Promise.race([exited, waited])) === 'waited') {
        child.kill('SIGKILL');
        await exited;
        throw new Error(
          `The server did not stop within ${STOP_TIMEOUT_MS / 1000} s of ${signal} and was killed: ${output.slice(-1500)}`,
        );
      }
    },
  };
}
