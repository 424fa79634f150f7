export { createIdeBridge } from './bridge';
export type {
  FindRunningIdesOptions,
  IdeAddress,
  IdeBridge,
  IdeBridgeOptions,
  LtiLaunch,
  RunningIdesListener,
  RunningIdesUpdate,
} from './bridge';
export { groupIdesByName, probePort, scanConcurrently, scanSequentially } from './discovery';
export type { DiscoveredIde, IdeGroup, PortRange, ProbeResult, ScanStrategy } from './discovery';
export { idesForCourseLanguage } from './courses';
export { IDE_BRIDGE_ERROR_KINDS, IdeBridgeError, ideBridgeMessages, isIdeBridgeError } from './errors';
export type { IdeBridgeErrorDetails, IdeBridgeErrorKind } from './errors';
export { systemClock } from './clock';
export type { Clock } from './clock';
export { browserLocalNetworkPermission } from './permission';
export type { LocalNetworkPermission, LocalNetworkPermissionSource } from './permission';
export { IDE_HOST } from './transport';
export type { FetchFunction, IdeRequestInit } from './transport';
