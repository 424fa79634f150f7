import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileStore, type DiskFileStore } from '../../src/storage';
import { collect, describeFileStoreContract, sha256 } from './file-store-contract';

describeFileStoreContract('the disk file store', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'mp-files-'));
  return {
    store: createFileStore(directory),
    scratchDirectory: directory,
    async leftovers() {
      const names = await readdir(join(directory, 'files')).catch(() => []);
      return names.filter((name) => name.startsWith('.'));
    },
    close: () => rm(directory, { recursive: true, force: true }),
  };
});

describe('the disk file store', () => {
  let directory: string;
  let store: DiskFileStore;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'mp-files-'));
    store = createFileStore(directory);
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('keeps a file at files/<first two hex digits>/<the rest of the hash>', async () => {
    const stored = await store.put(Buffer.from('<idea-plugin><id>com.example</id></idea-plugin>'));
    const shard = stored.hash.slice(0, 2);
    expect(await readdir(join(directory, 'files', shard))).toEqual([stored.hash.slice(2)]);
  });

  it('leaves no temporary file behind when a put fails', async () => {
    const source = new Readable({
      read() {
        this.push(Buffer.from('part of an upload'));
        this.destroy(new Error('connection reset'));
      },
    });
    await expect(store.put(source)).rejects.toThrow('connection reset');
    await expect(store.put(Buffer.alloc(1001), { maxBytes: 1000 })).rejects.toThrow();
    expect(await readdir(join(directory, 'files'))).toEqual([]);
  });

  it('ignores temporary files left by a crash when listing', async () => {
    const stored = await store.put(Buffer.from('kept'));
    await writeFile(join(directory, 'files', '.incoming-0b7a5e5c'), 'half written');
    await writeFile(join(directory, 'files', stored.hash.slice(0, 2), '.incoming-elsewhere'), 'junk');
    expect(await collect(store.list())).toEqual([stored.hash]);
    expect(await store.has(sha256('half written'))).toBe(false);
  });

  it('never builds a path from something that is not a hash', async () => {
    await writeFile(join(directory, 'secret'), 'outside the store');
    for (const name of ['../secret', '../../secret', 'AB'.repeat(32), `${'a'.repeat(63)}/`]) {
      expect(await store.has(name)).toBe(false);
      expect(await store.open(name)).toBeUndefined();
      expect(await store.remove(name)).toBe(false);
    }
  });

  describe('adopting a file the caller wrote', () => {
    async function written(content: string, where = directory): Promise<string> {
      const path = join(where, `upload-${sha256(content + where).slice(0, 8)}.part`);
      await writeFile(path, content, { mode: 0o600 });
      return path;
    }

    it('moves the file in, readable by all like the files put writes', async () => {
      const content = 'a plugin archive';
      const path = await written(content);
      const adopted = await store.adopt(path, { hash: sha256(content), size: content.length });
      const stored = await stat(join(directory, 'files', adopted.hash.slice(0, 2), adopted.hash.slice(2)));
      expect(stored.mode & 0o777).toBe(0o644);
    });

    it('copies a file from another file system in, checking its hash', async () => {
      const elsewhere = await mkdtemp('/dev/shm/mp-upload-');
      try {
        const content = 'an archive on a memory file system';
        const path = await written(content, elsewhere);
        const adopted = await store.adopt(path, { hash: sha256(content), size: content.length });
        expect(adopted.hash).toBe(sha256(content));
        await expect(stat(path)).rejects.toMatchObject({ code: 'ENOENT' });
        expect(await text((await store.open(adopted.hash))!.stream)).toBe(content);

        const lying = await written('other bytes', elsewhere);
        await expect(store.adopt(lying, { hash: sha256('not these'), size: 11 })).rejects.toThrow(
          /hashes to/,
        );
        expect(await store.has(sha256('not these'))).toBe(false);
      } finally {
        await rm(elsewhere, { recursive: true, force: true });
      }
    });
  });
});

describe('the disk file store with deferred durability', () => {
  let directory: string;
  let store: DiskFileStore;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'mp-files-'));
    store = createFileStore(directory, { deferDurability: true });
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('publishes files under their hash only when flushed, once per content', async () => {
    const first = await store.put(Buffer.from('archive one'));
    const again = await store.put(Buffer.from('archive one'));
    const second = await store.put(Readable.from([Buffer.from('archive '), Buffer.from('two')]));
    expect(again).toEqual(first);
    expect(second).toEqual({ hash: sha256('archive two'), size: 11 });
    expect(await store.has(first.hash)).toBe(false);
    expect(await collect(store.list())).toEqual([]);

    await store.flush();
    expect((await collect(store.list())).sort()).toEqual([first.hash, second.hash].sort());
    expect(await text((await store.open(second.hash))!.stream)).toBe('archive two');
    expect((await readdir(join(directory, 'files'))).filter((name) => name.startsWith('.'))).toEqual([]);

    // Content already published is not written again.
    expect(await store.put(Buffer.from('archive one'))).toEqual(first);
    await store.flush();
    expect(await collect(store.list())).toHaveLength(2);
  });
});
