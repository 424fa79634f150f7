export { startIdeSimulator, CONFIRMATIONS_PATH, RECEIVED_REQUESTS_PATH } from './simulator';
export type { IdeSimulator } from './simulator';
export {
  BUILT_IN_TRUSTED_HOSTS,
  DEFAULT_BUILD_NUMBER,
  DEFAULT_EDUTOOLS_VERSION,
  DEFAULT_IDE_NAME,
  DEFAULT_RATE_LIMIT_PER_MINUTE,
  TRUST_ANSWER_REMEMBERED_MS,
  UNTRUSTED_ORIGIN_POLICIES,
} from './options';
export type {
  EduToolsOptions,
  IdeSimulatorOptions,
  PendingConfirmation,
  ReceivedRequest,
  UntrustedOriginPolicy,
} from './options';
