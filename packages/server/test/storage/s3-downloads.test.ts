import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config';
import { FILE_STORE_UNAVAILABLE_MESSAGE } from '../../src/outage';
import { createS3Client, openFileStore, S3FileStore, type FileStore } from '../../src/storage';
import { archiveBytes, createApiTestContext, VERSIONS, type ApiTestContext } from '../api/catalogue-fixture';
import { sha256 } from './file-store-contract';
import { closedPort, S3RVER_CREDENTIALS, startTestS3, type TestS3 } from './s3-test-server';

/** Plugin downloads with the S3 store: redirected to the bucket when S3_PRESIGNED_DOWNLOADS is on. */

const BUCKET = 'mp-downloads';
const GIT = 'com.example.gittoolbox';

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
  await s3.createBucket(BUCKET);
}, 60_000);
afterAll(async () => {
  await s3?.close();
});

function s3Env(prefix: string, presigned: boolean): Record<string, string> {
  return {
    S3_BUCKET: BUCKET,
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
    S3_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    S3_PREFIX: prefix,
    S3_PRESIGNED_DOWNLOADS: String(presigned),
    S3_PRESIGNED_URL_SECONDS: '120',
  };
}

async function downloadsOf(context: ApiTestContext, updateId: number): Promise<number> {
  return (await context.app.inject(`/api/updates/${updateId}`)).json().downloads;
}

describe('plugin downloads from the S3 store with presigned downloads on', () => {
  let context: ApiTestContext;
  beforeAll(async () => {
    context = await createApiTestContext({
      env: s3Env('redirecting/', true),
      fileStore: (config) => openFileStore(config),
    });
  }, 120_000);
  afterAll(async () => context?.close());

  it('counts the download and redirects to a bucket address that serves the archive', async () => {
    const updateId = VERSIONS.gitToolbox242Open;
    const before = await downloadsOf(context, updateId);
    const response = await context.app.inject(`/plugin/download?updateId=${updateId}`);
    expect(response.statusCode).toBe(302);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toBe('');
    const location = String(response.headers.location);
    expect(location.startsWith(`${s3.endpoint}/${BUCKET}/redirecting/files/`)).toBe(true);
    expect(location).toMatch(/X-Amz-Expires=120/);
    expect(await downloadsOf(context, updateId)).toBe(before + 1);

    const fetched = await fetch(location);
    expect(fetched.status).toBe(200);
    expect(Buffer.from(await fetched.arrayBuffer())).toEqual(archiveBytes(updateId));
    expect(fetched.headers.get('content-type')).toBe('application/java-archive');
    expect(fetched.headers.get('content-disposition')).toBe(
      `attachment; filename="${GIT}-3.0.jar"; filename*=UTF-8''${GIT}-3.0.jar`,
    );
  });

  it('redirects the IDE download by plugin id and build too', async () => {
    const response = await context.app.inject(`/pluginManager?action=download&id=${GIT}&build=IU-241.1`);
    expect(response.statusCode).toBe(302);
    const fetched = await fetch(String(response.headers.location));
    expect(Buffer.from(await fetched.arrayBuffer())).toEqual(archiveBytes(VERSIONS.gitToolbox241));
    expect(fetched.headers.get('content-disposition')).toBe(
      `attachment; filename="${GIT}-2.0.zip"; filename*=UTF-8''${GIT}-2.0.zip`,
    );
  });

  it('answers a HEAD request itself, without counting it', async () => {
    const updateId = VERSIONS.gitToolbox241;
    const before = await downloadsOf(context, updateId);
    const response = await context.app.inject({
      method: 'HEAD',
      url: `/plugin/download?updateId=${updateId}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-length']).toBe(String(archiveBytes(updateId).length));
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="${GIT}-2.0.zip"; filename*=UTF-8''${GIT}-2.0.zip`,
    );
    expect(await downloadsOf(context, updateId)).toBe(before);
  });

  it('neither counts nor redirects when the archive is missing from the bucket', async () => {
    const updateId = VERSIONS.darculaLargeUntil;
    const before = await downloadsOf(context, updateId);
    const stored = archiveBytes(updateId);
    expect(await context.fileStore.remove(sha256(stored))).toBe(true);
    try {
      const response = await context.app.inject(`/plugin/download?updateId=${updateId}`);
      expect(response.statusCode).toBe(503);
      expect(response.headers.location).toBeUndefined();
      expect(await downloadsOf(context, updateId)).toBe(before);
    } finally {
      await context.fileStore.put(stored);
    }
  });
});

/** Passes every call to `target`, which a test may swap for a store whose bucket cannot be reached. */
class SwitchableStore implements FileStore {
  constructor(public target: FileStore) {}
  put: FileStore['put'] = (...args) => this.target.put(...args);
  adopt: FileStore['adopt'] = (...args) => this.target.adopt(...args);
  open: FileStore['open'] = (...args) => this.target.open(...args);
  has: FileStore['has'] = (...args) => this.target.has(...args);
  remove: FileStore['remove'] = (...args) => this.target.remove(...args);
  list: FileStore['list'] = () => this.target.list();
  flush: FileStore['flush'] = () => this.target.flush();
}

describe('plugin downloads from the S3 store with presigned downloads off', () => {
  let context: ApiTestContext;
  let store: SwitchableStore;
  let config: Config;
  beforeAll(async () => {
    context = await createApiTestContext({
      env: s3Env('streaming/', false),
      fileStore: async (loaded) => {
        config = loaded;
        store = new SwitchableStore(await openFileStore(loaded));
        return store;
      },
    });
  }, 120_000);
  afterAll(async () => context?.close());

  it('streams the archive with the headers the disk store gets', async () => {
    const updateId = VERSIONS.gitToolbox242Open;
    const before = await downloadsOf(context, updateId);
    const response = await context.app.inject(`/plugin/download?updateId=${updateId}`);
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload).toEqual(archiveBytes(updateId));
    expect(response.headers['content-length']).toBe(String(archiveBytes(updateId).length));
    expect(response.headers['content-type']).toBe('application/java-archive');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="${GIT}-3.0.jar"; filename*=UTF-8''${GIT}-3.0.jar`,
    );
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(await downloadsOf(context, updateId)).toBe(before + 1);
  });

  it('answers 503 saying the file storage cannot be reached when the bucket is down', async () => {
    const working = store.target;
    const endpoint = `http://127.0.0.1:${await closedPort()}`;
    const s3Settings = { ...config.storage.s3!, endpoint };
    store.target = new S3FileStore({
      client: createS3Client(s3Settings, { maxAttempts: 1 }),
      bucket: BUCKET,
      prefix: 'streaming/',
      temporaryDirectory: (working as S3FileStore).temporaryDirectory,
      location: endpoint,
    });
    try {
      const updateId = VERSIONS.gitToolbox241;
      const before = await downloadsOf(context, updateId);
      const response = await context.app.inject(`/plugin/download?updateId=${updateId}`);
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      expect(response.json()).toEqual({ type: 'error', message: FILE_STORE_UNAVAILABLE_MESSAGE });
      expect(await downloadsOf(context, updateId)).toBe(before);
    } finally {
      store.target = working;
    }
  });
});
