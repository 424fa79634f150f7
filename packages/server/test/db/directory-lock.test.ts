import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../src/db/client';
import { DatabaseInUseError } from '../../src/db/directory-lock';

// Opening PGlite on disk takes seconds on a busy machine.
vi.setConfig({ testTimeout: 60_000 });

describe('the embedded database on disk', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'mp-lock-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is opened by one process at a time, and free again once closed', async () => {
    const first = await openDatabase({ dataDir });
    try {
      expect(await readFile(join(dataDir, 'pglite.lock'), 'utf8')).toBe(String(process.pid));
      const second = openDatabase({ dataDir });
      await expect(second).rejects.toBeInstanceOf(DatabaseInUseError);
      await expect(second).rejects.toThrow(
        `The embedded database in ${join(dataDir, 'pglite')} is in use by another process (pid ${process.pid}).`,
      );
      // The refused attempt left the holder's lock and database alone.
      expect(await readFile(join(dataDir, 'pglite.lock'), 'utf8')).toBe(String(process.pid));
      await first.db.execute(sql`CREATE TABLE still_here (id integer)`);
    } finally {
      await first.close();
    }
    const again = await openDatabase({ dataDir });
    try {
      const rows = await again.db.execute(sql`SELECT count(*)::int AS count FROM still_here`);
      expect(rows.rows).toEqual([{ count: 0 }]);
    } finally {
      await again.close();
    }
  });

  it('takes over the lock of a process that is gone (killed or crashed)', async () => {
    const gone = spawnSync(process.execPath, ['-e', '0']);
    await writeFile(join(dataDir, 'pglite.lock'), String(gone.pid));
    const database = await openDatabase({ dataDir });
    try {
      expect(await readFile(join(dataDir, 'pglite.lock'), 'utf8')).toBe(String(process.pid));
    } finally {
      await database.close();
    }
  });
});
