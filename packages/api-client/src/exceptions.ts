import type {
  ExceptionCommentBody,
  ExceptionCount,
  ExceptionGroupBody,
  ExceptionGroupsBody,
  ExceptionGroupSummary,
  ExceptionReportBody,
  ExceptionStatusBody,
} from '@marketplace/api-contract';
import type { ExceptionStatus } from '@marketplace/core';
import { pathId } from './paths';
import { buildQuery } from './query';
import type { ApiTransport, CallOptions } from './transport';

/** One defect: the reports whose normalised stack traces share a fingerprint. */
export type ExceptionGroup = ExceptionGroupSummary;
/** A group with its latest report, the environments it came from and users' comments. */
export type ExceptionGroupDetail = ExceptionGroupBody;
export type ExceptionGroupPage = ExceptionGroupsBody;
export type ExceptionReport = ExceptionReportBody;
export type ExceptionComment = ExceptionCommentBody;
export type ExceptionEnvironmentCount = ExceptionCount;
export type ExceptionStatusChange = ExceptionStatusBody;

export interface ExceptionGroupsInput {
  /** 1-based; 20 groups a page unless `size` says otherwise (at most 100). */
  page?: number;
  size?: number;
  status?: ExceptionStatus;
}

/** The paths of the exception analyzer's routes for the item's people. */
export const exceptionPaths = {
  groups: (pluginId: number, input: ExceptionGroupsInput = {}) =>
    `/api/plugins/${pathId('Plugin id', pluginId)}/exceptions${buildQuery({ ...input })}`,
  group: (pluginId: number, groupId: number) =>
    `/api/plugins/${pathId('Plugin id', pluginId)}/exceptions/${pathId('Group id', groupId)}`,
  status: (pluginId: number, groupId: number) => `${exceptionPaths.group(pluginId, groupId)}/status`,
};

/**
 * The exception analyzer: a plugin's error reports, grouped by defect. Only the item's people and
 * administrators may call it; IDEs send the reports themselves (to core's EXCEPTION_REPORT_PATH).
 */
export class ExceptionsClient {
  constructor(private readonly transport: ApiTransport) {}

  /** The plugin's groups, the most reported in the recent days first. */
  listGroups(
    pluginId: number,
    input: ExceptionGroupsInput = {},
    options: CallOptions = {},
  ): Promise<ExceptionGroupPage> {
    return this.transport.sendJson({
      ...options,
      method: 'GET',
      path: exceptionPaths.groups(pluginId, input),
    });
  }

  getGroup(pluginId: number, groupId: number, options: CallOptions = {}): Promise<ExceptionGroupDetail> {
    return this.transport.sendJson({
      ...options,
      method: 'GET',
      path: exceptionPaths.group(pluginId, groupId),
    });
  }

  /** Marks a group; `fixedInVersion` goes with (and only with) status `fixed`. */
  setStatus(
    pluginId: number,
    groupId: number,
    change: ExceptionStatusChange,
    options: CallOptions = {},
  ): Promise<ExceptionGroup> {
    return this.transport.sendJson({
      ...options,
      method: 'PUT',
      path: exceptionPaths.status(pluginId, groupId),
      json: change,
    });
  }
}
