/**
 * The scheduler of recurring jobs (spec §6/§7 `/api/scheduler`, administrators only): statistics roll-up,
 * scheduled price changes, verification queue, orphan-file sweep, token expiry clean-up and search re-index.
 * Each job is a row with its state, last run (duration, outcome, error text) and next run; an administrator
 * may run one now, pause it (no more scheduled runs) and resume it. One node at a time runs a job; a run
 * whose node died is taken up again by another. Instants are milliseconds since 1970.
 *
 * Routes:
 * - `GET /api/scheduler`: every job.
 * - `GET /api/scheduler/{id}`: one job with its recent runs, newest first.
 * - `POST /api/scheduler/{id}/{x}` (`{jobAction}` in the route), x = `run` (answers once the run has finished, whatever its outcome; 409
 *   while the job runs), `pause`, `resume`; an optional JSON body `{ "reason": "..." }` goes to the audit log.
 */
import { Type, type Static } from 'typebox';
import { Nullable, Timestamp } from './common';

export const SCHEDULED_JOB_ID_PATTERN = '^[a-z][a-z0-9-]{0,63}$';

export const SCHEDULER_ACTIONS = ['run', 'pause', 'resume'] as const;
export type SchedulerAction = (typeof SCHEDULER_ACTIONS)[number];

export const SCHEDULED_JOB_STATES = ['waiting', 'running', 'paused', 'on-demand'] as const;
export type ScheduledJobState = (typeof SCHEDULED_JOB_STATES)[number];

export const SCHEDULED_RUN_OUTCOMES = ['running', 'succeeded', 'failed', 'interrupted'] as const;
export type ScheduledRunOutcome = (typeof SCHEDULED_RUN_OUTCOMES)[number];

export const SCHEDULED_RUN_TRIGGERS = ['schedule', 'manual', 'retry'] as const;
export type ScheduledRunTrigger = (typeof SCHEDULED_RUN_TRIGGERS)[number];

export const ScheduledJobIdParams = Type.Object({
  id: Type.String({ pattern: SCHEDULED_JOB_ID_PATTERN, description: 'The job, e.g. insight-rollup' }),
});
export type ScheduledJobIdParams = Static<typeof ScheduledJobIdParams>;

export const SchedulerActionParams = Type.Object({
  id: ScheduledJobIdParams.properties.id,
  jobAction: Type.Enum([...SCHEDULER_ACTIONS], { description: 'run, pause or resume (spec §7 `{x}`)' }),
});
export type SchedulerActionParams = Static<typeof SchedulerActionParams>;

export const SchedulerActionBody = Type.Optional(
  Type.Union([
    Type.Null(),
    Type.Object({ reason: Type.Optional(Type.String({ maxLength: 1000 })) }, { additionalProperties: false }),
  ]),
);
export type SchedulerActionBody = Static<typeof SchedulerActionBody>;

export const ScheduledRunSchema = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  trigger: Type.Enum([...SCHEDULED_RUN_TRIGGERS], {
    description: 'schedule (it was due), manual (run now), retry (taken up after its node died)',
  }),
  attempt: Type.Integer({ minimum: 1, description: '1, or more for a run taken up again' }),
  node: Type.String({ description: 'The server process that ran it' }),
  requestedBy: Nullable(Type.Integer({ description: 'The administrator who ran it now' })),
  started: Timestamp,
  finished: Nullable(Timestamp),
  durationMs: Nullable(Type.Integer({ minimum: 0 })),
  outcome: Type.Enum([...SCHEDULED_RUN_OUTCOMES], {
    description: 'running, succeeded, failed (error says why), interrupted (its node stopped; retried)',
  }),
  summary: Nullable(Type.String({ description: 'What the run did, e.g. "2 price changes took effect"' })),
  error: Nullable(Type.String()),
});
export type ScheduledRun = Static<typeof ScheduledRunSchema>;

export const ScheduledJobSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  description: Type.String(),
  state: Type.Enum([...SCHEDULED_JOB_STATES], {
    description:
      'waiting (for its next run), running, paused (no scheduled runs), on-demand (no interval: only run now)',
  }),
  paused: Type.Boolean(),
  intervalSeconds: Nullable(Type.Integer({ minimum: 1, description: 'null: it runs only when run now' })),
  setting: Nullable(Type.String({ description: 'The environment setting of the interval' })),
  nextRun: Nullable(Timestamp),
  lastRun: Nullable(ScheduledRunSchema),
  currentRun: Nullable(ScheduledRunSchema),
});
export type ScheduledJob = Static<typeof ScheduledJobSchema>;

export const ScheduledJobListSchema = Type.Array(ScheduledJobSchema);
export type ScheduledJobList = Static<typeof ScheduledJobListSchema>;

export const ScheduledJobDetailSchema = Type.Object({
  ...ScheduledJobSchema.properties,
  runs: Type.Array(ScheduledRunSchema, { description: 'Recent runs, newest first' }),
});
export type ScheduledJobDetail = Static<typeof ScheduledJobDetailSchema>;
