import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IDENTITY_KEYS_FILE, loadOrCreateIdentityKeys, publicJwks } from '../../src/auth/keys';

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
