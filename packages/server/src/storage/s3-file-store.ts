import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  attachmentDisposition,
  FileStoreUnavailableError,
  isFileHash,
  type DownloadUrlOptions,
  type FileStore,
  type OpenedFile,
  type OpenOptions,
  type PutOptions,
  type StoredFile,
} from './file-store';
import { hashBytes, TEMPORARY_PREFIX, writeHashedFile } from './hashed-write';

export interface S3FileStoreOptions {
  client: S3Client;
  bucket: string;
  /** Prepended to every key: empty, or ending with `/`. */
  prefix?: string;
  /** A local folder for streamed content while it is hashed (`<DATA_DIR>/s3-incoming`). */
  temporaryDirectory: string;
  /** Where the bucket is, for error messages: the endpoint, or AWS S3 and its region. */
  location?: string;
  /** Content larger than this is uploaded in parts of this size (default 8 MiB; S3 needs at least 5 MiB). */
  partSizeBytes?: number;
  /** Parts uploaded at once (default 4). */
  queueSize?: number;
  /** Keys asked for per listing request (default: the server's, 1000 on S3). */
  listPageSize?: number;
}

const OCTET_STREAM = 'application/octet-stream';
const DEFAULT_PART_SIZE = 8 * 1024 * 1024;
const FILE_KEY = /^([0-9a-f]{2})\/([0-9a-f]{64})$/;

/** Socket errors of a connection that could not be made or was lost. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * A file store in an S3-compatible bucket (AWS S3, MinIO, Ceph, Garage...): content with hash `abcdef...` is
 * the object `<prefix>files/ab/abcdef...`. Streamed content is written to a temporary file in a local folder
 * while it is hashed and measured (the key is the hash, known only at the end), then uploaded (in parts when
 * large) unless the bucket already holds it; the temporary file is removed whatever happens. An object
 * appears under its key only complete (S3 publishes a PUT or a completed multipart upload atomically), and
 * `put` resolves only once S3 has it, so `flush` has nothing to do.
 */
export class S3FileStore implements FileStore {
  readonly bucket: string;
  readonly prefix: string;
  readonly temporaryDirectory: string;
  readonly location: string;
  private readonly client: S3Client;
  private readonly partSize: number;
  private readonly queueSize: number;
  private readonly listPageSize: number | undefined;

  constructor(options: S3FileStoreOptions) {
    this.client = options.client;
    this.bucket = options.bucket;
    this.prefix = options.prefix ?? '';
    this.temporaryDirectory = options.temporaryDirectory;
    this.location = options.location ?? 'S3';
    this.partSize = options.partSizeBytes ?? DEFAULT_PART_SIZE;
    this.queueSize = options.queueSize ?? 4;
    this.listPageSize = options.listPageSize;
  }

  async put(content: Readable | Uint8Array, options: PutOptions = {}): Promise<StoredFile> {
    if (content instanceof Uint8Array) {
      // Already in memory: hashed first, so content the bucket holds is not sent again.
      const file = hashBytes(content, options.maxBytes);
      if (!(await this.has(file.hash))) {
        await this.call(() =>
          this.client.send(
            new PutObjectCommand({
              Bucket: this.bucket,
              Key: this.keyOf(file.hash),
              Body: content,
              ContentLength: file.size,
              ContentType: OCTET_STREAM,
            }),
          ),
        );
      }
      return file;
    }
    await mkdir(this.temporaryDirectory, { recursive: true });
    const temporaryPath = join(this.temporaryDirectory, `${TEMPORARY_PREFIX}${randomUUID()}`);
    try {
      const file = await writeHashedFile(content, temporaryPath, { maxBytes: options.maxBytes });
      if (!(await this.has(file.hash))) await this.uploadFile(temporaryPath, file.hash);
      return file;
    } finally {
      await unlink(temporaryPath).catch(() => undefined);
    }
  }

  /**
   * Uploads the file at `path` and removes it. The hash is checked while the file streams up: a file that
   * does not hash to `file.hash` is deleted from the bucket again and refused. When the upload fails the file
   * stays at `path`, for its owner to remove (as the disk store leaves it when a rename fails).
   */
  async adopt(path: string, file: StoredFile): Promise<StoredFile> {
    if (!isFileHash(file.hash)) throw new TypeError(`"${file.hash}" is not a sha256 hex hash.`);
    if (await this.has(file.hash)) {
      await unlink(path);
      return file;
    }
    const uploaded = await this.uploadFile(path, file.hash);
    await unlink(path);
    if (uploaded.hash !== file.hash) {
      await this.call(() =>
        this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.keyOf(file.hash) })),
      );
      throw new Error(
        `The file's content hashes to ${uploaded.hash}, not to the ${file.hash} it was given with.`,
      );
    }
    return { hash: file.hash, size: uploaded.size };
  }

  /**
   * Streams a local file to the key of `hash`: one PUT when it fits in a part, else a multipart upload (parts
   * uploaded `queueSize` at a time, aborted on failure). Answers what the bytes sent hash to.
   */
  private async uploadFile(path: string, hash: string): Promise<StoredFile> {
    const hasher = createHash('sha256');
    let size = 0;
    const source = createReadStream(path);
    const body = Readable.from(
      (async function* () {
        for await (const chunk of source as AsyncIterable<Buffer>) {
          hasher.update(chunk);
          size += chunk.length;
          yield chunk;
        }
      })(),
      { objectMode: false },
    );
    // Parts are buffered (partSize each, queueSize at once) so that a failed part can be sent again; content
    // smaller than a part goes in one PUT.
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: this.keyOf(hash), Body: body, ContentType: OCTET_STREAM },
      partSize: this.partSize,
      queueSize: this.queueSize,
      leavePartsOnError: false,
    });
    try {
      await this.call(() => upload.done());
    } finally {
      body.destroy();
      source.destroy();
    }
    return { hash: hasher.digest('hex'), size };
  }

  async open(hash: string, options: OpenOptions = {}): Promise<OpenedFile | undefined> {
    if (!isFileHash(hash)) return undefined;
    const start = options.start ?? 0;
    const ranged = start > 0 || options.end !== undefined;
    let output;
    try {
      output = await this.call(() =>
        this.client.send(
          new GetObjectCommand({
            Bucket: this.bucket,
            Key: this.keyOf(hash),
            ...(ranged ? { Range: `bytes=${start}-${options.end ?? ''}` } : {}),
          }),
        ),
      );
    } catch (error) {
      if (isNotFound(error)) return undefined;
      if (statusOf(error) === 416) {
        // A range starting past the end (any range of an empty file): no bytes, as the disk store answers.
        const size = await this.sizeOf(hash);
        return size === undefined ? undefined : { stream: Readable.from([]), size };
      }
      throw error;
    }
    const body = output.Body;
    if (!(body instanceof Readable)) {
      throw new Error(`The S3 client answered ${this.keyOf(hash)} with a body that is not a Node stream.`);
    }
    const sent = contentRangeOf(output.ContentRange);
    const size = sent?.size ?? output.ContentLength;
    if (size === undefined) {
      body.destroy();
      throw new Error(`The S3 answer for ${this.keyOf(hash)} carries no size.`);
    }
    if (!ranged) return { stream: body, size };
    // Some S3-compatible servers answer more than the range asked for (the whole file, or up to its end):
    // only the bytes asked for are passed on.
    const wanted = Math.max(0, Math.min(options.end ?? Number.POSITIVE_INFINITY, size - 1) - start + 1);
    const sentFrom = sent?.start ?? 0;
    const sentLength = sent ? sent.end - sent.start + 1 : size;
    if (sentFrom === start && sentLength === wanted) return { stream: body, size };
    if (wanted === 0 || sentFrom > start) {
      body.destroy();
      if (wanted === 0) return { stream: Readable.from([]), size };
      throw new Error(`The S3 answer for ${this.keyOf(hash)} does not hold the range asked for.`);
    }
    return { stream: slice(body, start - sentFrom, wanted), size };
  }

  async has(hash: string): Promise<boolean> {
    return (await this.head(hash)) !== undefined;
  }

  async modifiedAt(hash: string): Promise<Date | undefined> {
    const head = await this.head(hash);
    // An answer without a date counts as new, so the sweep leaves the file alone.
    return head ? (head.LastModified ?? new Date()) : undefined;
  }

  async remove(hash: string): Promise<boolean> {
    if (!(await this.has(hash))) return false;
    await this.call(() =>
      this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.keyOf(hash) })),
    );
    return true;
  }

  async *list(): AsyncIterable<string> {
    const prefix = `${this.prefix}files/`;
    let continuationToken: string | undefined;
    do {
      const page = await this.call(() =>
        this.client.send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: prefix,
            ...(this.listPageSize !== undefined ? { MaxKeys: this.listPageSize } : {}),
            ...(continuationToken ? { ContinuationToken: continuationToken } : {}),
          }),
        ),
      );
      for (const object of page.Contents ?? []) {
        const match = FILE_KEY.exec(object.Key?.slice(prefix.length) ?? '');
        if (!match) continue;
        const [, shard, hash] = match as unknown as [string, string, string];
        if (hash.startsWith(shard) && isFileHash(hash)) yield hash;
      }
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken);
  }

  async flush(): Promise<void> {
    // Every put is in the bucket when it resolves.
  }

  async downloadUrl(hash: string, options: DownloadUrlOptions): Promise<string | undefined> {
    if (!isFileHash(hash)) return undefined;
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: this.keyOf(hash),
      ResponseContentDisposition: attachmentDisposition(options.fileName),
      ResponseContentType: options.contentType ?? OCTET_STREAM,
    });
    return getSignedUrl(this.client, command, { expiresIn: options.expiresInSeconds });
  }

  /** The object's key: `<prefix>files/ab/abcdef...`, the disk store's layout with the whole hash as name. */
  keyOf(hash: string): string {
    return `${this.prefix}files/${hash.slice(0, 2)}/${hash}`;
  }

  private async head(hash: string) {
    if (!isFileHash(hash)) return undefined;
    try {
      return await this.call(() =>
        this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.keyOf(hash) })),
      );
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  private async sizeOf(hash: string): Promise<number | undefined> {
    const head = await this.head(hash);
    return head ? (head.ContentLength ?? 0) : undefined;
  }

  /** Runs an S3 call; a bucket out of reach or failing on its side becomes a FileStoreUnavailableError. */
  private async call<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      throw this.unavailable(error) ?? error;
    }
  }

  private unavailable(error: unknown): FileStoreUnavailableError | undefined {
    const reason = unavailabilityOf(error);
    if (reason === undefined) return undefined;
    return new FileStoreUnavailableError(
      `The S3 bucket "${this.bucket}" at ${this.location} cannot be reached (${reason}).`,
      { cause: error },
    );
  }
}

/**
 * Why an S3 call failed for reasons of the network or the service (so a later try may succeed), in a few
 * words, or undefined for any other failure (a refusal, a missing object).
 */
export function unavailabilityOf(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 8; depth++) {
    const { code, syscall, name } = current as { code?: unknown; syscall?: unknown; name?: unknown };
    if (typeof code === 'string' && NETWORK_CODES.has(code)) {
      return typeof syscall === 'string' ? `${syscall} ${code}` : code;
    }
    if (name === 'TimeoutError' || name === 'RequestTimeout') return 'no answer in time';
    const status = statusOf(current);
    // 501 is a feature the server lacks, not an outage.
    if (status !== undefined && status >= 500 && status !== 501)
      return `${status} ${typeof name === 'string' ? name : ''}`.trim();
    // A connection tried on several addresses fails with all their errors.
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.length > 0) {
      const inner = unavailabilityOf(errors[0]);
      if (inner !== undefined) return inner;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The HTTP status of an S3 service error. */
export function statusOf(error: unknown): number | undefined {
  const status = (error as { $metadata?: { httpStatusCode?: unknown } } | undefined)?.$metadata
    ?.httpStatusCode;
  return typeof status === 'number' ? status : undefined;
}

/** No such object (a missing bucket, where S3 says so, is an error, not an absent file). */
function isNotFound(error: unknown): boolean {
  const name = (error as { name?: unknown } | undefined)?.name;
  if (name === 'NoSuchBucket') return false;
  return name === 'NoSuchKey' || name === 'NotFound' || statusOf(error) === 404;
}

/** `Content-Range: bytes 2-5/10` read. */
function contentRangeOf(
  contentRange: string | undefined,
): { start: number; end: number; size: number } | undefined {
  const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(contentRange?.trim() ?? '');
  return match ? { start: Number(match[1]), end: Number(match[2]), size: Number(match[3]) } : undefined;
}

/** `take` bytes of `source` after the first `skip`; the source is let go once they are through. */
function slice(source: Readable, skip: number, take: number): Readable {
  let toSkip = skip;
  let toTake = take;
  return Readable.from(
    (async function* () {
      try {
        for await (const chunk of source as AsyncIterable<Buffer>) {
          const skipped = Math.min(toSkip, chunk.length);
          toSkip -= skipped;
          const piece = chunk.subarray(skipped, skipped + toTake);
          toTake -= piece.length;
          if (piece.length > 0) yield piece;
          if (toTake === 0) return;
        }
      } finally {
        source.destroy();
      }
    })(),
    { objectMode: false },
  );
}
