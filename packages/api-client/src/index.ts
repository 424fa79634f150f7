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
