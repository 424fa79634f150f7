import type {
  AdminPluginStateBody,
  AdminReportBody,
  AdminVersionBody,
  AuditEntryBody,
  DsaDecisionGround,
  DsaStatementField,
  NewPluginReportBody,
  PluginStateBody,
  ReportState,
  UploadDetailsBody,
} from '@marketplace/api-contract';
import { pathId } from './paths';
import { buildQuery } from './query';
import type { ApiTransport, CallOptions, Paged } from './transport';

export type AdminPluginState = AdminPluginStateBody;
export type AdminVersion = AdminVersionBody;
export type AdminReport = AdminReportBody;
export type AuditEntry = AuditEntryBody;
export type UploadDetails = UploadDetailsBody;
export type { DsaDecisionGround, DsaStatementField, ReportState };
/** A DSA statement of reasons: its fields as text (see DSA_STATEMENT_FIELDS of the contract). */
export type DsaStatement = Partial<Record<DsaStatementField, string>>;

export interface AdminReportsInput {
  state?: ReportState;
  pluginId?: number;
  max?: number;
  offset?: number;
}

export interface AuditLogInput {
  pluginId?: number;
  /** Login or user id. */
  actor?: string;
  action?: string;
  max?: number;
  offset?: number;
}

/** The paths of the moderation routes (spec §7 `/api/admin/plugins/{id}/{x}`, the download links). */
export const moderationPaths = {
  adminPlugin: (pluginId: number, section: 'state' | 'versions' | 'audit') =>
    `/api/admin/plugins/${pathId('Plugin id', pluginId)}/${section}`,
  action: (pluginId: number, action: string) => `/api/plugins/${pathId('Plugin id', pluginId)}/${action}`,
  plugin: (pluginId: number) => `/api/plugins/${pathId('Plugin id', pluginId)}`,
  uploadDetails: (pluginId: number) => `/api/plugins/${pathId('Plugin id', pluginId)}/upload/details`,
  pluginReports: (pluginId: number) => `/api/plugins/${pathId('Plugin id', pluginId)}/reports`,
  reviewReports: (reviewId: number) => `/api/comments/${pathId('Review id', reviewId)}/reports`,
  reports: (input: AdminReportsInput = {}) => `/api/admin/reports${buildQuery({ ...input })}`,
  resolveReport: (reportId: number) => `/api/admin/reports/${pathId('Report id', reportId)}/resolve`,
  audit: (input: AuditLogInput = {}) => `/api/admin/audit${buildQuery({ ...input })}`,
  /** The admin install URL: any version, unapproved or blocked included (administrators, with their token). */
  adminInstall: (pluginId: number, updateId: number) =>
    `/api/admin/install${buildQuery({ pluginId: pathId('Plugin id', pluginId), updateId: pathId('Update id', updateId) })}`,
  /** The apps URL: the package of an app (YouTrack, Space, Hub, TeamCity recipes), newest unless updateId. */
  apps: (pluginId: number, updateId?: number) =>
    `/apps/download${buildQuery({ pluginId: pathId('Plugin id', pluginId), updateId })}`,
  /** The public download of one version (spec §7 `/plugin/download?rel=true&updateId=`). */
  download: (updateId: number) =>
    `/plugin/download${buildQuery({ rel: 'true', updateId: pathId('Update id', updateId) })}`,
};

/**
 * Moderation: the administrators' view of an item and its lifecycle actions (with DSA statements and chosen
 * versions), visitors' reports of items and reviews and their resolution, the audit log, and what an item's
 * last upload contained.
 */
export class ModerationClient {
  constructor(private readonly transport: ApiTransport) {}

  private get<T>(path: string, options: CallOptions): Promise<T> {
    return this.transport.sendJson<T>({ ...options, method: 'GET', path });
  }

  private post<T>(path: string, json: unknown, options: CallOptions): Promise<T> {
    return this.transport.sendJson<T>({ ...options, method: 'POST', path, json });
  }

  /** Administrators: the item's state, the actions that apply now, its versions and open reports. */
  state(pluginId: number, options: CallOptions = {}): Promise<AdminPluginState> {
    return this.get(moderationPaths.adminPlugin(pluginId, 'state'), options);
  }

  versions(pluginId: number, options: CallOptions = {}): Promise<AdminVersion[]> {
    return this.get(moderationPaths.adminPlugin(pluginId, 'versions'), options);
  }

  /** A lifecycle action of spec §4 without a body (approve, unapprove, unapprove-updates, restore, unblock...). */
  act(pluginId: number, action: string, options: CallOptions = {}): Promise<PluginStateBody> {
    return this.post(moderationPaths.action(pluginId, action), {}, options);
  }

  block(pluginId: number, statement?: DsaStatement, options: CallOptions = {}): Promise<PluginStateBody> {
    return this.post(moderationPaths.action(pluginId, 'block'), statement ?? null, options);
  }

  /** Blocks the chosen versions (approved versions of this item); the item stays listed. */
  partialBlock(
    pluginId: number,
    versions: readonly number[],
    statement?: DsaStatement,
    options: CallOptions = {},
  ): Promise<PluginStateBody> {
    return this.post(
      moderationPaths.action(pluginId, 'partial-block'),
      { versions, ...(statement ? { report: statement } : {}) },
      options,
    );
  }

  delete(pluginId: number, statement?: DsaStatement, options: CallOptions = {}): Promise<PluginStateBody> {
    return this.transport.sendJson({
      ...options,
      method: 'DELETE',
      path: moderationPaths.plugin(pluginId),
      json: statement ?? null,
    });
  }

  /** Anyone who sees the item may report it (or one of its reviews) to the administrators. */
  async reportPlugin(
    pluginId: number,
    report: NewPluginReportBody,
    options: CallOptions = {},
  ): Promise<void> {
    await this.transport.send({
      ...options,
      method: 'POST',
      path: moderationPaths.pluginReports(pluginId),
      json: report,
    });
  }

  async reportReview(
    reviewId: number,
    report: NewPluginReportBody,
    options: CallOptions = {},
  ): Promise<void> {
    await this.transport.send({
      ...options,
      method: 'POST',
      path: moderationPaths.reviewReports(reviewId),
      json: report,
    });
  }

  /** Administrators: reports newest first, open ones unless `state` says otherwise. */
  reports(input: AdminReportsInput = {}, options: CallOptions = {}): Promise<Paged<AdminReport[]>> {
    return this.transport.sendPaged({ ...options, method: 'GET', path: moderationPaths.reports(input) });
  }

  resolveReport(reportId: number, note: string, options: CallOptions = {}): Promise<AdminReport> {
    return this.post(moderationPaths.resolveReport(reportId), { note }, options);
  }

  /** Administrators: every audit entry newest first, by item, actor and action; the total in `totalCount`. */
  audit(input: AuditLogInput = {}, options: CallOptions = {}): Promise<Paged<AuditEntry[]>> {
    return this.transport.sendPaged({ ...options, method: 'GET', path: moderationPaths.audit(input) });
  }

  /** The item's people and administrators: what the last upload contained. */
  uploadDetails(pluginId: number, options: CallOptions = {}): Promise<UploadDetails> {
    return this.get(moderationPaths.uploadDetails(pluginId), options);
  }
}
