import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, storageConfigFromEnv } from '../../src/config';

describe('the storage settings (S3_*)', () => {
  it('keeps files on the disk when S3_BUCKET is not set', () => {
    expect(loadConfig({}, [], '/srv').storage).toEqual({ s3: undefined });
    expect(storageConfigFromEnv({ S3_BUCKET: '  ' })).toEqual({ s3: undefined });
  });

  it('uses AWS S3 with the default credentials when only S3_BUCKET is set', () => {
    expect(loadConfig({ S3_BUCKET: 'mp-files' }, [], '/srv').storage.s3).toEqual({
      bucket: 'mp-files',
      endpoint: undefined,
      region: 'us-east-1',
      credentials: undefined,
      forcePathStyle: false,
      prefix: '',
      presignedDownloads: false,
      presignedUrlSeconds: 300,
    });
  });

  it('reads every setting', () => {
    const { s3 } = storageConfigFromEnv({
      S3_BUCKET: 'mp-files',
      S3_ENDPOINT: 'http://minio:9000',
      S3_REGION: 'eu-central-1',
      S3_ACCESS_KEY_ID: 'AKIA123',
      S3_SECRET_ACCESS_KEY: 'secret/with+chars',
      S3_PREFIX: 'marketplace',
      S3_PRESIGNED_DOWNLOADS: 'true',
      S3_PRESIGNED_URL_SECONDS: '604800',
    });
    expect(s3).toEqual({
      bucket: 'mp-files',
      endpoint: 'http://minio:9000',
      region: 'eu-central-1',
      credentials: { accessKeyId: 'AKIA123', secretAccessKey: 'secret/with+chars' },
      forcePathStyle: true,
      prefix: 'marketplace/',
      presignedDownloads: true,
      presignedUrlSeconds: 604800,
    });
  });

  it('addresses buckets by path on an S3_ENDPOINT unless told otherwise', () => {
    const withEndpoint = { S3_BUCKET: 'b-1', S3_ENDPOINT: 'https://s3.example.com' };
    expect(storageConfigFromEnv(withEndpoint).s3?.forcePathStyle).toBe(true);
    expect(storageConfigFromEnv({ ...withEndpoint, S3_FORCE_PATH_STYLE: 'false' }).s3?.forcePathStyle).toBe(
      false,
    );
    expect(storageConfigFromEnv({ S3_BUCKET: 'b-1', S3_FORCE_PATH_STYLE: 'true' }).s3?.forcePathStyle).toBe(
      true,
    );
  });

  it('keeps a prefix that already ends with a slash', () => {
    expect(storageConfigFromEnv({ S3_BUCKET: 'b-1', S3_PREFIX: 'a/b/' }).s3?.prefix).toBe('a/b/');
  });

  it.each<[string, Record<string, string>, string]>([
    [
      'an S3 setting without a bucket',
      { S3_ENDPOINT: 'http://minio:9000' },
      'S3_ENDPOINT is set but S3_BUCKET is not: set S3_BUCKET to keep files in S3, or unset S3_ENDPOINT.',
    ],
    [
      'presigned downloads without a bucket',
      { S3_PRESIGNED_DOWNLOADS: 'true' },
      'S3_PRESIGNED_DOWNLOADS is set but S3_BUCKET is not: set S3_BUCKET to keep files in S3, or unset S3_PRESIGNED_DOWNLOADS.',
    ],
    [
      'a bucket name with a slash',
      { S3_BUCKET: 'mp/files' },
      'S3_BUCKET must be a bucket name (3 to 255 letters, digits, ".", "_" or "-"), got "mp/files".',
    ],
    [
      'a bucket name too short',
      { S3_BUCKET: 'mp' },
      'S3_BUCKET must be a bucket name (3 to 255 letters, digits, ".", "_" or "-"), got "mp".',
    ],
    [
      'an endpoint that is not an address',
      { S3_BUCKET: 'mp-files', S3_ENDPOINT: 'minio:9000' },
      'S3_ENDPOINT must be an http:// or https:// address (e.g. http://127.0.0.1:9000), got "minio:9000".',
    ],
    [
      'an endpoint that is not http',
      { S3_BUCKET: 'mp-files', S3_ENDPOINT: 'ftp://files.example.com' },
      'S3_ENDPOINT must be an http:// or https:// address (e.g. http://127.0.0.1:9000), got "ftp://files.example.com".',
    ],
    [
      'a region with spaces',
      { S3_BUCKET: 'mp-files', S3_REGION: 'eu central' },
      'S3_REGION must be a region name such as us-east-1, got "eu central".',
    ],
    [
      'an access key without its secret',
      { S3_BUCKET: 'mp-files', S3_ACCESS_KEY_ID: 'AKIA123' },
      "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together, but S3_SECRET_ACCESS_KEY is not set: set both, or neither to use the AWS SDK's default credentials.",
    ],
    [
      'a secret without its access key',
      { S3_BUCKET: 'mp-files', S3_SECRET_ACCESS_KEY: 'secret' },
      "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together, but S3_ACCESS_KEY_ID is not set: set both, or neither to use the AWS SDK's default credentials.",
    ],
    [
      'a prefix starting with a slash',
      { S3_BUCKET: 'mp-files', S3_PREFIX: '/marketplace/' },
      'S3_PREFIX must be a key prefix such as "marketplace/" (no leading "/", no "//", no control characters or "\\"), got "/marketplace/".',
    ],
    [
      'a prefix with an empty segment',
      { S3_BUCKET: 'mp-files', S3_PREFIX: 'a//b' },
      'S3_PREFIX must be a key prefix such as "marketplace/" (no leading "/", no "//", no control characters or "\\"), got "a//b".',
    ],
    [
      'presigned downloads that are not a boolean',
      { S3_BUCKET: 'mp-files', S3_PRESIGNED_DOWNLOADS: 'sometimes' },
      'S3_PRESIGNED_DOWNLOADS must be true or false, got "sometimes".',
    ],
    [
      'path style that is not a boolean',
      { S3_BUCKET: 'mp-files', S3_FORCE_PATH_STYLE: 'path' },
      'S3_FORCE_PATH_STYLE must be true or false, got "path".',
    ],
    [
      'a presigned address lifetime of zero',
      { S3_BUCKET: 'mp-files', S3_PRESIGNED_URL_SECONDS: '0' },
      'S3_PRESIGNED_URL_SECONDS must be a whole number from 1 to 604800, got "0".',
    ],
    [
      'a presigned address lifetime past 7 days',
      { S3_BUCKET: 'mp-files', S3_PRESIGNED_URL_SECONDS: '604801' },
      'S3_PRESIGNED_URL_SECONDS must be a whole number from 1 to 604800, got "604801".',
    ],
  ])('refuses %s', (_what, env, message) => {
    expect(() => loadConfig(env, [], '/srv')).toThrow(new ConfigError(message));
  });
});
