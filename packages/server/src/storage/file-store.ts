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

export interface DownloadUrlOptions {
  /** The name the browser or IDE saves the file as (sent as `Content-Disposition: attachment`). */
  fileName: string;
  /** The Content-Type the download is answered with (default application/octet-stream). */
  contentType?: string;
  /** How long the address works. */
  expiresInSeconds: number;
}

/**
 * Content-addressed file storage: the disk store (the default) and the S3-compatible store implement it.
 * Content is streamed through, never held whole in memory.
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
  /** When the stored file was written, or undefined when there is none (the orphan sweep's grace period). */
  modifiedAt?(hash: string): Promise<Date | undefined>;
  /**
   * Stores that can serve files themselves (S3): a time-limited address that downloads the file directly,
   * or undefined for something that is not a hash. It does not check that the file exists.
   */
  downloadUrl?(hash: string, options: DownloadUrlOptions): Promise<string | undefined>;
}

export class FileTooLargeError extends Error {
  override name = 'FileTooLargeError';
  constructor(readonly maxBytes: number) {
    super(`The file is larger than the ${maxBytes} bytes allowed.`);
  }
}

/**
 * The file store (an S3 bucket) cannot be reached or failed on its side (a network error, a time-out, a 5xx):
 * nobody's request's fault, answered 503 like a database outage (src/outage.ts).
 */
export class FileStoreUnavailableError extends Error {
  override name = 'FileStoreUnavailableError';
}

/**
 * `attachment; filename="<ascii>"; filename*=UTF-8''<exact>`: `filename` keeps only letters, digits, `.`,
 * `_`, `-` and `+` (IDEs refuse names with `<>:"|?*;`, slashes or control characters, and read the value up
 * to the next `;`), `filename*` carries the exact name (RFC 8187) for clients that read it; characters no
 * file system takes become `_` in both.
 */
export function attachmentDisposition(fileName: string): string {
  const exact = [...fileName]
    .map((character) => (character < ' ' || '\u007f/\\<>:"|?*;'.includes(character) ? '_' : character))
    .join('');
  const ascii = exact.replace(/[^A-Za-z0-9._+-]/g, '_');
  const encoded = encodeURIComponent(exact).replace(
    /['()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

export function isFileHash(value: unknown): value is string {
  return typeof value === 'string' && SHA256_HEX.test(value);
}
