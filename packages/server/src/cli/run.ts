import type { CliIo, Command } from './command';
import { UsageError } from './command';
import { migrateCommand } from './commands/migrate';
import { mirrorCommand } from './commands/mirror';
import { seedCommand } from './commands/seed';
import { tokensCommand, usersCommand } from '../auth/cli';

/** Every command of `mp`; a new command is one file in commands/ and one entry here. */
export const COMMANDS: readonly Command[] = [
  seedCommand,
  migrateCommand,
  usersCommand,
  tokensCommand,
  mirrorCommand,
];

export function generalUsage(commands: readonly Command[] = COMMANDS): string {
  const width = Math.max(...commands.map((command) => command.name.length), 4);
  const lines = commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`);
  return `Usage: mp <command> [options]

The marketplace server's administration command.

Commands:
${lines.join('\n')}
  ${'help'.padEnd(width)}  Show this text, or a command's options: mp help <command>

The database is the server's: DATABASE_URL (PostgreSQL) when set, otherwise the embedded
database in DATA_DIR (default ./.data).`;
}

/** Runs `mp` with its arguments; answers the exit code (0 done, 1 failed, 2 called wrongly). */
export async function runCli(argv: readonly string[], io: CliIo, commands = COMMANDS): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    const topic = args[0];
    if (name === 'help' && topic !== undefined) {
      const command = commands.find((candidate) => candidate.name === topic);
      if (!command) {
        io.err(`Unknown command "${topic}".\n\n${generalUsage(commands)}`);
        return 2;
      }
      io.out(command.usage);
      return 0;
    }
    io.out(generalUsage(commands));
    return name === undefined ? 2 : 0;
  }
  const command = commands.find((candidate) => candidate.name === name);
  if (!command) {
    io.err(`Unknown command "${name}".\n\n${generalUsage(commands)}`);
    return 2;
  }
  if (args.includes('--help') || args.includes('-h')) {
    io.out(command.usage);
    return 0;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`mp ${command.name}: ${error.message}\n\n${command.usage}`);
      return 2;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.err(`mp ${command.name} failed: ${message}`);
    return 1;
  }
}
