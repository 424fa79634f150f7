export {
  ApiClient,
  createApiClient,
  type NewPluginUpload,
  type UploadCallOptions,
  type VersionUpload,
} from './client';
export {
  ApiError,
  NetworkError,
  isApiError,
  isJsonContentType,
  isNetworkError,
  type FailedCall,
} from './errors';
export { parseLinkHeader, type PageLinks, type PageRelation } from './link-header';
export { encodeMultipart, type EncodedForm } from './multipart';
export { apiPaths, pathId, type PluginSection } from './paths';
export { buildQuery, type QueryParameters, type QueryValue } from './query';
export {
  ApiTransport,
  readAnswer,
  type ApiAnswer,
  type ApiClientOptions,
  type ApiRequest,
  type CallOptions,
  type HttpMethod,
  type Paged,
  type TokenSource,
} from './transport';
export type * from './types';
export {
  readUploadAnswer,
  type UploadFieldValue,
  type UploadOptions,
  type UploadOutcome,
  type UploadProgress,
} from './upload';
export { CommerceClient, commercePaths } from './commerce';
export type * from './commerce';
export { InsightClient, insightPaths } from './insight';
export type * from './insight';
export { ExceptionsClient, exceptionPaths } from './exceptions';
export type * from './exceptions';
export { PagesClient, pagePaths } from './pages';
export type * from './pages';
export { VerificationClient, verificationPaths, type VerificationQueueInput } from './verification';
export type * from './verification';
export { AdminUsersClient, adminUserPaths, type UsersInput } from './admin-users';
export type * from './admin-users';
export { ModerationClient, moderationPaths, type AdminReportsInput, type AuditLogInput } from './moderation';
export type * from './moderation';
export { FeaturesClient, featurePaths } from './admin-features';
export type * from './admin-features';
export { FeaturedItemsClient, featuredItemPaths } from './admin-featured';
export type * from './admin-featured';
export { ConsentClient, consentPaths } from './consent';
export type * from './consent';
export { actOnScheduledJob, getScheduledJob, listScheduledJobs, schedulerPaths } from './admin-scheduler';
export type * from './admin-scheduler';
export { PerformanceClient, performancePaths } from './admin-performance';
export type * from './admin-performance';
export { SignaturesClient, signaturePaths } from './signatures';
export type * from './signatures';
export { ScanningClient, scanningPaths, type ScanQueueInput } from './scanning';
export type * from './scanning';
export { NamespacesClient, namespacePaths } from './namespaces';
export type * from './namespaces';
export { MirrorsClient, mirrorPaths } from './mirrors';
export type * from './mirrors';
