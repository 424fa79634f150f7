import type { Readable } from 'node:stream';

/** A file kept by its content: the same bytes always have the same hash and are stored once. */
export interface StoredFile {
  /** Lower-case hex sha256 of the content. */
  hash: string;
  /** Size in bytes. */
  size: number;
}

export interface OpenedFile {
  stream: Readable;
  /** Size of the whole file in bytes (not of the range). */
  size: number;
}

export interface PutOptions {
  /** Refuse content longer than this many bytes (nothing is stored). */
  maxBytes?: number;
}

export interface OpenOptions {
  /** Inclusive byte range, as HTTP range requests give it. */
  start?: number;
  end?: number;
}

/**
 * Content-addressed file storage. The disk store is the default; an S3-compatible store can implement the
 * same interface. Content is streamed through, never held whole in memory.
 */
export interface FileStore {
  /** Stores the content and returns its hash and size; storing content that is already there is a no-op. */
  put(content: Readable | Uint8Array, options?: PutOptions): Promise<StoredFile>;
  /**
   * Takes a complete file the caller wrote and hashed itself into the store, leaving nothing at `path`: a
   * store on the same disk moves it in without copying it, another store copies it and removes it. Only
   * code that computed `file.hash` from the bytes it wrote may call this: the store takes the hash on trust.
   */
  adopt(path: string, file: StoredFile): Promise<StoredFile>;
  /** Opens a stored file for reading, or answers undefined when there is none with that hash. */
  open(hash: string, options?: OpenOptions): Promise<OpenedFile | undefined>;
  has(hash: string): Promise<boolean>;
  /** Removes a stored file; answers whether there was one. */
  remove(hash: string): Promise<boolean>;
  /** Every stored hash, in no particular order (for sweeping files no row refers to). */
  list(): AsyncIterable<string>;
  /**
   * Makes every file put so far durable and visible. Stores that are durable at each put do nothing; a
   * store that defers durability for bulk loads publishes its pending files here.
   */
  flush(): Promise<void>;
}

export class FileTooLargeError extends Error {
  override name = 'FileTooLargeError';
  constructor(readonly maxBytes: number) {
    super(`The file is larger than the ${maxBytes} bytes allowed.`);
  }
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

export function isFileHash(value: unknown): value is string {
  return typeof value === 'string' && SHA256_HEX.test(value);
}
