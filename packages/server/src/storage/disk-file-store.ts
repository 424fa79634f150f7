import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { chmod, mkdir, open, readdir, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import {
  isFileHash,
  type FileStore,
  type OpenedFile,
  type OpenOptions,
  type PutOptions,
  type StoredFile,
} from './file-store';
import { hashBytes, TEMPORARY_PREFIX, writeHashedFile } from './hashed-write';

const SHARD = /^[0-9a-f]{2}$/;
const execFileAsync = promisify(execFile);

/**
 * A file store in `${directory}/files`: content with hash `abcdef...` lives at `files/ab/cdef...`.
 * A file appears under its hash name only complete and on disk: it is written to a temporary file in the
 * same file system, flushed, renamed (atomic), and the directory entry flushed too. A crash at any point
 * leaves either nothing or a temporary file, never a partial file under a hash name.
 */
export function createFileStore(directory: string, options: DiskFileStoreOptions = {}): DiskFileStore {
  return new DiskFileStore(join(directory, 'files'), options);
}

export interface DiskFileStoreOptions {
  /**
   * For bulk loads of thousands of files: `put` writes the temporary file without flushing it and answers
   * at once; `flush()` then flushes the whole file system once, renames every pending file to its hash name
   * and flushes again. Files appear under their hash only in `flush`, complete and on disk, so the crash
   * guarantee stays; until then `has` and `open` do not see them. One flush per thousand files is far
   * cheaper than a thousand flushes.
   */
  deferDurability?: boolean;
}

export class DiskFileStore implements FileStore {
  /** Hash -> temporary file, for puts waiting for `flush` (deferred durability only). */
  private readonly pending = new Map<string, string>();

  constructor(
    readonly root: string,
    private readonly options: DiskFileStoreOptions = {},
  ) {}

  async put(content: Readable | Uint8Array, options: PutOptions = {}): Promise<StoredFile> {
    if (content instanceof Uint8Array) return this.putBytes(content, options);
    await this.ensureRoot();
    const temporaryPath = join(this.root, `${TEMPORARY_PREFIX}${randomUUID()}`);
    const deferred = this.options.deferDurability === true;
    // Flushed before the stream closes (unless deferred), so the rename below publishes complete content.
    const { hash, size } = await writeHashedFile(content, temporaryPath, {
      maxBytes: options.maxBytes,
      flush: !deferred,
    });
    try {
      if (deferred) {
        if (this.pending.has(hash) || (await exists(this.finalPathOf(hash)))) await unlink(temporaryPath);
        else this.pending.set(hash, temporaryPath);
        return { hash, size };
      }
      if (await exists(this.finalPathOf(hash))) {
        await unlink(temporaryPath);
        return { hash, size };
      }
      await this.publish(temporaryPath, hash);
      return { hash, size };
    } catch (error) {
      await unlink(temporaryPath).catch(() => undefined);
      throw error;
    }
  }

  /** Bytes already in memory: hashed first, so content that is already stored is never written again. */
  private async putBytes(content: Uint8Array, options: PutOptions): Promise<StoredFile> {
    const { hash, size } = hashBytes(content, options.maxBytes);
    const deferred = this.options.deferDurability === true;
    // Deferred (bulk) puts skip the look-up: publishing an equal file again in flush() renames identical
    // bytes over identical bytes.
    if (this.pending.has(hash) || (!deferred && (await exists(this.finalPathOf(hash)))))
      return { hash, size };
    await this.ensureRoot();
    const temporaryPath = join(this.root, `${TEMPORARY_PREFIX}${randomUUID()}`);
    try {
      const handle = await open(temporaryPath, 'wx', 0o644);
      try {
        await handle.writeFile(content);
        if (!deferred) await handle.sync();
      } finally {
        await handle.close();
      }
      if (deferred) {
        this.pending.set(hash, temporaryPath);
        return { hash, size };
      }
      await this.publish(temporaryPath, hash);
      return { hash, size };
    } catch (error) {
      await unlink(temporaryPath).catch(() => undefined);
      throw error;
    }
  }

  async adopt(path: string, file: StoredFile): Promise<StoredFile> {
    if (!isFileHash(file.hash)) throw new TypeError(`"${file.hash}" is not a sha256 hex hash.`);
    await this.ensureRoot();
    if (await this.has(file.hash)) {
      await unlink(path);
      return file;
    }
    // Stored files are readable like the ones `put` writes, and complete on disk before they get their name.
    await chmod(path, 0o644);
    await syncPath(path);
    try {
      await this.publish(path, file.hash);
      return file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    }
    // Another file system: a rename cannot cross it, so the content is copied in and the file removed.
    const stored = await this.put(createReadStream(path), { maxBytes: file.size });
    await unlink(path);
    if (stored.hash !== file.hash) {
      throw new Error(
        `The file's content hashes to ${stored.hash}, not to the ${file.hash} it was given with.`,
      );
    }
    return stored;
  }

  /** Moves a flushed temporary file to its hash name and makes the new name durable. */
  private async publish(temporaryPath: string, hash: string): Promise<void> {
    const shardDirectory = join(this.root, hash.slice(0, 2));
    const createdShard = !(await exists(shardDirectory));
    await mkdir(shardDirectory, { recursive: true });
    if (createdShard) await syncPath(this.root);
    await rename(temporaryPath, this.finalPathOf(hash));
    await syncPath(shardDirectory);
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

  async modifiedAt(hash: string): Promise<Date | undefined> {
    const path = this.pathOf(hash);
    if (!path) return undefined;
    try {
      return (await stat(path)).mtime;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
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

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const pending = [...this.pending];
    this.pending.clear();
    await syncFileSystem(
      this.root,
      pending.map(([, temporaryPath]) => temporaryPath),
    );
    const shards = new Set<string>();
    for (const [hash] of pending) shards.add(join(this.root, hash.slice(0, 2)));
    for (const shard of shards) await mkdir(shard, { recursive: true });
    for (const [hash, temporaryPath] of pending) await rename(temporaryPath, this.finalPathOf(hash));
    await syncFileSystem(this.root, [this.root, ...shards]);
  }

  private rootCreated = false;

  /** Creates the root once per store rather than once per file. */
  private async ensureRoot(): Promise<void> {
    if (this.rootCreated) return;
    await mkdir(this.root, { recursive: true });
    this.rootCreated = true;
  }

  private finalPathOf(hash: string): string {
    return join(this.root, hash.slice(0, 2), hash.slice(2));
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

/**
 * Flushes the given files and directories to disk. On Linux one `sync -f` flushes the whole file system in
 * a single call; elsewhere (or if that fails) each path is flushed on its own.
 */
async function syncFileSystem(root: string, paths: string[]): Promise<void> {
  if (process.platform === 'linux') {
    try {
      await execFileAsync('sync', ['-f', root]);
      return;
    } catch {
      // Fall through to flushing path by path.
    }
  }
  let next = 0;
  const worker = async () => {
    while (next < paths.length) await syncPath(paths[next++] as string);
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

/** Flushes one file, or a directory (which makes a rename or a new entry in it durable). */
async function syncPath(path: string): Promise<void> {
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
