import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { UploadResult } from '@marketplace/core';
import { formatBytes } from './limits';

export interface ReceivedUpload {
  /** The temporary file holding the upload; the caller stores or removes it. */
  path: string;
  /** Hex SHA-256 of the bytes, for the content-addressed store. */
  sha256: string;
  size: number;
}

export interface ReceiveOptions {
  /** Uploads larger than this are cut off at this many bytes and refused. */
  maxBytes: number;
  /** Folder for the temporary file, ideally on the same file system as the store so it can be renamed in. */
  tempDir: string;
}

/** The upload went past `maxBytes`; nothing of it is left on disk. */
export class UploadTooLargeError extends Error {
  override readonly name = 'UploadTooLargeError';

  constructor(readonly maxBytes: number) {
    super(`The upload is larger than ${formatBytes(maxBytes)}, the largest plugin archive accepted.`);
  }

  /** The body of the HTTP 400 the upload routes answer with. */
  toUploadResult(): UploadResult {
    return { errors: [this.message], warnings: [], isErrorUnknown: false };
  }
}

/**
 * Writes an incoming file stream (a multipart part) to a new temporary file, hashing it on the way and
 * stopping the moment it passes `maxBytes`, so an upload never sits whole in memory and an endless one
 * cannot fill the disk. On any failure (too large, client gone, disk full) the partial file is removed
 * and the error is passed on.
 */
export async function receiveUpload(stream: Readable, options: ReceiveOptions): Promise<ReceivedUpload> {
  if (!Number.isSafeInteger(options.maxBytes) || options.maxBytes <= 0) {
    throw new RangeError(`maxBytes must be a positive integer, got ${String(options.maxBytes)}`);
  }
  const path = join(options.tempDir, `upload-${randomBytes(12).toString('hex')}.part`);
  const hash = createHash('sha256');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > options.maxBytes) {
        callback(new UploadTooLargeError(options.maxBytes));
        return;
      }
      hash.update(chunk);
      callback(null, chunk);
    },
  });
  try {
    await pipeline(stream, meter, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
  return { path, sha256: hash.digest('hex'), size };
}
