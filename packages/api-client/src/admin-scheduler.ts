import type {
  ScheduledJob,
  ScheduledJobDetail,
  ScheduledRun,
  SchedulerAction,
} from '@marketplace/api-contract';
import type { ApiClient } from './client';
import type { CallOptions } from './transport';

export type { ScheduledJob, ScheduledJobDetail, ScheduledRun, SchedulerAction };

const BASE = '/api/scheduler';

function jobPath(jobId: string): string {
  if (!/^[a-z][a-z0-9-]{0,63}$/.test(jobId)) throw new RangeError(`"${jobId}" is not a job id.`);
  return `${BASE}/${jobId}`;
}

/** The paths of spec §7's scheduler routes (administrators only). */
export const schedulerPaths = {
  list: () => BASE,
  job: (jobId: string) => jobPath(jobId),
  action: (jobId: string, action: SchedulerAction) => `${jobPath(jobId)}/${action}`,
};

async function json<T>(client: ApiClient, request: Parameters<ApiClient['request']>[0]): Promise<T> {
  const answer = await client.request<T>(request);
  if (answer.kind !== 'json') throw new TypeError(`${request.path} answered without JSON.`);
  return answer.data;
}

/** Administrators: every recurring job with its state, last run and next run. */
export function listScheduledJobs(client: ApiClient, options: CallOptions = {}): Promise<ScheduledJob[]> {
  return json(client, { ...options, method: 'GET', path: schedulerPaths.list() });
}

/** Administrators: one job with its recent runs, newest first. */
export function getScheduledJob(
  client: ApiClient,
  jobId: string,
  options: CallOptions = {},
): Promise<ScheduledJobDetail> {
  return json(client, { ...options, method: 'GET', path: schedulerPaths.job(jobId) });
}

/**
 * Administrators: runs a job now (resolves once the run has ended: see `lastRun.outcome`; rejects with 409
 * while it runs), pauses or resumes it. `reason` goes to the audit log.
 */
export function actOnScheduledJob(
  client: ApiClient,
  jobId: string,
  action: SchedulerAction,
  input: { reason?: string } = {},
  options: CallOptions = {},
): Promise<ScheduledJobDetail> {
  return json(client, {
    ...options,
    method: 'POST',
    path: schedulerPaths.action(jobId, action),
    json: input.reason ? { reason: input.reason } : {},
  });
}
