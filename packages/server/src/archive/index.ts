export { inspectPluginArchive, DESCRIPTOR_NOT_FOUND } from './inspect';
export type { ArchiveInspection, ArchiveKind, InspectOptions } from './inspect';
export type { PluginDescriptor, PluginDependency, PluginVendor } from './descriptor';
export { DEFAULT_ARCHIVE_LIMITS } from './limits';
export type { ArchiveLimits } from './limits';
export { receiveUpload, UploadTooLargeError } from './receive-upload';
export type { ReceiveOptions, ReceivedUpload } from './receive-upload';
