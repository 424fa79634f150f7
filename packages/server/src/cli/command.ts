import { resolve } from 'node:path';
import { openDatabase, type DatabaseConnection } from '../db/client';

/** Where a command writes and what it reads; tests pass their own. */
export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export interface Command {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** The full help text of the command. */
  usage: string;
  /** Runs the command; answers the process exit code. */
  run(args: string[], io: CliIo): Promise<number>;
}

/** A mistake in how the command was called: printed with the command's usage, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export interface DatabaseLocation {
  databaseUrl: string | undefined;
  dataDir: string;
  description: string;
}

/** The same database the server uses: DATABASE_URL when set, else the embedded one in DATA_DIR (./.data). */
export function databaseLocation(io: CliIo): DatabaseLocation {
  const databaseUrl = io.env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new UsageError('DATABASE_URL must be a postgres:// or postgresql:// connection string.');
  }
  const dataDir = resolve(io.cwd, io.env.DATA_DIR?.trim() || '.data');
  const description = databaseUrl
    ? `PostgreSQL at ${redactPassword(databaseUrl)}`
    : `the embedded database in ${dataDir}`;
  return { databaseUrl, dataDir, description };
}

export async function openConfiguredDatabase(location: DatabaseLocation): Promise<DatabaseConnection> {
  return openDatabase({ databaseUrl: location.databaseUrl, dataDir: location.dataDir });
}

function redactPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'DATABASE_URL';
  }
}
