import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import {
  generateIdentityKeys,
  IDENTITY_KEYS_FILE,
  loadOrCreateIdentityKeys,
  loadSharedIdentityKeys,
  publicJwks,
} from '../../src/auth/keys';
import { createTestDatabase } from '../db/test-database';

let dataDir: string;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'mp-keys-'));
});

afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('identity keys in DATA_DIR', () => {
  it('are made once, readable only by the server user, and the same for processes starting together', async () => {
    const [first, second, third] = await Promise.all([
      loadOrCreateIdentityKeys(dataDir),
      loadOrCreateIdentityKeys(dataDir),
      loadOrCreateIdentityKeys(dataDir),
    ]);
    expect(second).toEqual(first);
    expect(third).toEqual(first);
    expect(await loadOrCreateIdentityKeys(dataDir)).toEqual(first);
    expect((await stat(join(dataDir, IDENTITY_KEYS_FILE))).mode & 0o777).toBe(0o600);
  });

  it('publish no private part', async () => {
    const keys = await loadOrCreateIdentityKeys(dataDir);
    const published = JSON.stringify(publicJwks(keys));
    for (const part of ['"d"', '"p"', '"q"', '"dp"', '"dq"', '"qi"']) expect(published).not.toContain(part);
    expect(JSON.parse(await readFile(join(dataDir, IDENTITY_KEYS_FILE), 'utf8'))).toEqual(keys);
  });

  it('refuse a damaged key file with advice instead of silently signing everyone out', async () => {
    await writeFile(join(dataDir, IDENTITY_KEYS_FILE), '{"signingKeys": []}');
    await expect(loadOrCreateIdentityKeys(dataDir)).rejects.toThrow(/is not a valid identity key file/);
  });
});

// Each case migrates a fresh database first.
describe('identity keys shared by the nodes of one database', { timeout: 60_000 }, () => {
  it('are the same for nodes with different DATA_DIRs starting together, and made once', async () => {
    const testDatabase = await createTestDatabase({ kind: 'postgres' });
    const otherDataDir = await mkdtemp(join(tmpdir(), 'mp-keys-'));
    try {
      const db = testDatabase.database.db;
      const [first, second] = await Promise.all([
        loadSharedIdentityKeys(db, dataDir),
        loadSharedIdentityKeys(db, otherDataDir),
      ]);
      expect(second).toEqual(first);
      expect(await loadSharedIdentityKeys(db, otherDataDir)).toEqual(first);
      const rows = await db.execute(sql`SELECT count(*)::int AS n FROM identity_keys`);
      expect(rows.rows[0]).toEqual({ n: 1 });
    } finally {
      await rm(otherDataDir, { recursive: true, force: true });
      await testDatabase.dispose();
    }
  });

  it("take the keys of an installation's existing key file, so nobody is signed out by the move", async () => {
    const testDatabase = await createTestDatabase();
    try {
      const before = await generateIdentityKeys();
      await writeFile(join(dataDir, IDENTITY_KEYS_FILE), JSON.stringify(before));
      expect(await loadSharedIdentityKeys(testDatabase.database.db, dataDir)).toEqual(before);
    } finally {
      await testDatabase.dispose();
    }
  });

  it('refuse a damaged row with advice', async () => {
    const testDatabase = await createTestDatabase();
    try {
      const db = testDatabase.database.db;
      await db.execute(sql`INSERT INTO identity_keys (id, keys) VALUES (1, '{"signingKeys": []}')`);
      await expect(loadSharedIdentityKeys(db, dataDir)).rejects.toThrow(
        /identity keys in the database \(table identity_keys\) are not valid/,
      );
    } finally {
      await testDatabase.dispose();
    }
  });
});
