export * from './file-store';
export { createFileStore, DiskFileStore } from './disk-file-store';
