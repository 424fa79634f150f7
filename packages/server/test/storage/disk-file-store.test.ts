import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileStore, FileTooLargeError, type DiskFileStore } from '../../src/storage';

const sha256 = (content: Buffer | string) => createHash('sha256').update(content).digest('hex');

async function collect(iterable: AsyncIterable<string>): Promise<string[]> {
  const values: string[] = [];
  for await (const value of iterable) values.push(value);
  return values;
}

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

  it('stores content under its sha256 and gives the same bytes back', async () => {
    const content = Buffer.from('<idea-plugin><id>com.example</id></idea-plugin>');
    const stored = await store.put(content);
    expect(stored).toEqual({ hash: sha256(content), size: content.length });
    expect(await store.has(stored.hash)).toBe(true);
    const opened = await store.open(stored.hash);
    expect(opened?.size).toBe(content.length);
    expect(await text(opened!.stream)).toBe(content.toString());
    const shard = stored.hash.slice(0, 2);
    expect(await readdir(join(directory, 'files', shard))).toEqual([stored.hash.slice(2)]);
  });

  it('streams large content through and keeps one copy of equal content', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const chunks = Array.from({ length: 80 }, (_, index) =>
      Buffer.concat([chunk, Buffer.from(String(index))]),
    );
    const whole = Buffer.concat(chunks);
    const first = await store.put(Readable.from(chunks));
    const second = await store.put(whole);
    expect(first).toEqual({ hash: sha256(whole), size: whole.length });
    expect(second).toEqual(first);
    expect(await collect(store.list())).toEqual([first.hash]);
  });

  it('shows nothing under the hash name until the content is complete', async () => {
    const content = Buffer.from('first half|second half');
    const source = new PassThrough();
    const putting = store.put(source);
    source.write(content.subarray(0, 10));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await store.has(sha256(content))).toBe(false);
    expect(await collect(store.list())).toEqual([]);
    source.end(content.subarray(10));
    expect((await putting).hash).toBe(sha256(content));
    expect(await store.has(sha256(content))).toBe(true);
  });

  it('leaves no file behind when the source fails part-way', async () => {
    const source = new Readable({
      read() {
        this.push(Buffer.from('part of an upload'));
        this.destroy(new Error('connection reset'));
      },
    });
    await expect(store.put(source)).rejects.toThrow('connection reset');
    expect(await collect(store.list())).toEqual([]);
    expect(await readdir(join(directory, 'files'))).toEqual([]);
  });

  it('refuses content over the size limit and stores nothing', async () => {
    const attempt = store.put(Readable.from([Buffer.alloc(600), Buffer.alloc(600)]), { maxBytes: 1000 });
    await expect(attempt).rejects.toBeInstanceOf(FileTooLargeError);
    await expect(store.put(Buffer.alloc(1001), { maxBytes: 1000 })).rejects.toThrow(
      'The file is larger than the 1000 bytes allowed.',
    );
    expect(await readdir(join(directory, 'files'))).toEqual([]);
    expect(await store.put(Buffer.alloc(1000), { maxBytes: 1000 })).toMatchObject({ size: 1000 });
  });

  it('ignores temporary files left by a crash when listing', async () => {
    const stored = await store.put(Buffer.from('kept'));
    await writeFile(join(directory, 'files', '.incoming-0b7a5e5c'), 'half written');
    await writeFile(join(directory, 'files', stored.hash.slice(0, 2), '.incoming-elsewhere'), 'junk');
    expect(await collect(store.list())).toEqual([stored.hash]);
    expect(await store.has(sha256('half written'))).toBe(false);
  });

  it('reads a byte range and reports the whole size', async () => {
    const stored = await store.put(Buffer.from('0123456789'));
    const opened = await store.open(stored.hash, { start: 2, end: 5 });
    expect(opened?.size).toBe(10);
    expect(await text(opened!.stream)).toBe('2345');
  });

  it('removes files and answers whether there was one', async () => {
    const stored = await store.put(Buffer.from('to be removed'));
    expect(await store.remove(stored.hash)).toBe(true);
    expect(await store.remove(stored.hash)).toBe(false);
    expect(await store.has(stored.hash)).toBe(false);
    expect(await store.open(stored.hash)).toBeUndefined();
    expect(await collect(store.list())).toEqual([]);
  });

  it('never builds a path from something that is not a hash', async () => {
    await writeFile(join(directory, 'secret'), 'outside the store');
    for (const name of ['../secret', '../../secret', 'AB'.repeat(32), `${'a'.repeat(63)}/`]) {
      expect(await store.has(name)).toBe(false);
      expect(await store.open(name)).toBeUndefined();
      expect(await store.remove(name)).toBe(false);
    }
  });

  it('lists nothing before the first file is stored', async () => {
    expect(await collect(store.list())).toEqual([]);
  });

  describe('adopting a file the caller wrote', () => {
    async function written(content: string, where = directory): Promise<string> {
      const path = join(where, `upload-${sha256(content + where).slice(0, 8)}.part`);
      await writeFile(path, content, { mode: 0o600 });
      return path;
    }

    it('moves the file in under its hash, readable, and leaves nothing behind', async () => {
      const content = 'a plugin archive';
      const path = await written(content);
      const adopted = await store.adopt(path, { hash: sha256(content), size: content.length });
      expect(adopted).toEqual({ hash: sha256(content), size: content.length });
      await expect(stat(path)).rejects.toMatchObject({ code: 'ENOENT' });
      expect(await text((await store.open(adopted.hash))!.stream)).toBe(content);
      const stored = await stat(join(directory, 'files', adopted.hash.slice(0, 2), adopted.hash.slice(2)));
      expect(stored.mode & 0o777).toBe(0o644);
    });

    it('keeps the stored copy and removes the new file when the content is already there', async () => {
      const content = 'the same archive twice';
      const first = await store.put(Buffer.from(content));
      const path = await written(content);
      expect(await store.adopt(path, first)).toEqual(first);
      await expect(stat(path)).rejects.toMatchObject({ code: 'ENOENT' });
      expect(await collect(store.list())).toEqual([first.hash]);
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

    it('refuses a hash that is not a sha256', async () => {
      const path = await written('x');
      await expect(store.adopt(path, { hash: '../../etc/passwd', size: 1 })).rejects.toThrow(TypeError);
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
