import { boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './catalogue';

// The operator's platform (src/admin). Checks live in the SQL.

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

// Scheduler: mirrors src/db/migrations/0080_scheduler.sql column for column.

export const scheduledJobs = pgTable('scheduled_jobs', {
  id: text('id').primaryKey(),
  paused: boolean('paused').notNull().default(false),
  nextRunAt: timestamptz('next_run_at'),
  leaseOwner: text('lease_owner'),
  leaseExpiresAt: timestamptz('lease_expires_at'),
  currentRunId: integer('current_run_id'),
  lastRunId: integer('last_run_id'),
  pausedAt: timestamptz('paused_at'),
  pausedBy: integer('paused_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
});

export type ScheduledJobRunTrigger = 'schedule' | 'manual' | 'retry';
export type ScheduledJobRunOutcome = 'running' | 'succeeded' | 'failed' | 'interrupted';

export const scheduledJobRuns = pgTable(
  'scheduled_job_runs',
  {
    id: serial('id').primaryKey(),
    jobId: text('job_id')
      .notNull()
      .references(() => scheduledJobs.id, { onDelete: 'cascade' }),
    node: text('node').notNull(),
    trigger: text('trigger').$type<ScheduledJobRunTrigger>().notNull(),
    attempt: integer('attempt').notNull().default(1),
    requestedBy: integer('requested_by').references(() => users.id, { onDelete: 'set null' }),
    startedAt: timestamptz('started_at').notNull().defaultNow(),
    finishedAt: timestamptz('finished_at'),
    outcome: text('outcome').$type<ScheduledJobRunOutcome>().notNull().default('running'),
    summary: text('summary'),
    error: text('error'),
  },
  (table) => [index('scheduled_job_runs_job_idx').on(table.jobId, table.id.desc())],
);
