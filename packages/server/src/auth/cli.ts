import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { openDatabase, type DatabaseConnection } from '../db/client';
import { DatabaseInUseError } from '../db/directory-lock';
import { migrate } from '../db/migrate';
import { AdminRequestError, runAdminRequest, type AdminRequest, type AdminResult } from './admin-operations';
import { NoServerRunningError, sendToLocalChannel } from './local-channel';

/** Where the commands find the data: the same DATA_DIR and DATABASE_URL the server uses. */
export interface CommandContext {
  dataDir: string;
  databaseUrl: string | undefined;
  /** The command's normal output (a created token goes here alone, so scripts can capture it). */
  print: (line: string) => void;
  /** Notes and errors for the person. */
  note: (line: string) => void;
  /** Reads a password from standard input (for --password-stdin). */
  readStdin?: () => Promise<string>;
}

export function commandContextFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): CommandContext {
  return {
    dataDir: resolve(cwd, env.DATA_DIR?.trim() || '.data'),
    databaseUrl: env.DATABASE_URL?.trim() || undefined,
    print: (line) => process.stdout.write(`${line}\n`),
    note: (line) => process.stderr.write(`${line}\n`),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin as AsyncIterable<Buffer>) chunks.push(chunk);
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}

/** What `mp` (src/cli) hands each command: output lines, environment and working directory. */
export interface MpCommandIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

function contextFromIo(io: MpCommandIo): CommandContext {
  const fromEnv = commandContextFromEnv(io.env, io.cwd);
  return { ...fromEnv, print: io.out, note: io.err };
}

export const USERS_USAGE = `Usage:
  mp users add --login LOGIN (--password PASSWORD | --password-stdin) [--name NAME] [--email EMAIL] [--admin]
  mp users set-password --login LOGIN (--password PASSWORD | --password-stdin)
  mp users ban --login LOGIN --reason REASON   mp users unban --login LOGIN
  mp users make-admin --login LOGIN   mp users remove-admin --login LOGIN`;

export const TOKENS_USAGE = `Usage:
  mp tokens create --login LOGIN --scope upload|manage [--scope ...] [--name NAME] [--expires-days DAYS]
  mp tokens list --login LOGIN
  mp tokens revoke --login LOGIN --id ID`;

class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * How long a command waits for a server that holds the embedded database but does not answer on the local
 * channel yet: it opens the channel only once it listens, a moment after it took the database.
 */
const SERVER_STARTING_WAIT_MS = 15_000;

/**
 * Asks the running server over the local channel; when none runs, opens the database itself (migrating it
 * first, as the server would), does the same operation and closes it. A server that is still starting holds
 * the embedded database before its channel answers: the command waits for the channel then.
 */
async function execute(context: CommandContext, request: AdminRequest): Promise<AdminResult> {
  const deadline = Date.now() + SERVER_STARTING_WAIT_MS;
  for (;;) {
    try {
      return await sendToLocalChannel(context.dataDir, request);
    } catch (error) {
      if (!(error instanceof NoServerRunningError)) throw error;
    }
    let database: DatabaseConnection;
    try {
      database = await openDatabase({ databaseUrl: context.databaseUrl, dataDir: context.dataDir });
    } catch (error) {
      if (!(error instanceof DatabaseInUseError) || Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
    try {
      await migrate(database);
      return await runAdminRequest(database.db, request);
    } finally {
      await database.close();
    }
  }
}

function parse(args: readonly string[], options: ParseArgsConfig['options']) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: false, strict: true }).values as Record<
      string,
      string | boolean | string[] | undefined
    >;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required.`);
  return value.trim();
}

async function passwordFrom(values: Record<string, unknown>, context: CommandContext): Promise<string> {
  if (values['password-stdin'] === true) {
    if (!context.readStdin) throw new UsageError('--password-stdin is not available here.');
    const text = (await context.readStdin()).replace(/\r?\n$/, '');
    if (text === '') throw new UsageError('No password arrived on standard input.');
    return text;
  }
  const password = values.password;
  if (typeof password !== 'string' || password === '') {
    throw new UsageError('--password (or --password-stdin) is required.');
  }
  return password;
}

function describeUser(result: AdminResult): string {
  if (result.kind !== 'user') return '';
  const roles = [result.isAdmin ? 'administrator' : 'developer', ...(result.banned ? ['banned'] : [])];
  return `${result.login} (id ${result.id}, ${roles.join(', ')})`;
}

async function runCommand(
  usage: string,
  context: CommandContext,
  body: () => Promise<void>,
): Promise<number> {
  try {
    await body();
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      context.note(`${error.message}\n${usage}`);
      return 2;
    }
    if (error instanceof AdminRequestError) {
      context.note(error.message);
      return 1;
    }
    context.note(`The command failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

const LOGIN_OPTION = { login: { type: 'string' } } as const;
const PASSWORD_OPTIONS = { password: { type: 'string' }, 'password-stdin': { type: 'boolean' } } as const;

/** `mp users ...`; resolves to the process exit code. */
export async function runUsersCommand(
  args: readonly string[],
  context = commandContextFromEnv(),
): Promise<number> {
  const [subcommand, ...rest] = args;
  return runCommand(USERS_USAGE, context, async () => {
    switch (subcommand) {
      case 'add': {
        const values = parse(rest, {
          ...LOGIN_OPTION,
          ...PASSWORD_OPTIONS,
          name: { type: 'string' },
          email: { type: 'string' },
          admin: { type: 'boolean' },
        });
        const login = required(values, 'login');
        const result = await execute(context, {
          operation: 'users.add',
          login,
          password: await passwordFrom(values, context),
          ...(typeof values.name === 'string' ? { name: values.name } : {}),
          ...(typeof values.email === 'string' ? { email: values.email } : {}),
          admin: values.admin === true,
        });
        context.print(`Created user ${describeUser(result)}.`);
        return;
      }
      case 'set-password': {
        const values = parse(rest, { ...LOGIN_OPTION, ...PASSWORD_OPTIONS });
        const login = required(values, 'login');
        const result = await execute(context, {
          operation: 'users.set-password',
          login,
          password: await passwordFrom(values, context),
        });
        context.print(`Changed the password of ${describeUser(result)}.`);
        return;
      }
      case 'ban':
      case 'unban': {
        const values = parse(rest, { ...LOGIN_OPTION, reason: { type: 'string' } });
        const login = required(values, 'login');
        // A ban says why (as on the admin screen): the reason is kept and shown to administrators.
        const reason = subcommand === 'ban' ? required(values, 'reason') : undefined;
        const result = await execute(context, {
          operation: 'users.set-banned',
          login,
          banned: subcommand === 'ban',
          ...(reason !== undefined ? { reason } : {}),
        });
        context.print(`${subcommand === 'ban' ? 'Banned' : 'Unbanned'} ${describeUser(result)}.`);
        return;
      }
      case 'make-admin':
      case 'remove-admin': {
        const login = required(parse(rest, LOGIN_OPTION), 'login');
        const result = await execute(context, {
          operation: 'users.set-admin',
          login,
          admin: subcommand === 'make-admin',
        });
        context.print(`Now ${describeUser(result)}.`);
        return;
      }
      default:
        throw new UsageError(subcommand ? `Unknown command "users ${subcommand}".` : 'Which users command?');
    }
  });
}

/** `mp tokens ...`; resolves to the process exit code. */
export async function runTokensCommand(
  args: readonly string[],
  context = commandContextFromEnv(),
): Promise<number> {
  const [subcommand, ...rest] = args;
  return runCommand(TOKENS_USAGE, context, async () => {
    switch (subcommand) {
      case 'create': {
        const values = parse(rest, {
          ...LOGIN_OPTION,
          scope: { type: 'string', multiple: true },
          name: { type: 'string' },
          'expires-days': { type: 'string' },
        });
        const login = required(values, 'login');
        const scopes = (Array.isArray(values.scope) ? values.scope : []).flatMap((scope) => scope.split(','));
        if (scopes.length === 0) throw new UsageError('--scope is required (upload or manage).');
        const days = values['expires-days'];
        const expiresInDays = typeof days === 'string' ? Number(days) : undefined;
        if (expiresInDays !== undefined && !Number.isInteger(expiresInDays)) {
          throw new UsageError('--expires-days must be a whole number of days.');
        }
        const result = await execute(context, {
          operation: 'tokens.create',
          login,
          scopes,
          ...(typeof values.name === 'string' ? { name: values.name } : {}),
          ...(expiresInDays !== undefined ? { expiresInDays } : {}),
        });
        if (result.kind !== 'token') throw new Error('The server answered something else than a token.');
        context.print(result.token.token);
        const expiry = result.token.expiresAt ? `expires ${result.token.expiresAt}` : 'does not expire';
        context.note(
          `Token ${result.token.id} "${result.token.name}" for ${login} (scopes: ${result.token.scopes.join(', ')}; ` +
            `${expiry}). Store it now: it cannot be shown again.`,
        );
        return;
      }
      case 'list': {
        const login = required(parse(rest, LOGIN_OPTION), 'login');
        const result = await execute(context, { operation: 'tokens.list', login });
        if (result.kind !== 'tokens')
          throw new Error('The server answered something else than a token list.');
        if (result.tokens.length === 0) context.note(`${login} has no API tokens.`);
        for (const token of result.tokens) {
          context.print(
            [
              token.id,
              token.name,
              token.scopes.join(','),
              `...${token.hint}`,
              `created ${token.createdAt}`,
              token.expiresAt ? `expires ${token.expiresAt}` : 'no expiry',
              token.lastUsedAt ? `last used ${token.lastUsedAt}` : 'never used',
            ].join('\t'),
          );
        }
        return;
      }
      case 'revoke': {
        const values = parse(rest, { ...LOGIN_OPTION, id: { type: 'string' } });
        const login = required(values, 'login');
        const id = Number(required(values, 'id'));
        if (!Number.isInteger(id) || id < 1) throw new UsageError('--id must be the number of a token.');
        await execute(context, { operation: 'tokens.revoke', login, id });
        context.print(`Revoked token ${id} of ${login}.`);
        return;
      }
      default:
        throw new UsageError(
          subcommand ? `Unknown command "tokens ${subcommand}".` : 'Which tokens command?',
        );
    }
  });
}

/** `mp users`, in the shape of the commands of src/cli (name, summary, usage, run). */
export const usersCommand = {
  name: 'users',
  summary: 'Add users, set their passwords, ban or unban them, make them administrators',
  usage: `${USERS_USAGE}

Works while the server runs (through its local channel in DATA_DIR) and when it does not (on the database).`,
  run: (args: string[], io: MpCommandIo): Promise<number> => runUsersCommand(args, contextFromIo(io)),
};

/** `mp tokens`, in the shape of the commands of src/cli. */
export const tokensCommand = {
  name: 'tokens',
  summary: 'Create, list and revoke permanent API tokens (perm:...) of a user',
  usage: `${TOKENS_USAGE}

"create" prints the token alone on standard output, once: it is stored hashed and cannot be shown again.`,
  run: (args: string[], io: MpCommandIo): Promise<number> => runTokensCommand(args, contextFromIo(io)),
};
