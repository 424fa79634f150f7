import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CliIo } from '../../src/cli/command';
import { runCli } from '../../src/cli/run';
import { closedPort } from '../storage/s3-test-server';

// Each run opens the embedded database on disk and migrates it, which takes seconds on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

describe('the mp command', () => {
  let directory: string;
  let output: string[];
  let errors: string[];
  let io: CliIo;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'mp-cli-'));
    output = [];
    errors = [];
    io = {
      out: (line) => output.push(line),
      err: (line) => errors.push(line),
      env: { DATA_DIR: 'data' },
      cwd: directory,
    };
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('lists its commands for help, and exits 2 without a command', async () => {
    expect(await runCli(['help'], io)).toBe(0);
    expect(output.join('\n')).toMatch(/Usage: mp <command>[\s\S]*seed[\s\S]*migrate/);
    expect(await runCli([], io)).toBe(2);
    expect(await runCli(['help', 'seed'], io)).toBe(0);
    expect(output.at(-1)).toMatch(/--plugins N/);
  });

  it('names an unknown command and shows the list', async () => {
    expect(await runCli(['sed'], io)).toBe(2);
    expect(errors.join('\n')).toMatch(/Unknown command "sed"[\s\S]*Commands:/);
  });

  it('explains bad options without touching the database', async () => {
    expect(await runCli(['seed', '--plugins', 'many'], io)).toBe(2);
    expect(errors.join('\n')).toContain('--plugins must be a whole number from 1 to 1000000, got "many".');
    expect(await runCli(['seed', '--today', '2026-02-30'], io)).toBe(2);
    expect(errors.join('\n')).toContain('--today must be a date written YYYY-MM-DD, got "2026-02-30".');
    expect(await runCli(['seed', '--colour', 'blue'], io)).toBe(2);
    expect(errors.join('\n')).toMatch(/Unknown option '--colour'/);
    expect(await runCli(['migrate'], { ...io, env: { DATABASE_URL: 'mysql://localhost/db' } })).toBe(2);
    expect(errors.at(-1)).toMatch(
      /DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ connection string/,
    );
  });

  it('stops seeding when the S3 bucket cannot be used, before touching the database', async () => {
    const endpoint = `http://127.0.0.1:${await closedPort()}`;
    const env = {
      DATA_DIR: 'data',
      S3_BUCKET: 'mp-files',
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
    };
    expect(await runCli(['seed'], { ...io, env })).toBe(1);
    expect(errors.at(-1)).toBe(
      `mp seed failed: S3_BUCKET "mp-files" at ${endpoint} cannot be reached (connect ECONNREFUSED): check S3_ENDPOINT.`,
    );
    expect(await runCli(['seed'], { ...io, env: { DATA_DIR: 'data', S3_ENDPOINT: endpoint } })).toBe(1);
    expect(errors.at(-1)).toBe(
      'mp seed failed: S3_ENDPOINT is set but S3_BUCKET is not: set S3_BUCKET to keep files in S3, or unset S3_ENDPOINT.',
    );
    expect(await readdir(directory)).toEqual([]);
  });

  it('migrates, seeds an empty database, refuses a full one, and replaces it when asked', async () => {
    expect(await runCli(['migrate'], io)).toBe(0);
    expect(output.at(-1)).toMatch(/^Applied: 0001_catalogue\.sql/);
    expect(await runCli(['migrate'], io)).toBe(0);
    expect(output.at(-1)).toBe('The database is up to date.');

    expect(await runCli(['seed', '--plugins', '8', '--today', '2026-11-21'], io)).toBe(0);
    expect(output.at(-1)).toMatch(/^Seeded 8 items, \d+ versions, \d+ reviews, .* in \d+\.\d s\.$/);

    expect(await runCli(['seed', '--plugins', '8'], io)).toBe(2);
    expect(errors.at(-1)).toMatch(/already holds a catalogue\. Run with --replace/);

    expect(await runCli(['seed', '--plugins', '5', '--replace'], io)).toBe(0);
    expect(output.at(-1)).toMatch(/^Seeded 5 items/);
  });
});
