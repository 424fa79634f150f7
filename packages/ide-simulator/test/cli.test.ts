import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startIdeSimulator } from '../src/index';
import { get } from './http';

const cliPath = fileURLToPath(new URL('../src/cli.ts', import.meta.url));

function runCli(args: string[]) {
  return spawn(process.execPath, ['--import', 'tsx', cliPath, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

async function freePortBlock(size: number): Promise<number> {
  for (;;) {
    // Below Linux's ephemeral range (32768+), where outgoing connections would take ports from under us.
    const base = 20_000 + Math.floor(Math.random() * (12_000 - size));
    const checks = await Promise.all(Array.from({ length: size }, (_, index) => isPortFree(base + index)));
    if (checks.every(Boolean)) return base;
  }
}

describe('pnpm ide-simulator', { timeout: 30_000 }, () => {
  it('starts several IDEs on consecutive ports and prints the requests they receive', async () => {
    const base = await freePortBlock(2);
    const child = runCli([
      ...['--port', String(base), '--plugin', 'com.example.tool', '--plugin', 'com.example.old=false'],
      // These requests name no page, which the IDE would ask about: answer yes at once.
      ...['--untrusted-origins', 'accept'],
      ...['--name', 'IntelliJ IDEA 2025.2', '--build', 'IU-252.23892.409'],
      ...['--name', 'PyCharm 2025.2', '--build', 'PY-252.23892.410'],
    ]);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await expect.poll(() => output.match(/is listening on/g)?.length ?? 0, { timeout: 10_000 }).toBe(2);
      expect(output).toContain(
        `PyCharm 2025.2 (PY-252.23892.410) is listening on http://127.0.0.1:${base + 1}`,
      );
      const second = await fetch(`http://127.0.0.1:${base + 1}/api/installPlugin`);
      expect(await second.json()).toEqual({ name: 'PyCharm 2025.2', buildNumber: 'PY-252.23892.410' });
      const ids = encodeURIComponent('["com.example.tool","com.example.old"]');
      const check = await fetch(
        `http://127.0.0.1:${base}/api/installPlugin?action=checkCompatibility&pluginIds=${ids}`,
      );
      expect(await check.json()).toEqual({ 'com.example.tool': true, 'com.example.old': false });
      await expect
        .poll(() => output, { timeout: 5_000 })
        .toContain(`:${base + 1} GET /api/installPlugin -> 200`);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });

  it('asks whether to trust another page, like the IDE, and takes the answer from the keyboard', async () => {
    const port = await freePortBlock(1);
    const child = runCli(['--port', String(port), '--quiet']);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await expect.poll(() => output, { timeout: 10_000 }).toContain('is listening on');
      const install = get(`http://127.0.0.1:${port}/api/installPlugin?action=install&pluginId=a.b`, {
        Origin: 'https://blog.example.org',
      });
      await expect
        .poll(() => output, { timeout: 5_000 })
        .toContain(`:${port} asks whether to trust https://blog.example.org (question 1)`);
      child.stdin.write('y\n');
      expect((await install).status).toBe(200);
      await expect
        .poll(() => output, { timeout: 5_000 })
        .toContain(`:${port} trusts https://blog.example.org.`);
      child.stdin.write('n\n');
      await expect.poll(() => output, { timeout: 5_000 }).toContain('No IDE is asking anything.');
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });

  it('says which port is taken and exits with status 1', async () => {
    const taken = await startIdeSimulator({ port: 0 });
    try {
      const child = runCli(['--port', String(taken.port)]);
      let errors = '';
      child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
      const status = await new Promise((resolve) => child.once('exit', resolve));
      expect(status).toBe(1);
      expect(errors).toContain(`port ${taken.port} on 127.0.0.1 is already in use`);
    } finally {
      await taken.close();
    }
  });

  it('explains a bad argument and exits with status 2', async () => {
    const child = runCli(['--untrusted-origins', 'maybe']);
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const status = await new Promise((resolve) => child.once('exit', resolve));
    expect(status).toBe(2);
    expect(errors).toContain('--untrusted-origins is ask, accept or refuse, got "maybe"');
  });
});
