import { open, readFile, unlink } from 'node:fs/promises';

/** The embedded database's directory is held by another live process. */
export class DatabaseInUseError extends Error {
  override readonly name = 'DatabaseInUseError';

  constructor(
    readonly directory: string,
    readonly holderPid: number,
  ) {
    super(
      `The embedded database in ${directory} is in use by another process (pid ${holderPid}). ` +
        'Stop it first: two processes writing one embedded database would corrupt it. To run several ' +
        'servers at once, give them a PostgreSQL server (DATABASE_URL).',
    );
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the lock file `${directory}.lock` holding this process's id, so that a second server or `mp seed`
 * cannot open the same embedded database (PGlite has no lock of its own between processes). A lock left by a
 * process that is gone (killed, crashed) is taken over. Answers the function that gives the lock back.
 */
export async function lockDirectory(directory: string): Promise<() => Promise<void>> {
  const path = `${directory}.lock`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(path, 'wx', 0o644);
      await handle.writeFile(String(process.pid));
      await handle.close();
      return async () => {
        const holder = Number((await readFile(path, 'utf8').catch(() => '')).trim());
        if (holder === process.pid) await unlink(path).catch(() => undefined);
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number((await readFile(path, 'utf8').catch(() => '')).trim());
    if (Number.isSafeInteger(holder) && holder > 0 && isAlive(holder)) {
      throw new DatabaseInUseError(directory, holder);
    }
    // Left by a process that is gone (or half written): remove it and try again.
    await unlink(path).catch(() => undefined);
  }
  throw new Error(`Could not take the lock ${path}; remove it if no marketplace process is running.`);
}
