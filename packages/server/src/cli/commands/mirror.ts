import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, storageConfigFromEnv } from '../../config';
import { migrate } from '../../db/migrate';
import { uploadTempDirectory } from '../../publishing';
import { openFileStore } from '../../storage';
import {
  exportMirror,
  importMirror,
  MANIFEST_NAME,
  mirrorOptionsFromEnv,
  MirrorTransferError,
} from '../../trust/mirror';
import { databaseLocation, openConfiguredDatabase, UsageError, type CliIo, type Command } from '../command';

const USAGE = `Usage: mp mirror export <dir> [--plugins id,id,...]
       mp mirror import <dir>

Carries a mirror across an air gap.

  export  writes every listed item (or the chosen plugin ids) with its offered versions into <dir>, which
          must be new or empty: the archives byte for byte under archives/, and ${MANIFEST_NAME} with the
          metadata and each archive's SHA-256. The source named in it is PUBLIC_URL.
  import  checks every archive of <dir> against ${MANIFEST_NAME} (one changed byte refuses the whole import,
          naming the file), then verifies each version like a synced one (a readable plugin of that id and
          version; signatures, when signed, that verify) and imports it in one transaction. Versions already
          here are skipped; items published here under the same id are left alone. Imported items are
          marked "Mirrored from <host>".

The database and file store are the server's: DATABASE_URL or DATA_DIR, S3_BUCKET when set.`;

function parse(args: string[]): { action: 'export' | 'import'; directory: string; pluginIds: string[] } {
  let values: { plugins?: string };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args,
      options: { plugins: { type: 'string' } },
      strict: true,
      allowPositionals: true,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const [action, directory, ...rest] = positionals;
  if (action !== 'export' && action !== 'import') {
    throw new UsageError(action === undefined ? 'Say export or import.' : `Unknown action "${action}".`);
  }
  if (directory === undefined || directory.trim() === '') throw new UsageError('Give the directory.');
  if (rest.length > 0) throw new UsageError(`Unexpected argument "${rest[0]}".`);
  if (action === 'import' && values.plugins !== undefined) {
    throw new UsageError('--plugins is for export: an import takes everything the export holds.');
  }
  const pluginIds = (values.plugins ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  if (values.plugins !== undefined && pluginIds.length === 0) {
    throw new UsageError('--plugins needs plugin ids separated by commas.');
  }
  return { action, directory, pluginIds };
}

async function open(io: CliIo) {
  const location = databaseLocation(io);
  const fileStore = await openFileStore({
    dataDir: location.dataDir,
    storage: storageConfigFromEnv(io.env),
  });
  const database = await openConfiguredDatabase(location);
  return { location, fileStore, database };
}

export const mirrorCommand: Command = {
  name: 'mirror',
  summary: 'Export a mirror to a directory, or import one (for air-gapped sites)',
  usage: USAGE,
  async run(args, io) {
    const { action, directory: given, pluginIds } = parse(args);
    const directory = resolve(io.cwd, given);
    // PUBLIC_URL and the archive limits are read before the database is opened: a wrong setting changes nothing.
    const source = action === 'export' ? loadConfig(io.env, [], io.cwd).publicUrl : '';
    const options = mirrorOptionsFromEnv(io.env);
    const { location, fileStore, database } = await open(io);
    try {
      await migrate(database);
      if (action === 'export') {
        io.err(`Exporting from ${location.description} into ${directory}...`);
        const result = await exportMirror({ db: database.db, fileStore }, directory, {
          source,
          pluginIds,
          progress: io.err,
        });
        for (const id of result.missing)
          io.err(`${id} is not a listed item here: nothing of it was exported.`);
        io.out(
          `Exported ${result.plugins} item(s), ${result.versions} version(s), ${result.bytes} bytes of archives to ${directory}.`,
        );
        return result.missing.length > 0 ? 1 : 0;
      }
      io.err(`Importing ${directory} into ${location.description}...`);
      const result = await importMirror(
        {
          db: database.db,
          fileStore,
          tempDir: uploadTempDirectory(location.dataDir),
          options,
        },
        directory,
        { progress: io.err },
      );
      for (const note of result.notes) io.err(note);
      for (const problem of result.problems) io.err(problem);
      io.out(
        `Imported ${result.imported} version(s); ${result.present} already here; ${result.failed} refused.`,
      );
      return result.failed > 0 ? 1 : 0;
    } catch (error) {
      if (error instanceof MirrorTransferError) {
        io.err(`mp mirror ${action}: ${error.message}`);
        return 1;
      }
      throw error;
    } finally {
      await fileStore.flush();
      await database.close();
    }
  },
};
