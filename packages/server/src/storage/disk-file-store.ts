import { createHash, randomUUID } from 'node:crypto';
import { constants, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  FileTooLargeError,
  isFileHash,
  type FileStore,
  type OpenedFile,
  type OpenOptions,
  type PutOptions,
  type StoredFile,
} from './file-store';

/** Names of files being written start with this; they are never listed and never read by hash. */
const TEMPORARY_PREFIX = '.incoming-';
const SHARD = /^[0-9a-f]{2}$/;

/**
 * A file store in `${directory}/files`: content with hash `abcdef...` lives at `files/ab/cdef...`.
 * A file appears under its hash name only complete and on disk: it is written to a temporary file in the
 * same file system, flushed, renamed (atomic), and the directory entry flushed too. A crash at any point
 * leaves either nothing or a temporary file, never a partial file under a hash name.
 */
export function createFileStore(directory: string): DiskFileStore {
  return new DiskFileStore(join(directory, 'files'));
}

export class DiskFileStore implements FileStore {
  constructor(readonly root: string) {}

  async put(content: Readable | Uint8Array, options: PutOptions = {}): Promise<StoredFile> {
    await mkdir(this.root, { recursive: true });
    const temporaryPath = join(this.root, `${TEMPORARY_PREFIX}${randomUUID()}`);
    const hasher = createHash('sha256');
    let size = 0;
    const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
    const measure = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (size > maxBytes) {
          callback(new FileTooLargeError(maxBytes));
          return;
        }
        hasher.update(chunk);
        callback(null, chunk);
      },
    });
    try {
      const source = content instanceof Uint8Array ? Readable.from([content]) : content;
      // `flush` fsyncs the file before the stream closes, so the rename below publishes complete content.
      await pipeline(
        source,
        measure,
        createWriteStream(temporaryPath, { flags: 'wx', mode: 0o644, flush: true }),
      );
      const hash = hasher.digest('hex');
      const shardDirectory = join(this.root, hash.slice(0, 2));
      const finalPath = join(shardDirectory, hash.slice(2));
      if (await exists(finalPath)) {
        await unlink(temporaryPath);
        return { hash, size };
      }
      const createdShard = !(await exists(shardDirectory));
      await mkdir(shardDirectory, { recursive: true });
      if (createdShard) await syncDirectory(this.root);
      await rename(temporaryPath, finalPath);
      await syncDirectory(shardDirectory);
      return { hash, size };
    } catch (error) {
      await unlink(temporaryPath).catch(() => undefined);
      throw error;
    }
  }

  async open(hash: string, options: OpenOptions = {}): Promise<OpenedFile | undefined> {
    const path = this.pathOf(hash);
    if (!path) return undefined;
    let handle: FileHandle;
    try {
      // Opening first and measuring the open file keeps size and content together even if the file is
      // removed meanwhile.
      handle = await open(path, constants.O_RDONLY);
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
    try {
      const { size } = await handle.stat();
      const stream = handle.createReadStream({ start: options.start, end: options.end, autoClose: true });
      return { stream, size };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async has(hash: string): Promise<boolean> {
    const path = this.pathOf(hash);
    return path ? exists(path) : false;
  }

  async remove(hash: string): Promise<boolean> {
    const path = this.pathOf(hash);
    if (!path) return false;
    try {
      await unlink(path);
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  async *list(): AsyncIterable<string> {
    let shards: string[];
    try {
      shards = await readdir(this.root);
    } catch (error) {
      if (isNotFound(error)) return;
      throw error;
    }
    for (const shard of shards.sort()) {
      if (!SHARD.test(shard)) continue;
      let names: string[];
      try {
        names = await readdir(join(this.root, shard));
      } catch (error) {
        if (isNotFound(error) || isNotDirectory(error)) continue;
        throw error;
      }
      for (const name of names.sort()) {
        const hash = shard + name;
        if (isFileHash(hash)) yield hash;
      }
    }
  }

  /** The path of a hash, or undefined for anything that is not a sha256 hex (so no path is ever built from it). */
  private pathOf(hash: string): string | undefined {
    if (!isFileHash(hash)) return undefined;
    return join(this.root, hash.slice(0, 2), hash.slice(2));
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
}

/** Makes a rename or a new entry in the directory durable. */
async function syncDirectory(path: string): Promise<void> {
  const handle = await open(path, constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function isNotFound(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

function isNotDirectory(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOTDIR';
}
