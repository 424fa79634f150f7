export * from './file-store';
export { createFileStore, DiskFileStore, type DiskFileStoreOptions } from './disk-file-store';
export { S3FileStore, type S3FileStoreOptions } from './s3-file-store';
export { createS3Client, openFileStore, type OpenFileStoreOptions } from './open-file-store';
