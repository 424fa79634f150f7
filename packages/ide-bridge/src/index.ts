export { CONFIRMATION_NOTICE_MS, createIdeBridge, IDE_CONFIRMATION_TIMEOUT_MS } from './bridge';
export type {
  FindRunningIdesOptions,
  IdeBridge,
  IdeBridgeOptions,
  InstallOptions,
  LtiLaunch,
  RunningIdesListener,
  RunningIdesUpdate,
} from './bridge';
export { groupIdesByName } from './discovery';
export type { DiscoveredIde, IdeGroup, PortRange, ScanStrategy } from './discovery';
export { idesForCourseLanguage } from './courses';
export { IDE_BRIDGE_ERROR_KINDS, IdeBridgeError, ideBridgeMessages, isIdeBridgeError } from './errors';
export type { IdeBridgeErrorDetails, IdeBridgeErrorKind } from './errors';
export { systemClock } from './clock';
export type { Clock } from './clock';
export { browserLocalNetworkPermission } from './permission';
export type { LocalNetworkPermission, LocalNetworkPermissionSource } from './permission';
export type { FetchFunction } from './transport';
