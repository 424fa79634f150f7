import type {
  PluginScansBody,
  ScanAction,
  ScanFindingBody,
  ScanQueueBody,
  ScanQueueEntryBody,
  ScanQueueFilter,
  VersionScanBody,
  VersionScanStatusBody,
} from '@marketplace/api-contract';
import { pathId } from './paths';
import { buildQuery } from './query';
import type { ApiTransport, CallOptions } from './transport';

export type ScanFinding = ScanFindingBody;
export type VersionScan = VersionScanBody;
export type ScanQueue = ScanQueueBody;
export type ScanQueueEntry = ScanQueueEntryBody;
export type VersionScanStatus = VersionScanStatusBody;
export type PluginScans = PluginScansBody;
export type { ScanAction, ScanQueueFilter };

export interface ScanQueueInput {
  /** Quarantined versions unless said otherwise; `passed` lists passed scans that found something. */
  state?: ScanQueueFilter;
  /** 50 unless `max` says otherwise (at most 200). */
  max?: number;
  offset?: number;
}

/** The paths of the scanning routes of api-contract's trust.ts. */
export const scanningPaths = {
  queue: (input: ScanQueueInput = {}) => `/api/admin/trust/scans${buildQuery({ ...input })}`,
  act: (versionId: number, action: ScanAction) =>
    `/api/admin/trust/scans/${pathId('Version id', versionId)}/${action}`,
  status: (versionId: number) => `/api/trust/scans/${pathId('Version id', versionId)}`,
  ofPlugin: (pluginId: number) => `/api/plugins/${pathId('Plugin id', pluginId)}/scans`,
};

/**
 * Scanning of uploaded versions: the administrators' quarantine queue and their decisions (release, reject,
 * scan again), and a version's scan for its developers.
 */
export class ScanningClient {
  constructor(private readonly transport: ApiTransport) {}

  /** Administrators: versions in one scan state (quarantined by default), each with its latest scan. */
  queue(input: ScanQueueInput = {}, options: CallOptions = {}): Promise<ScanQueue> {
    return this.transport.sendJson({ ...options, method: 'GET', path: scanningPaths.queue(input) });
  }

  /**
   * Administrators: release a quarantined version (offered again), reject it (held for good), or scan any
   * version again; 409 when a quarantined version was asked for and it is not one.
   */
  act(
    versionId: number,
    action: ScanAction,
    reason?: string,
    options: CallOptions = {},
  ): Promise<ScanQueueEntry> {
    return this.transport.sendJson({
      ...options,
      method: 'POST',
      path: scanningPaths.act(versionId, action),
      json: reason ? { reason } : {},
    });
  }

  /** A version's scan state and latest scan (the item's developers and administrators). */
  status(versionId: number, options: CallOptions = {}): Promise<VersionScanStatus> {
    return this.transport.sendJson({ ...options, method: 'GET', path: scanningPaths.status(versionId) });
  }

  /**
   * The item's versions that scanning holds back or an administrator decided on (pending, quarantined,
   * rejected, released), each with its latest scan; a version not listed is offered as far as scanning goes
   * (the item's developers and administrators).
   */
  ofPlugin(pluginId: number, options: CallOptions = {}): Promise<PluginScans> {
    return this.transport.sendJson({ ...options, method: 'GET', path: scanningPaths.ofPlugin(pluginId) });
  }
}
