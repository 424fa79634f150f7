import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, type S3StorageConfig } from '../../src/config';
import { FILE_STORE_UNAVAILABLE_MESSAGE, outageOf } from '../../src/outage';
import {
  createS3Client,
  DiskFileStore,
  FileStoreUnavailableError,
  openFileStore,
  S3FileStore,
} from '../../src/storage';
import { describeBucketFailure } from '../../src/storage/open-file-store';
import { unavailabilityOf } from '../../src/storage/s3-file-store';
import { collect, describeFileStoreContract, generatedContent, sha256 } from './file-store-contract';
import { closedPort, silentServer, startTestS3, type TestS3 } from './s3-test-server';

const BUCKET = 'mp-files';

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
  await s3.createBucket(BUCKET);
}, 60_000);
afterAll(async () => {
  await s3?.close();
});

let stores = 0;

/** A store of its own: a fresh key prefix in the shared bucket, a fresh local folder. */
async function freshStore(options: { partSizeBytes?: number } = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'mp-s3-store-'));
  const prefix = `store-${++stores}/`;
  const temporaryDirectory = join(dataDir, 's3-incoming');
  const client = createS3Client(s3.settings(BUCKET));
  const commands: string[] = [];
  client.middlewareStack.add(
    (next, context) => (args) => {
      commands.push(context.commandName ?? '?');
      return next(args);
    },
    { step: 'initialize' },
  );
  const store = new S3FileStore({ client, bucket: BUCKET, prefix, temporaryDirectory, ...options });
  return {
    store,
    dataDir,
    prefix,
    temporaryDirectory,
    commands,
    async close() {
      client.destroy();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function keysUnder(prefix: string): Promise<string[]> {
  const page = await s3.client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
  return (page.Contents ?? []).map((object) => object.Key ?? '');
}

describeFileStoreContract('the S3 file store', async () => {
  const opened = await freshStore();
  return {
    store: opened.store,
    scratchDirectory: opened.dataDir,
    leftovers: () => readdir(opened.temporaryDirectory).catch(() => []),
    close: opened.close,
  };
});

describe('the S3 file store', () => {
  let opened: Awaited<ReturnType<typeof freshStore>>;
  beforeEach(async () => {
    opened = await freshStore();
  });
  afterEach(async () => {
    await opened.close();
  });

  it('keeps a file at <prefix>files/<first two hex digits>/<hash>', async () => {
    const stored = await opened.store.put(Buffer.from('<idea-plugin/>'));
    expect(await keysUnder(opened.prefix)).toEqual([
      `${opened.prefix}files/${stored.hash.slice(0, 2)}/${stored.hash}`,
    ]);
  });

  it('uploads a large file in parts, never sending content the bucket already has', async () => {
    const content = generatedContent(20);
    await opened.store.put(content.stream());
    expect(opened.commands.filter((name) => name === 'CreateMultipartUploadCommand')).toHaveLength(1);
    expect(opened.commands.filter((name) => name === 'UploadPartCommand')).toHaveLength(3);
    expect(opened.commands).toContain('CompleteMultipartUploadCommand');

    opened.commands.length = 0;
    expect(await opened.store.put(content.stream())).toEqual({ hash: content.hash, size: content.size });
    expect(opened.commands).toEqual(['HeadObjectCommand']);
    expect(await readdir(opened.temporaryDirectory)).toEqual([]);
  }, 60_000);

  it('sends small streamed content in one request', async () => {
    await opened.store.put(Readable.from([Buffer.from('small')]));
    expect(opened.commands).toEqual(['HeadObjectCommand', 'PutObjectCommand']);
  });

  it('lists only hashes under its prefix', async () => {
    const hashes = [];
    for (const content of ['a', 'b', 'c']) hashes.push((await opened.store.put(Buffer.from(content))).hash);
    const stranger = sha256('not in its shard');
    for (const key of [
      `${opened.prefix}files/zz/${'z'.repeat(64)}`,
      `${opened.prefix}files/${stranger.slice(2, 4)}/${stranger}`,
      `${opened.prefix}files/${stranger.slice(0, 2)}/${stranger.slice(2)}`,
      `${opened.prefix}files/readme.txt`,
      `${opened.prefix}other/${sha256('elsewhere')}`,
      `files/${sha256('outside the prefix').slice(0, 2)}/${sha256('outside the prefix')}`,
    ]) {
      await s3.client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: 'junk' }));
    }
    expect((await collect(opened.store.list())).sort()).toEqual(hashes.sort());
  });

  it('lists across pages', async () => {
    // s3rver cannot continue a listing on Node.js 20 (its continuation tokens use DES, which OpenSSL 3
    // dropped), so the pages come from a stand-in client.
    const hashes = ['a', 'b', 'c', 'd', 'e'].map((content) => sha256(content));
    const key = (hash: string) => `p/files/${hash.slice(0, 2)}/${hash}`;
    const requests: Array<Record<string, unknown>> = [];
    const pages: Record<string, { keys: string[]; next?: string }> = {
      first: { keys: [key(hashes[0]!), key(hashes[1]!)], next: 'second' },
      second: { keys: [key(hashes[2]!), 'p/files/readme.txt'], next: 'third' },
      third: { keys: [key(hashes[3]!), key(hashes[4]!)] },
    };
    const client = {
      async send(command: ListObjectsV2Command) {
        requests.push({ ...command.input });
        const page = pages[command.input.ContinuationToken ?? 'first']!;
        return {
          Contents: page.keys.map((Key) => ({ Key })),
          IsTruncated: page.next !== undefined,
          NextContinuationToken: page.next,
        };
      },
    } as unknown as S3Client;
    const paged = new S3FileStore({
      client,
      bucket: BUCKET,
      prefix: 'p/',
      temporaryDirectory: opened.temporaryDirectory,
      listPageSize: 2,
    });
    expect(await collect(paged.list())).toEqual(hashes);
    expect(requests).toEqual([
      { Bucket: BUCKET, Prefix: 'p/files/', MaxKeys: 2 },
      { Bucket: BUCKET, Prefix: 'p/files/', MaxKeys: 2, ContinuationToken: 'second' },
      { Bucket: BUCKET, Prefix: 'p/files/', MaxKeys: 2, ContinuationToken: 'third' },
    ]);
  });

  it('downloads through a presigned address with the attachment header', async () => {
    const content = Buffer.from('PK\u0003\u0004 the archive');
    const stored = await opened.store.put(content);
    const url = await opened.store.downloadUrl(stored.hash, {
      fileName: 'com.example.tool-1.0 "beta";ü.zip',
      contentType: 'application/zip',
      expiresInSeconds: 60,
    });
    expect(url).toMatch(/X-Amz-Signature=/);
    expect(url).toMatch(/X-Amz-Expires=60/);
    const response = await fetch(url!);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(content);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="com.example.tool-1.0__beta___.zip"; filename*=UTF-8''com.example.tool-1.0%20_beta__%C3%BC.zip`,
    );
    expect(
      await opened.store.downloadUrl('../secret', { fileName: 'x', expiresInSeconds: 60 }),
    ).toBeUndefined();
  });

  it('checks the hash of an adopted file and refuses one that lies', async () => {
    const path = join(opened.dataDir, 'upload-lying.part');
    await writeFile(path, 'other bytes');
    await expect(opened.store.adopt(path, { hash: sha256('not these'), size: 11 })).rejects.toThrow(
      `The file's content hashes to ${sha256('other bytes')}, not to the ${sha256('not these')} it was given with.`,
    );
    expect(await opened.store.has(sha256('not these'))).toBe(false);
    expect(await keysUnder(opened.prefix)).toEqual([]);
  });

  it('adopts a large file in parts', async () => {
    const content = generatedContent(12);
    const path = join(opened.dataDir, 'upload-large.part');
    await writeFile(path, content.stream());
    expect(await opened.store.adopt(path, { hash: content.hash, size: content.size })).toEqual({
      hash: content.hash,
      size: content.size,
    });
    expect(opened.commands).toContain('CompleteMultipartUploadCommand');
    expect((await opened.store.open(content.hash))?.size).toBe(content.size);
  }, 60_000);
});

describe('the S3 file store when the bucket cannot be reached', () => {
  it('fails with an error the outage handling answers 503', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'mp-s3-down-'));
    const endpoint = `http://127.0.0.1:${await closedPort()}`;
    const client = createS3Client({ ...s3.settings(BUCKET), endpoint }, { maxAttempts: 1 });
    const store = new S3FileStore({
      client,
      bucket: BUCKET,
      temporaryDirectory: join(dataDir, 's3-incoming'),
      location: endpoint,
    });
    try {
      for (const attempt of [
        () => store.has(sha256('x')),
        () => store.open(sha256('x')),
        () => store.put(Buffer.from('x')),
        () => store.put(Readable.from([Buffer.from('streamed')])),
        () => collect(store.list()),
      ]) {
        const error = await attempt().then(
          () => undefined,
          (failure: unknown) => failure,
        );
        expect(error).toBeInstanceOf(FileStoreUnavailableError);
        expect((error as Error).message).toBe(
          `The S3 bucket "${BUCKET}" at ${endpoint} cannot be reached (connect ECONNREFUSED).`,
        );
        expect(outageOf(error)).toEqual({
          status: 503,
          message: FILE_STORE_UNAVAILABLE_MESSAGE,
          retryAfterSeconds: 5,
        });
      }
      expect(await readdir(join(dataDir, 's3-incoming'))).toEqual([]);
    } finally {
      client.destroy();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('openFileStore', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'mp-open-store-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  async function startupError(settings: ReturnType<TestS3['settings']>, timeoutMs = 5000) {
    const failure = await openFileStore(
      { dataDir, storage: { s3: settings } },
      { bucketCheckTimeoutMs: timeoutMs },
    ).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ConfigError);
    const message = (failure as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }

  it('opens the disk store when no bucket is set', async () => {
    const store = await openFileStore({ dataDir, storage: { s3: undefined } });
    expect(store).toBeInstanceOf(DiskFileStore);
    expect((store as DiskFileStore).root).toBe(join(dataDir, 'files'));
  });

  it('opens the S3 store on a bucket that answers, with its temporary folder in DATA_DIR', async () => {
    const store = await openFileStore({ dataDir, storage: { s3: s3.settings(BUCKET, { prefix: 'open/' }) } });
    expect(store).toBeInstanceOf(S3FileStore);
    expect((store as S3FileStore).temporaryDirectory).toBe(join(dataDir, 's3-incoming'));
    const stored = await store.put(Readable.from([Buffer.from('through the factory')]));
    expect(await text((await store.open(stored.hash))!.stream)).toBe('through the factory');
    expect(await keysUnder('open/')).toEqual([`open/files/${stored.hash.slice(0, 2)}/${stored.hash}`]);
  });

  it('stops the start when the endpoint cannot be reached', async () => {
    const endpoint = `http://127.0.0.1:${await closedPort()}`;
    const started = Date.now();
    expect(await startupError({ ...s3.settings(BUCKET), endpoint })).toBe(
      `S3_BUCKET "${BUCKET}" at ${endpoint} cannot be reached (connect ECONNREFUSED): check S3_ENDPOINT.`,
    );
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('stops the start when the endpoint does not answer in time', async () => {
    const silent = await silentServer();
    try {
      expect(await startupError({ ...s3.settings(BUCKET), endpoint: silent.endpoint }, 500)).toBe(
        `S3_BUCKET "${BUCKET}" at ${silent.endpoint} cannot be reached (no answer within 0.5 s): check S3_ENDPOINT.`,
      );
    } finally {
      await silent.close();
    }
  });

  it('stops the start when the credentials are refused', async () => {
    // s3rver checks the access key id only (it accepts any secret), so a wrong key id is what can be tested.
    const settings = s3.settings(BUCKET, {
      credentials: { accessKeyId: 'WRONG', secretAccessKey: 'S3RVER' },
    });
    expect(await startupError(settings)).toBe(
      `S3_BUCKET "${BUCKET}" at ${s3.endpoint} was refused (403 Forbidden): check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY.`,
    );
  });

  it('stops the start when the bucket does not exist', async () => {
    expect(await startupError(s3.settings('mp-no-such-bucket'))).toBe(
      `S3_BUCKET "mp-no-such-bucket" does not exist at ${s3.endpoint}: create it, or check S3_BUCKET and S3_ENDPOINT.`,
    );
  });
});

describe('what an S3 failure means', () => {
  const settings = (overrides: Partial<S3StorageConfig> = {}): S3StorageConfig => ({
    bucket: 'mp-files',
    endpoint: undefined,
    region: 'eu-west-1',
    credentials: undefined,
    forcePathStyle: false,
    prefix: '',
    presignedDownloads: false,
    presignedUrlSeconds: 300,
    ...overrides,
  });
  const serviceError = (name: string, status: number) =>
    Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status } });

  it('counts network failures, time-outs and 5xx answers as the bucket being unavailable', () => {
    expect(unavailabilityOf(serviceError('SlowDown', 503))).toBe('503 SlowDown');
    expect(unavailabilityOf(serviceError('InternalError', 500))).toBe('500 InternalError');
    expect(unavailabilityOf(Object.assign(new Error('reset'), { code: 'ECONNRESET' }))).toBe('ECONNRESET');
    expect(unavailabilityOf(Object.assign(new Error('slow'), { name: 'TimeoutError' }))).toBe(
      'no answer in time',
    );
    const lookup = Object.assign(new Error('getaddrinfo'), { code: 'ENOTFOUND', syscall: 'getaddrinfo' });
    expect(unavailabilityOf(new AggregateError([lookup]))).toBe('getaddrinfo ENOTFOUND');
    for (const refusal of [
      serviceError('AccessDenied', 403),
      serviceError('NoSuchKey', 404),
      serviceError('NotImplemented', 501),
      new Error('anything else'),
    ]) {
      expect(unavailabilityOf(refusal)).toBeUndefined();
      expect(outageOf(refusal)).toBeUndefined();
    }
  });

  it('says which setting to check when the start-up check fails on AWS S3', () => {
    expect(describeBucketFailure(settings(), serviceError('Unknown', 403), 5000)).toBe(
      'S3_BUCKET "mp-files" at AWS S3 (eu-west-1) was refused (403 Forbidden): check the AWS credentials the server runs with, or set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY.',
    );
    expect(describeBucketFailure(settings(), serviceError('NotFound', 404), 5000)).toBe(
      'S3_BUCKET "mp-files" does not exist at AWS S3 (eu-west-1): create it, or check S3_BUCKET and S3_REGION.',
    );
    expect(describeBucketFailure(settings(), serviceError('Unknown', 301), 5000)).toBe(
      'S3_BUCKET "mp-files" at AWS S3 (eu-west-1) is in another region (301): check S3_REGION.',
    );
    const noCredentials = Object.assign(new Error('Could not load credentials\nfrom any providers'), {
      name: 'CredentialsProviderError',
    });
    expect(describeBucketFailure(settings(), noCredentials, 5000)).toBe(
      'S3_BUCKET "mp-files" at AWS S3 (eu-west-1) cannot be checked: no credentials were found (Could not load credentials from any providers): set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY.',
    );
    expect(describeBucketFailure(settings(), serviceError('SlowDown', 503), 5000)).toBe(
      'S3_BUCKET "mp-files" at AWS S3 (eu-west-1) cannot be reached (503 SlowDown): check S3_REGION and the network.',
    );
  });
});
