import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/server-process';

const SERVER_DIRECTORY = fileURLToPath(new URL('../..', import.meta.url));
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'mp-start-'));
});
afterAll(async () => rm(dataDir, { recursive: true, force: true }));

/** Runs `src/server.ts` as `pnpm start` does until it exits; answers its exit code and what it printed. */
async function startWith(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: SERVER_DIRECTORY,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, DEMO: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  return { code, output };
}

/** The one line that says why, and no stack trace. */
function reasonOf(output: string): string {
  const lines = output.split('\n').filter((line) => line.startsWith('Cannot start:'));
  expect(lines, output).toHaveLength(1);
  expect(output, 'no stack trace').not.toMatch(/^\s+at /m);
  return lines[0]!;
}

// Each case starts a real server process, which fails before it listens.
describe(
  'a server whose engines are misconfigured stops at start with one line naming the setting',
  { timeout: 90_000 },
  () => {
    it('a PostgreSQL server that cannot be reached', async () => {
      const { code, output } = await startWith({ DATABASE_URL: 'postgres://127.0.0.1:1/marketplace' });
      expect(code).toBe(1);
      expect(reasonOf(output)).toMatch(
        /^Cannot start: DATABASE_URL \(127\.0\.0\.1:1\/marketplace\) cannot be used \(connect ECONNREFUSED .*\): check DATABASE_URL\.$/,
      );
    });

    it('a Redis that cannot be reached, before the database is touched', async () => {
      const { code, output } = await startWith({ REDIS_URL: 'redis://127.0.0.1:1' });
      expect(code).toBe(1);
      expect(reasonOf(output)).toMatch(
        /^Cannot start: REDIS_URL \(127\.0\.0\.1:1\) cannot be used .*check REDIS_URL/,
      );
      expect(output).not.toContain('Opening');
    });

    it('an S3 endpoint that cannot be reached', async () => {
      const { code, output } = await startWith({
        S3_BUCKET: 'mp-files',
        S3_ENDPOINT: 'http://127.0.0.1:1',
        S3_ACCESS_KEY_ID: 'key',
        S3_SECRET_ACCESS_KEY: 'secret',
      });
      expect(code).toBe(1);
      expect(reasonOf(output)).toMatch(
        /^Cannot start: S3_BUCKET "mp-files" at http:\/\/127\.0\.0\.1:1 .*S3_ENDPOINT/,
      );
    });
  },
);
