import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileTooLargeError, type StoredFile } from './file-store';

/** Names of temporary files start with this; stores never list them or read them by hash. */
export const TEMPORARY_PREFIX = '.incoming-';

export interface HashedWriteOptions {
  /** Refuse content longer than this many bytes: the write fails with FileTooLargeError. */
  maxBytes?: number;
  /** Flush the file to disk before the write resolves. */
  flush?: boolean;
}

/**
 * Streams content into a new file at `path` (which must not exist), hashing and measuring it on the way and
 * stopping as soon as it passes `maxBytes`. On any failure the partial file is removed and the error thrown.
 */
export async function writeHashedFile(
  content: Readable,
  path: string,
  options: HashedWriteOptions = {},
): Promise<StoredFile> {
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
    // `flush` fsyncs the file before the stream closes.
    await pipeline(
      content,
      measure,
      createWriteStream(path, { flags: 'wx', mode: 0o644, flush: options.flush === true }),
    );
  } catch (error) {
    await unlink(path).catch(() => undefined);
    throw error;
  }
  return { hash: hasher.digest('hex'), size };
}

/** Hash and size of bytes already in memory, refusing more than `maxBytes`. */
export function hashBytes(content: Uint8Array, maxBytes?: number): StoredFile {
  const size = content.byteLength;
  if (maxBytes !== undefined && size > maxBytes) throw new FileTooLargeError(maxBytes);
  return { hash: createHash('sha256').update(content).digest('hex'), size };
}
