import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { HeadBucketCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { ConfigError, type Config, type S3StorageConfig } from '../config';
import { createFileStore, type DiskFileStoreOptions } from './disk-file-store';
import type { FileStore } from './file-store';
import { S3FileStore, statusOf, unavailabilityOf } from './s3-file-store';

export interface OpenFileStoreOptions extends DiskFileStoreOptions {
  /** How long the start-up check of the bucket may take (default 5000 ms). */
  bucketCheckTimeoutMs?: number;
}

/** Where streamed content waits, hashed, before it goes to the bucket. */
export function s3TemporaryDirectory(dataDir: string): string {
  return join(dataDir, 's3-incoming');
}

/**
 * The file store the configuration asks for: the S3-compatible bucket when S3_BUCKET is set, else the disk
 * store in DATA_DIR/files. The bucket is checked once here, so a wrong setting stops the server at start
 * with a ConfigError of one line naming the setting to fix, rather than failing the first upload.
 * `deferDurability` applies to the disk store only (each put to S3 is durable when it resolves).
 */
export async function openFileStore(
  config: Pick<Config, 'dataDir' | 'storage'>,
  options: OpenFileStoreOptions = {},
): Promise<FileStore> {
  const s3 = config.storage.s3;
  if (!s3) {
    return createFileStore(config.dataDir, {
      ...(options.deferDurability !== undefined ? { deferDurability: options.deferDurability } : {}),
    });
  }
  await checkBucket(s3, options.bucketCheckTimeoutMs ?? 5000);
  const temporaryDirectory = s3TemporaryDirectory(config.dataDir);
  await mkdir(temporaryDirectory, { recursive: true });
  return new S3FileStore({
    client: createS3Client(s3),
    bucket: s3.bucket,
    prefix: s3.prefix,
    temporaryDirectory,
    location: locationOf(s3),
  });
}

/**
 * An S3 client for the settings. Servers other than AWS (an S3_ENDPOINT) get checksums only where S3 requires
 * them: the SDK's default trailing checksums on every upload are refused by several S3-compatible servers.
 */
export function createS3Client(s3: S3StorageConfig, overrides: Partial<S3ClientConfig> = {}): S3Client {
  // The SDK's documented switch for its warning that Node.js 20 will not be supported after January 2027;
  // an operator who set it either way keeps their choice.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  return new S3Client({
    region: s3.region,
    forcePathStyle: s3.forcePathStyle,
    ...(s3.endpoint !== undefined
      ? {
          endpoint: s3.endpoint,
          requestChecksumCalculation: 'WHEN_REQUIRED',
          responseChecksumValidation: 'WHEN_REQUIRED',
        }
      : {}),
    ...(s3.credentials ? { credentials: s3.credentials } : {}),
    // A connection that cannot be made fails in 5 s; one silent for 2 minutes (mid-answer too) is dropped.
    requestHandler: { connectionTimeout: 5_000, socketTimeout: 120_000 },
    ...overrides,
  });
}

function locationOf(s3: S3StorageConfig): string {
  return s3.endpoint ?? `AWS S3 (${s3.region})`;
}

/** One HeadBucket, one attempt, at most `timeoutMs`: throws a ConfigError saying which setting to check. */
export async function checkBucket(s3: S3StorageConfig, timeoutMs: number): Promise<void> {
  const client = createS3Client(s3, {
    maxAttempts: 1,
    requestHandler: { connectionTimeout: timeoutMs, socketTimeout: timeoutMs },
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client.send(new HeadBucketCommand({ Bucket: s3.bucket }), {
        abortSignal: AbortSignal.timeout(timeoutMs),
      }),
      // Looking for credentials (instance metadata, SSO) is not covered by the abort signal.
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () => reject(Object.assign(new Error('no answer in time'), { name: 'TimeoutError' })),
          timeoutMs + 1000,
        );
      }),
    ]);
  } catch (error) {
    throw new ConfigError(describeBucketFailure(s3, error, timeoutMs));
  } finally {
    clearTimeout(timer);
    client.destroy();
  }
}

const REFUSALS = new Set([
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'AccessDenied',
  'InvalidToken',
  'ExpiredToken',
  'Forbidden',
]);
const MISSING = new Set(['NoSuchBucket', 'NotFound']);

/** One line for the person starting the server: what failed and which setting to check. */
export function describeBucketFailure(s3: S3StorageConfig, error: unknown, timeoutMs: number): string {
  const where = locationOf(s3);
  const subject = `S3_BUCKET "${s3.bucket}" at ${where}`;
  const { name, message } = error as { name?: unknown; message?: unknown };
  const status = statusOf(error);
  const text = oneLine(typeof message === 'string' ? message : String(error));
  const checkEndpoint = s3.endpoint !== undefined ? 'check S3_ENDPOINT' : 'check S3_REGION and the network';
  if (name === 'AbortError' || name === 'TimeoutError') {
    return `${subject} cannot be reached (no answer within ${timeoutMs / 1000} s): ${checkEndpoint}.`;
  }
  const unreachable = unavailabilityOf(error);
  if (unreachable !== undefined) return `${subject} cannot be reached (${unreachable}): ${checkEndpoint}.`;
  if (name === 'CredentialsProviderError') {
    return `${subject} cannot be checked: no credentials were found (${text}): set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY.`;
  }
  const code = typeof name === 'string' && !/^(Unknown|UnknownError|Error)$/.test(name) ? name : undefined;
  if (status === 403 || (code !== undefined && REFUSALS.has(code))) {
    const reason = code ?? `${status} Forbidden`;
    return s3.credentials
      ? `${subject} was refused (${reason}): check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY.`
      : `${subject} was refused (${reason}): check the AWS credentials the server runs with, or set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY.`;
  }
  if (status === 404 || (code !== undefined && MISSING.has(code))) {
    const settings = s3.endpoint !== undefined ? 'S3_BUCKET and S3_ENDPOINT' : 'S3_BUCKET and S3_REGION';
    return `S3_BUCKET "${s3.bucket}" does not exist at ${where}: create it, or check ${settings}.`;
  }
  if (status === 301 || code === 'PermanentRedirect') {
    return `${subject} is in another region (${code ?? status}): check S3_REGION.`;
  }
  const reason = [status, code].filter((part) => part !== undefined).join(' ');
  return `${subject} could not be checked (${reason ? `${reason}: ` : ''}${text}): check the S3_* settings.`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
