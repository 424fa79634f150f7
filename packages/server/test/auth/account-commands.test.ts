import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveApiToken } from '../../src/auth/api-tokens';
import {
  runTokensCommand,
  runUsersCommand,
  tokensCommand,
  usersCommand,
  type CommandContext,
} from '../../src/auth/cli';
import { startLocalChannel, type LocalChannel } from '../../src/auth/local-channel';
import { authenticateWithPassword, findUserByLogin } from '../../src/auth/users';
import { openDatabase } from '../../src/db/client';
import { migrate } from '../../src/db/migrate';
import { createTestDatabase, type TestDatabase } from '../db/test-database';

let dataDir: string;
let printed: string[];
let notes: string[];
let context: CommandContext;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'mp-cli-'));
  printed = [];
  notes = [];
  context = {
    dataDir,
    databaseUrl: undefined,
    print: (line) => printed.push(line),
    note: (line) => notes.push(line),
    readStdin: async () => 'from-stdin-password\n',
  };
});

afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('mp users / mp tokens while the server runs (local channel)', () => {
  let server: TestDatabase;
  let channel: LocalChannel | undefined;
  const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

  beforeAll(async () => {
    // The server's database is in memory: only the running server can reach it, so success proves the
    // commands went through the channel.
    server = await createTestDatabase({ kind: 'pglite' });
  }, 60_000);

  afterAll(async () => {
    await server.dispose();
  });

  beforeEach(async () => {
    channel = await startLocalChannel({ dataDir, db: server.database.db, log: silent });
  });

  afterEach(async () => {
    await channel?.close();
  });

  it('adds an administrator and creates an upload token that works', async () => {
    const added = await runUsersCommand(
      ['add', '--login', 'carol', '--password', 'carol-password', '--admin'],
      context,
    );
    expect(notes).toEqual([]);
    expect(added).toBe(0);
    expect(printed).toEqual([expect.stringMatching(/^Created user carol \(id \d+, administrator\)\.$/)]);
    const carol = await findUserByLogin(server.database.db, 'carol');
    expect(carol?.isAdmin).toBe(true);
    expect(await authenticateWithPassword(server.database.db, 'carol', 'carol-password')).toBeDefined();

    printed = [];
    expect(await runTokensCommand(['create', '--login', 'carol', '--scope', 'upload'], context)).toBe(0);
    expect(printed).toHaveLength(1);
    const token = printed[0] ?? '';
    expect(token).toMatch(/^perm:[A-Za-z0-9_-]{43}$/);
    expect(notes.join('\n')).toContain('cannot be shown again');
    expect(await resolveApiToken(server.database.db, token)).toMatchObject({
      userId: carol?.id,
      scopes: ['upload'],
    });

    printed = [];
    expect(await runTokensCommand(['list', '--login', 'carol'], context)).toBe(0);
    expect(printed).toEqual([expect.stringContaining(`...${token.slice(-4)}`)]);
    const id = printed[0]?.split('\t')[0] ?? '';
    expect(await runTokensCommand(['revoke', '--login', 'carol', '--id', id], context)).toBe(0);
    expect(await resolveApiToken(server.database.db, token)).toBeUndefined();
  });

  it('keeps the socket private to the user running the server', async () => {
    expect((await stat(join(dataDir, 'admin'))).mode & 0o777).toBe(0o700);
    expect(channel?.path).toBe(join(dataDir, 'admin', 'admin.sock'));
  });

  it('says what is wrong and changes nothing for bad input', async () => {
    expect(await runUsersCommand(['add', '--login', 'dave', '--password', 'dave-password'], context)).toBe(0);
    notes = [];
    expect(await runUsersCommand(['add', '--login', 'dave', '--password', 'other-password'], context)).toBe(
      1,
    );
    expect(notes).toEqual(['The login "dave" is already taken.']);
    expect(await authenticateWithPassword(server.database.db, 'dave', 'dave-password')).toBeDefined();

    notes = [];
    expect(await runUsersCommand(['add', '--login', 'erin', '--password', 'short'], context)).toBe(1);
    expect(notes).toEqual(['The password must have at least 8 characters.']);
    expect(await findUserByLogin(server.database.db, 'erin')).toBeUndefined();

    notes = [];
    expect(await runTokensCommand(['create', '--login', 'dave', '--scope', 'everything'], context)).toBe(1);
    expect(notes).toEqual(['Unknown scope "everything". Scopes are: upload, manage.']);

    notes = [];
    expect(await runTokensCommand(['create', '--login', 'nobody', '--scope', 'upload'], context)).toBe(1);
    expect(notes).toEqual(['There is no user with the login "nobody".']);

    notes = [];
    expect(await runUsersCommand(['add', '--password', 'whatever-password'], context)).toBe(2);
    expect(notes[0]).toMatch(/^--login is required\.\nUsage:/);
  });

  it('reads the password from standard input with --password-stdin', async () => {
    expect(await runUsersCommand(['add', '--login', 'frank', '--password-stdin'], context)).toBe(0);
    expect(await authenticateWithPassword(server.database.db, 'frank', 'from-stdin-password')).toBeDefined();
  });
});

describe('mp users / mp tokens while the server starts', () => {
  it('wait for the channel of a server that holds the embedded database but does not listen yet', async () => {
    // The starting server has taken the database; it opens its channel once it listens, a moment later.
    const database = await openDatabase({ dataDir });
    let channel: LocalChannel | undefined;
    try {
      await migrate(database);
      const command = runUsersCommand(['add', '--login', 'heidi', '--password', 'heidi-password'], context);
      await new Promise((resolve) => setTimeout(resolve, 600));
      const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
      channel = await startLocalChannel({ dataDir, db: database.db, log: silent });
      expect(await command, notes.join('\n')).toBe(0);
      expect(await authenticateWithPassword(database.db, 'heidi', 'heidi-password')).toBeDefined();
    } finally {
      await channel?.close();
      await database.close();
    }
  }, 120_000);
});

describe('mp users / mp tokens with no server running', () => {
  it('open the embedded database in DATA_DIR themselves', async () => {
    expect(await runUsersCommand(['add', '--login', 'grace', '--password', 'grace-password'], context)).toBe(
      0,
    );
    expect(await runTokensCommand(['create', '--login', 'grace', '--scope', 'manage'], context)).toBe(0);
    const token = printed[1] ?? '';
    const database = await openDatabase({ dataDir });
    try {
      const grace = await findUserByLogin(database.db, 'grace');
      expect(grace?.isAdmin).toBe(false);
      expect(await resolveApiToken(database.db, token)).toMatchObject({
        userId: grace?.id,
        scopes: ['manage'],
      });
    } finally {
      await database.close();
    }
  }, 120_000);
});

describe('the mp command entries', () => {
  it('take DATA_DIR from the environment, relative to the working directory', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = {
      out: (line: string) => out.push(line),
      err: (line: string) => err.push(line),
      env: { DATA_DIR: 'data' },
      cwd: dataDir,
    };
    expect(usersCommand.name).toBe('users');
    expect(tokensCommand.name).toBe('tokens');
    expect(await usersCommand.run(['add', '--login', 'ken', '--password', 'ken-password'], io)).toBe(0);
    expect(out).toEqual([expect.stringMatching(/^Created user ken /)]);
    const database = await openDatabase({ dataDir: join(dataDir, 'data') });
    try {
      expect(await findUserByLogin(database.db, 'ken')).toBeDefined();
    } finally {
      await database.close();
    }
    expect(await tokensCommand.run(['frobnicate'], io)).toBe(2);
    expect(err.at(-1)).toContain('Unknown command "tokens frobnicate".');
  }, 120_000);
});
