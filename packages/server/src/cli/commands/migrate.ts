import { parseArgs } from 'node:util';
import { migrate } from '../../db/migrate';
import { databaseLocation, openConfiguredDatabase, UsageError, type Command } from '../command';

export const migrateCommand: Command = {
  name: 'migrate',
  summary: 'Apply the database migrations that have not been applied yet',
  usage: `Usage: mp migrate

Applies every pending SQL migration in order, each in its own transaction. Safe to run while servers
start: migrators take turns. The server also migrates when it starts.`,
  async run(args, io) {
    try {
      parseArgs({ args, options: {}, strict: true, allowPositionals: false });
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const location = databaseLocation(io);
    io.err(`Migrating ${location.description}...`);
    const database = await openConfiguredDatabase(location);
    try {
      const { applied } = await migrate(database);
      io.out(applied.length === 0 ? 'The database is up to date.' : `Applied: ${applied.join(', ')}`);
      return 0;
    } finally {
      await database.close();
    }
  },
};
