import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { Agent, get } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { localChannelPath } from '../../src/auth/local-channel';
import { openDatabase } from '../../src/db/client';
import { GracefulStop } from '../../src/process/graceful-stop';
import { archiveBytes, pluginJarContent, pluginXml } from '../archive/plugin-fixtures';
import { addUser, insertPlugin, permanentToken } from '../publishing/publishing-test-app';
import { freePort, spawnServer as spawnServerProcess } from '../support/server-process';

/**
 * The real server (`node --import tsx src/server.ts`, as the image runs it) stopped with SIGTERM while it is
 * doing each kind of thing a stop used to wait for: it must exit within 10 s (`docker stop`'s grace), with 0,
 * having released its embedded database (pglite.lock) and removed its local channel's socket. The tests share
 * one DATA_DIR, in order: each start also shows that the previous stop left it usable.
 */

vi.setConfig({ testTimeout: 240_000 });

const STOP_LIMIT_MS = 10_000;
/** Past this the test kills the server itself: a stop this late has failed anyway. */
const KILL_AFTER_MS = 20_000;

let scratch: string;
let dataDir: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'mp-graceful-stop-'));
  dataDir = join(scratch, 'data');
});
afterAll(async () => rm(scratch, { recursive: true, force: true }));

interface Stopped {
  ms: number;
  code: number | null;
  signal: NodeJS.Signals | null;
}

interface Server {
  child: ChildProcess;
  origin: string;
  port: number;
  output(): string;
  /** When the server printed `text` (Date.now()), or undefined if it has not. */
  printedAt(text: string): number | undefined;
  /** Resolves once the server printed `text`; rejects if it exits first or takes longer than `ms`. */
  printed(text: string, ms?: number): Promise<void>;
  /**
   * SIGTERM, then waits for the exit (SIGKILL after `killAfterMs`); answers how long it took, from the signal
   * or from when the server printed `measureFrom` if that came later.
   */
  terminate(options?: { killAfterMs?: number; measureFrom?: string }): Promise<Stopped>;
}

function spawnServer(port: number, env: Record<string, string> = {}): Server {
  const child = spawnServerProcess(port, { DATA_DIR: dataDir, DEMO: 'true', LOG_LEVEL: 'warn', ...env });
  let output = '';
  /** When each chunk of output arrived, and where it ended in `output`. */
  const arrivals: { at: number; end: number }[] = [];
  const received = (chunk: Buffer) => {
    output += chunk.toString();
    arrivals.push({ at: Date.now(), end: output.length });
  };
  child.stdout?.on('data', received);
  child.stderr?.on('data', received);
  const printedAt = (text: string) => {
    const index = output.indexOf(text);
    return index < 0 ? undefined : arrivals.find((arrival) => arrival.end > index)?.at;
  };
  const exited = new Promise<Omit<Stopped, 'ms'>>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    port,
    origin: `http://127.0.0.1:${port}`,
    output: () => output,
    printedAt,
    async printed(text, ms = 150_000) {
      const deadline = Date.now() + ms;
      while (!output.includes(text)) {
        if (child.exitCode !== null || child.signalCode !== null) {
          throw new Error(`The server exited before printing "${text}":\n${output}`);
        }
        if (Date.now() > deadline) throw new Error(`The server did not print "${text}" in time:\n${output}`);
        await sleep(20);
      }
    },
    async terminate({ killAfterMs = KILL_AFTER_MS, measureFrom } = {}) {
      const signalled = Date.now();
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      const result = await exited;
      clearTimeout(killer);
      const from = Math.max(signalled, (measureFrom && printedAt(measureFrom)) || 0);
      return { ...result, ms: Date.now() - from };
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Whether the process has ended within a second: gone, or a zombie (dead, orphaned, and not yet reaped by
 * init, which can take a second or two here).
 */
async function exits(pid: number): Promise<boolean> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
    // The state follows the command name in parentheses: "123 (sleep) Z ...".
    if (stat === undefined || stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return true;
    await sleep(50);
  }
  return false;
}

/** Stops the server with SIGTERM and checks the stop: in time, exit code 0, the data folder released. */
async function expectCleanStop(
  server: Server,
  scenario: string,
  terminate?: Parameters<Server['terminate']>[0],
): Promise<Stopped> {
  const stopped = await server.terminate(terminate);
  const said = `${scenario}: stopped ${stopped.ms} ms after SIGTERM (exit code ${stopped.code}, signal ${stopped.signal}); its output ends:\n${server.output().slice(-2500)}`;
  console.log(`[graceful stop] ${scenario}: ${stopped.ms} ms, exit code ${stopped.code}`);
  expect(stopped.ms, said).toBeLessThan(STOP_LIMIT_MS);
  expect(stopped.signal, said).toBeNull();
  expect(stopped.code, said).toBe(0);
  expect(existsSync(join(dataDir, 'pglite.lock')), `${said}\n(pglite.lock left)`).toBe(false);
  expect(existsSync(localChannelPath(dataDir)), `${said}\n(admin.sock left)`).toBe(false);
  return stopped;
}

describe('the server stops within 10 s of SIGTERM, releasing its data folder', () => {
  it('during start-up, while it creates and migrates a new database', async () => {
    const server = spawnServer(await freePort());
    await server.printed('Opening the embedded database');
    // Creating a new embedded database (PGlite's initdb, one call that answers no signal meanwhile) and
    // migrating it take several seconds on two cores: this is in the middle of them. The stop is measured
    // from the end of that call when it ends after the signal (on a loaded machine it can take tens of
    // seconds, which no signal can cut short).
    await sleep(3000);
    expect(server.output()).not.toContain('The marketplace is serving');
    await expectCleanStop(server, 'while creating and migrating the database', {
      killAfterMs: 120_000,
      measureFrom: 'The database is open.',
    });
  });

  it('during start-up, while it loads the demo catalogue', async () => {
    const server = spawnServer(await freePort());
    await server.printed('loading the demo catalogue');
    await sleep(1000);
    expect(server.output()).not.toContain('Loaded 300 demo items');
    await expectCleanStop(server, 'during the demo catalogue load');
  });

  it('right after it listens, while the search index and IDE feed are prepared and the local channel opens', async () => {
    // The demo load was rolled back: this start loads it again, then builds the index and the feed.
    const server = spawnServer(await freePort());
    await server.printed('The marketplace is serving');
    await expectCleanStop(server, 'during the index and feed preparation');
  });

  describe('while busy', () => {
    let token: string;
    const xmlId = 'com.example.graceful';
    let verifierPidFile: string;
    let verifier: string;
    let ideDirectory: string;
    let verifierJar: string;

    beforeAll(async () => {
      // An owner with an upload token and a plugin of theirs, written while no server holds the database.
      const database = await openDatabase({ dataDir });
      try {
        const owner = await addUser(database.db, 'graceful-owner');
        await insertPlugin(database.db, {
          xmlId,
          ownerId: owner.id,
          lifecycleState: 'published',
          approved: true,
        });
        token = await permanentToken(database.db, owner.id, ['upload']);
      } finally {
        await database.close();
      }
      // The operator's "IntelliJ Plugin Verifier": a java that notes its pid and never finishes.
      verifierPidFile = join(scratch, 'verifier.pid');
      verifier = join(scratch, 'slow-java.sh');
      await writeFile(verifier, `#!/bin/sh\necho $$ > '${verifierPidFile}'\nexec sleep 300\n`);
      await chmod(verifier, 0o755);
      ideDirectory = join(scratch, 'ide');
      await mkdir(ideDirectory, { recursive: true });
      verifierJar = join(scratch, 'verifier.jar');
      await writeFile(verifierJar, '');
    });

    it('with slow clients, an open keep-alive connection, an mp command half sent and a scheduler job running', async () => {
      const server = spawnServer(await freePort(), {
        PLUGIN_VERIFIER_JAR: verifierJar,
        PLUGIN_VERIFIER_IDE_DIRS: ideDirectory,
        PLUGIN_VERIFIER_JAVA: verifier,
        VERIFICATION_INTERVAL_SECONDS: '1',
        SCHEDULER_POLL_SECONDS: '1',
      });
      const sockets: Socket[] = [];
      const timers: NodeJS.Timeout[] = [];
      try {
        await server.printed('The marketplace is serving');

        // A version large (and incompressible) enough that its download cannot sit whole in the sockets' buffers.
        const archive = await archiveBytes({
          ...pluginJarContent(pluginXml({ id: `<id>${xmlId}</id>`, version: '<version>1.0.0</version>' })),
          'resources/payload.bin': randomBytes(24 * 1024 * 1024),
        });
        const form = new FormData();
        form.set('xmlId', xmlId);
        form.set('file', new Blob([new Uint8Array(archive)]), `${xmlId}.jar`);
        const upload = await fetch(`${server.origin}/api/updates/upload`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
          body: form,
        });
        const uploaded = (await upload.json()) as { id?: number };
        expect(upload.status, JSON.stringify(uploaded)).toBe(200);

        // The scheduler's verification job runs the verifier on it, which never ends.
        const deadline = Date.now() + 60_000;
        while (!existsSync(verifierPidFile) && Date.now() < deadline) await sleep(100);
        const verifierPid = Number((await readFile(verifierPidFile, 'utf8')).trim());

        const open = (path?: string) => {
          const socket = path ? connect(path) : connect(server.port, '127.0.0.1');
          socket.on('error', () => undefined);
          sockets.push(socket);
          return new Promise<Socket>((resolve) => socket.once('connect', () => resolve(socket)));
        };
        // A download read a chunk at a time, five times a second.
        const download = await open();
        download.write(
          `GET /plugin/download?updateId=${uploaded.id} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
            `Authorization: Bearer ${token}\r\n\r\n`,
        );
        let downloaded = 0;
        download.on('data', (chunk: Buffer) => {
          downloaded += chunk.length;
          download.pause();
        });
        timers.push(setInterval(() => download.resume(), 200));
        // A body sent a byte at a time, and headers that never end.
        const body = await open();
        body.write(
          'POST /api/updates/upload HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
            `Authorization: Bearer ${token}\r\nContent-Type: multipart/form-data; boundary=x\r\n` +
            'Content-Length: 1000000\r\n\r\n--x\r\n',
        );
        timers.push(setInterval(() => body.write('x'), 300));
        const headers = await open();
        headers.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
        timers.push(setInterval(() => headers.write('X-Slow: 1\r\n'), 300));
        // An mp command on the local channel that has sent only half its request.
        const channel = await open(localChannelPath(dataDir));
        channel.write(
          'POST /admin HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"operation":',
        );
        // A keep-alive connection, idle after its answer.
        const agent = new Agent({ keepAlive: true });
        await new Promise<void>((resolve, reject) =>
          get(`${server.origin}/api/health`, { agent }, (response) => {
            response.resume();
            response.on('end', resolve);
          }).on('error', reject),
        );
        await sleep(1000);
        expect(downloaded, 'the slow download has started').toBeGreaterThan(0);
        expect(downloaded, 'the slow download is still under way').toBeLessThan(archive.length);

        await expectCleanStop(server, 'while busy');
        // The job did not stop at its signal: it was left to run again later, and its verifier went with the
        // server rather than run on, orphaned, until its own time limit.
        expect(server.output()).toMatch(/"jobs":\["verification-queue"\].*jobs still running/);
        expect(await exits(verifierPid), 'the verifier started by the job is still running').toBe(true);
        agent.destroy();
      } finally {
        for (const timer of timers) clearInterval(timer);
        for (const socket of sockets) socket.destroy();
        if (server.child.exitCode === null) server.child.kill('SIGKILL');
      }
    });
  });
});

describe('GracefulStop', () => {
  function stopper(deadlineMs = 5_000) {
    const lines: string[] = [];
    const codes: number[] = [];
    const stop = new GracefulStop({
      deadlineMs,
      log: (line) => lines.push(line),
      exit: (code) => codes.push(code),
    });
    return { stop, lines, codes };
  }

  it('closes the steps in the reverse order of adding, once, whatever the signals that follow', async () => {
    const { stop, lines, codes } = stopper();
    const closed: string[] = [];
    stop.add('the database', async () => void closed.push('database'));
    stop.add('the application', async () => {
      await sleep(50);
      closed.push('application');
    });
    stop.stop('SIGTERM');
    stop.stop('SIGINT');
    expect(stop.signal.aborted).toBe(true);
    await vi.waitFor(() => expect(codes).toEqual([0]));
    expect(closed).toEqual(['application', 'database']);
    expect(lines).toEqual(['SIGTERM: stopping...', 'SIGINT: already stopping (closing the application).']);
    // Start-up still under way when the stop began adds nothing more: it ends there.
    expect(() => stop.add('late', async () => undefined)).toThrow('The server is stopping (SIGTERM).');
  });

  it('exits 1 at the deadline, naming what it still waited for', async () => {
    const { stop, lines, codes } = stopper(200);
    stop.add('the database', async () => undefined);
    stop.add('the application', (note) => {
      note('requests in progress');
      return new Promise(() => undefined);
    });
    stop.stop('SIGTERM');
    await vi.waitFor(() => expect(codes).toEqual([1]));
    expect(lines.at(-1)).toBe(
      'The server did not stop within 0.2 s of SIGTERM: still closing the application (requests in progress). Exiting anyway.',
    );
  });

  it('exits 1 when a step fails, after closing the others', async () => {
    const { stop, lines, codes } = stopper();
    let databaseClosed = false;
    stop.add('the database', async () => void (databaseClosed = true));
    stop.add('the application', async () => {
      throw new Error('no');
    });
    stop.stop('SIGTERM');
    await vi.waitFor(() => expect(codes).toEqual([1]));
    expect(databaseClosed).toBe(true);
    expect(lines).toContain('Closing the application failed: no');
  });
});
