import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ErrorBody,
  ScheduledJobDetailSchema,
  ScheduledJobIdParams,
  ScheduledJobListSchema,
  SchedulerActionBody,
  SchedulerActionParams,
  type ScheduledJobDetail,
} from '@marketplace/api-contract';
import { signedInViewer } from '../../auth/authorization';
import { ApiError } from '../../plugins/app/errors';
import { recordAdminAudit } from '../audit';
import { setPaused } from './repository';
import { JobBusyError, type Scheduler, UnknownJobError } from './scheduler';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody } as const;
const TAGS = ['scheduler'];
const ADMIN = { auth: { rule: 'admin' } } as const;

/** The `/api/scheduler` routes of spec §7, administrators only; every action is in the audit log. */
export const schedulerRoutes =
  (scheduler: Scheduler): FastifyPluginAsyncTypebox =>
  async (app) => {
    const db = app.db;

    function requireJob(id: string): void {
      if (!scheduler.has(id)) throw new ApiError('notFound', `There is no scheduled job "${id}".`);
    }

    app.get(
      '/api/scheduler',
      {
        config: ADMIN,
        schema: {
          tags: TAGS,
          summary: 'The recurring jobs with their state, last run and next run (administrators)',
          response: { 200: ScheduledJobListSchema, ...errors },
        },
      },
      async () => scheduler.list(),
    );

    app.get(
      '/api/scheduler/:id',
      {
        config: ADMIN,
        schema: {
          tags: TAGS,
          summary: 'One recurring job with its recent runs (administrators)',
          params: ScheduledJobIdParams,
          response: { 200: ScheduledJobDetailSchema, ...errors },
        },
      },
      async (request) => {
        requireJob(request.params.id);
        return scheduler.detail(request.params.id);
      },
    );

    app.post(
      '/api/scheduler/:id/:jobAction',
      {
        config: ADMIN,
        schema: {
          tags: TAGS,
          summary: 'Run a job now (answers when the run has ended), pause it or resume it (administrators)',
          params: SchedulerActionParams,
          body: SchedulerActionBody,
          response: { 200: ScheduledJobDetailSchema, ...errors },
        },
      },
      async (request): Promise<ScheduledJobDetail> => {
        const { id, jobAction: action } = request.params;
        requireJob(id);
        const actorId = signedInViewer(request).user.id;
        const reason = request.body?.reason?.trim() || undefined;
        const audit = { actorId, subject: `job:${id}`, ...(reason ? { reason } : {}) };
        if (action === 'run') {
          try {
            const run = await scheduler.runNow(id, {
              requestedBy: actorId,
              onClaimed: (transaction, runId) =>
                recordAdminAudit(transaction, { ...audit, action: 'scheduler.run', details: { runId } }),
            });
            request.log.info(
              { job: id, run: run.id, outcome: run.outcome },
              'an administrator ran a job now',
            );
          } catch (error) {
            if (error instanceof JobBusyError) throw new ApiError('conflict', error.message);
            if (error instanceof UnknownJobError) throw new ApiError('notFound', error.message);
            throw error;
          }
        } else {
          const paused = action === 'pause';
          await db.transaction(async (transaction) => {
            const result = await setPaused(transaction, id, paused, actorId);
            if (!result.found) throw new ApiError('notFound', `There is no scheduled job "${id}".`);
            await recordAdminAudit(transaction, {
              ...audit,
              action: paused ? 'scheduler.pause' : 'scheduler.resume',
              details: { changed: result.changed },
            });
          });
          scheduler.wake();
        }
        return scheduler.detail(id);
      },
    );
  };
