import { createHash } from 'node:crypto';
import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileTooLargeError, type FileStore } from '../../src/storage';

export const sha256 = (content: Buffer | string) => createHash('sha256').update(content).digest('hex');

export async function collect(iterable: AsyncIterable<string>): Promise<string[]> {
  const values: string[] = [];
  for await (const value of iterable) values.push(value);
  return values;
}

/** Hash and size of a stream, read through without keeping it. */
export async function digest(stream: Readable): Promise<{ hash: string; size: number }> {
  const hasher = createHash('sha256');
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    hasher.update(chunk);
    size += chunk.length;
  }
  return { hash: hasher.digest('hex'), size };
}

/** `count` chunks of 1 MiB, each different, made as they are read: nothing holds the whole content. */
export function generatedContent(count: number): { stream: () => Readable; hash: string; size: number } {
  const chunk = (index: number) => Buffer.alloc(1024 * 1024, `chunk ${index} `);
  const hasher = createHash('sha256');
  for (let index = 0; index < count; index++) hasher.update(chunk(index));
  return {
    stream: () =>
      Readable.from(
        (function* () {
          for (let index = 0; index < count; index++) yield chunk(index);
        })(),
      ),
    hash: hasher.digest('hex'),
    size: count * 1024 * 1024,
  };
}

export interface ContractStore {
  store: FileStore;
  /** A folder for files to adopt (the store's own file system where that matters). */
  scratchDirectory: string;
  /** Temporary files the store left behind (they must be none once a put has settled). */
  leftovers(): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * What every FileStore does, whatever keeps the files: registers the cases under `describe(name)`, each
 * with a fresh, empty store from `open`.
 */
export function describeFileStoreContract(name: string, open: () => Promise<ContractStore>): void {
  describe(`${name}: the FileStore contract`, () => {
    let subject: ContractStore;
    let store: FileStore;
    beforeEach(async () => {
      subject = await open();
      store = subject.store;
    });
    afterEach(async () => {
      await subject.close();
    });

    it('stores content under its sha256 and gives the same bytes back', async () => {
      const content = Buffer.from('<idea-plugin><id>com.example</id></idea-plugin>');
      const stored = await store.put(content);
      expect(stored).toEqual({ hash: sha256(content), size: content.length });
      expect(await store.has(stored.hash)).toBe(true);
      const opened = await store.open(stored.hash);
      expect(opened?.size).toBe(content.length);
      expect(await text(opened!.stream)).toBe(content.toString());
      expect(await collect(store.list())).toEqual([stored.hash]);
    });

    it('streams content through and keeps one copy of equal content, however it was given', async () => {
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const chunks = Array.from({ length: 80 }, (_, index) =>
        Buffer.concat([chunk, Buffer.from(String(index))]),
      );
      const whole = Buffer.concat(chunks);
      const first = await store.put(Readable.from(chunks));
      const again = await store.put(Readable.from(chunks));
      const asBytes = await store.put(whole);
      expect(first).toEqual({ hash: sha256(whole), size: whole.length });
      expect(again).toEqual(first);
      expect(asBytes).toEqual(first);
      expect(await collect(store.list())).toEqual([first.hash]);
      expect(await digest((await store.open(first.hash))!.stream)).toEqual(first);
      expect(await subject.leftovers()).toEqual([]);
    });

    it('stores a large streamed file and reads it back byte for byte', async () => {
      const content = generatedContent(20);
      const stored = await store.put(content.stream());
      expect(stored).toEqual({ hash: content.hash, size: content.size });
      const opened = await store.open(stored.hash);
      expect(opened?.size).toBe(content.size);
      expect(await digest(opened!.stream)).toEqual({ hash: content.hash, size: content.size });
      const tail = await store.open(stored.hash, { start: content.size - 5 });
      expect(await text(tail!.stream)).toBe(
        Buffer.alloc(1024 * 1024, 'chunk 19 ')
          .subarray(-5)
          .toString(),
      );
      expect(await subject.leftovers()).toEqual([]);
    }, 60_000);

    it('stores empty content', async () => {
      const fromBytes = await store.put(Buffer.alloc(0));
      const fromStream = await store.put(Readable.from([]));
      expect(fromBytes).toEqual({ hash: sha256(''), size: 0 });
      expect(fromStream).toEqual(fromBytes);
      const opened = await store.open(fromBytes.hash);
      expect(opened?.size).toBe(0);
      expect(await text(opened!.stream)).toBe('');
      const ranged = await store.open(fromBytes.hash, { start: 0 });
      expect(ranged?.size).toBe(0);
      expect(await text(ranged!.stream)).toBe('');
    });

    it('shows nothing under the hash until the content is complete', async () => {
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

    it('leaves nothing behind when the source fails part-way', async () => {
      const source = new Readable({
        read() {
          this.push(Buffer.from('part of an upload'));
          this.destroy(new Error('connection reset'));
        },
      });
      await expect(store.put(source)).rejects.toThrow('connection reset');
      expect(await collect(store.list())).toEqual([]);
      expect(await subject.leftovers()).toEqual([]);
    });

    it('refuses content over the size limit and stores nothing', async () => {
      const attempt = store.put(Readable.from([Buffer.alloc(600), Buffer.alloc(600)]), { maxBytes: 1000 });
      await expect(attempt).rejects.toBeInstanceOf(FileTooLargeError);
      await expect(store.put(Buffer.alloc(1001), { maxBytes: 1000 })).rejects.toThrow(
        'The file is larger than the 1000 bytes allowed.',
      );
      expect(await collect(store.list())).toEqual([]);
      expect(await store.has(sha256(Buffer.alloc(1200)))).toBe(false);
      expect(await subject.leftovers()).toEqual([]);
      expect(await store.put(Buffer.alloc(1000), { maxBytes: 1000 })).toMatchObject({ size: 1000 });
      expect(await store.put(Readable.from([Buffer.alloc(1000, 1)]), { maxBytes: 1000 })).toMatchObject({
        size: 1000,
      });
    });

    it('reads byte ranges and reports the whole size', async () => {
      const stored = await store.put(Buffer.from('0123456789'));
      const middle = await store.open(stored.hash, { start: 2, end: 5 });
      expect(middle?.size).toBe(10);
      expect(await text(middle!.stream)).toBe('2345');
      const fromStart = await store.open(stored.hash, { start: 7 });
      expect(fromStart?.size).toBe(10);
      expect(await text(fromStart!.stream)).toBe('789');
      const firstByte = await store.open(stored.hash, { start: 0, end: 0 });
      expect(await text(firstByte!.stream)).toBe('0');
      const pastTheEnd = await store.open(stored.hash, { start: 10 });
      expect(pastTheEnd?.size).toBe(10);
      expect(await text(pastTheEnd!.stream)).toBe('');
    });

    it('removes files and answers whether there was one', async () => {
      const stored = await store.put(Buffer.from('to be removed'));
      const kept = await store.put(Buffer.from('to be kept'));
      expect(await store.remove(stored.hash)).toBe(true);
      expect(await store.remove(stored.hash)).toBe(false);
      expect(await store.has(stored.hash)).toBe(false);
      expect(await store.open(stored.hash)).toBeUndefined();
      expect(await store.open(stored.hash, { start: 1, end: 2 })).toBeUndefined();
      expect(await collect(store.list())).toEqual([kept.hash]);
    });

    it('answers nothing for names that are not hashes', async () => {
      for (const name of ['../secret', '../../secret', 'AB'.repeat(32), `${'a'.repeat(63)}/`, '']) {
        expect(await store.has(name)).toBe(false);
        expect(await store.open(name)).toBeUndefined();
        expect(await store.remove(name)).toBe(false);
      }
    });

    it('lists nothing before the first file is stored, and every file once after', async () => {
      expect(await collect(store.list())).toEqual([]);
      const hashes = [];
      for (const content of ['one', 'two', 'three', 'four', 'five']) {
        hashes.push((await store.put(Buffer.from(content))).hash);
      }
      expect((await collect(store.list())).sort()).toEqual(hashes.sort());
    });

    it('tells when a file was stored', async () => {
      const before = Date.now();
      const stored = await store.put(Buffer.from('dated'));
      const at = await store.modifiedAt?.(stored.hash);
      if (store.modifiedAt) {
        // Second precision (S3's Last-Modified), and a little leeway for the clocks.
        expect(at!.getTime()).toBeGreaterThanOrEqual(before - 2000);
        expect(at!.getTime()).toBeLessThanOrEqual(Date.now() + 2000);
        expect(await store.modifiedAt(sha256('never stored'))).toBeUndefined();
      }
    });

    it('makes every put visible once flushed', async () => {
      const stored = await store.put(Buffer.from('flushed'));
      await store.flush();
      expect(await store.has(stored.hash)).toBe(true);
      await store.flush();
    });

    describe('adopting a file the caller wrote', () => {
      async function written(content: string): Promise<string> {
        const path = join(subject.scratchDirectory, `upload-${sha256(content).slice(0, 8)}.part`);
        await writeFile(path, content, { mode: 0o600 });
        return path;
      }

      it('takes the file in under its hash and leaves nothing at its path', async () => {
        const content = 'a plugin archive';
        const path = await written(content);
        const adopted = await store.adopt(path, { hash: sha256(content), size: content.length });
        expect(adopted).toEqual({ hash: sha256(content), size: content.length });
        await expect(stat(path)).rejects.toMatchObject({ code: 'ENOENT' });
        expect(await text((await store.open(adopted.hash))!.stream)).toBe(content);
        expect(await collect(store.list())).toEqual([adopted.hash]);
      });

      it('keeps the stored copy and removes the new file when the content is already there', async () => {
        const content = 'the same archive twice';
        const first = await store.put(Buffer.from(content));
        const path = await written(content);
        expect(await store.adopt(path, first)).toEqual(first);
        await expect(stat(path)).rejects.toMatchObject({ code: 'ENOENT' });
        expect(await collect(store.list())).toEqual([first.hash]);
      });

      it('refuses a hash that is not a sha256', async () => {
        const path = await written('x');
        await expect(store.adopt(path, { hash: '../../etc/passwd', size: 1 })).rejects.toThrow(TypeError);
        expect(await collect(store.list())).toEqual([]);
      });
    });
  });
}
