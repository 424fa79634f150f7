import { integer, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { pluginVersions, users } from './schema/catalogue';

// Kept apart from lease-queue.ts so the schema files import only Drizzle column builders, not the queue's code.

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Where a job of a lease queue stands; the SQL checks it. */
export type LeaseQueueJobState = 'queued' | 'running' | 'done' | 'failed';

/**
 * The columns of a table worked by the lease queue of lease-queue.ts (`verification_jobs`, `scan_jobs`): one
 * version per job, its state, attempts and lease. Written once so every queue table has the same columns,
 * types, defaults and references; a table passes them to `pgTable` (spread them to add columns of its own).
 * The migration creating the table still writes them out in SQL, with the checks (attempts >= 0,
 * max_attempts >= 1, a lease exactly while running), which Drizzle does not describe.
 */
export function leaseQueueColumns() {
  return {
    id: serial('id').primaryKey(),
    versionId: integer('version_id')
      .notNull()
      .references(() => pluginVersions.id, { onDelete: 'cascade' }),
    state: text('state').$type<LeaseQueueJobState>().notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(3),
    // A queued job is not taken before this (retries back off); a running one belongs to leaseOwner until
    // leaseExpiresAt, after which any worker may take it up again.
    availableAt: timestamptz('available_at').notNull().defaultNow(),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: timestamptz('lease_expires_at'),
    lastError: text('last_error'),
    requestedBy: integer('requested_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    finishedAt: timestamptz('finished_at'),
  };
}
