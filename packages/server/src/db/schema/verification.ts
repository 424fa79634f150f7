import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, serial, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { leaseQueueColumns } from '../lease-queue-columns';
import { plugins, pluginVersions, users } from './catalogue';

// Mirrors src/db/migrations/0070_verification.sql column for column (checks live in the SQL). verification_jobs
// is a lease queue's table: its columns are those of src/db/lease-queue-columns.ts.

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const verificationJobs = pgTable('verification_jobs', leaseQueueColumns(), (table) => [
  index('verification_jobs_claim_idx')
    .on(table.availableAt, table.id)
    .where(sql`state IN ('queued', 'running')`),
  index('verification_jobs_version_idx').on(table.versionId, table.id.desc()),
  index('verification_jobs_created_idx').on(table.createdAt.desc(), table.id.desc()),
]);

export const verifications = pgTable(
  'verifications',
  {
    id: serial('id').primaryKey(),
    jobId: integer('job_id').references(() => verificationJobs.id, { onDelete: 'set null' }),
    versionId: integer('version_id')
      .notNull()
      .references(() => pluginVersions.id, { onDelete: 'cascade' }),
    pluginId: integer('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    types: text('types').array().notNull(),
    verifierVersion: text('verifier_version').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    discardedAt: timestamptz('discarded_at'),
    discardedBy: integer('discarded_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [
    index('verifications_version_idx').on(table.versionId, table.id.desc()),
    index('verifications_plugin_idx').on(table.pluginId, table.id.desc()),
  ],
);

export const verificationTargets = pgTable(
  'verification_targets',
  {
    verificationId: integer('verification_id')
      .notNull()
      .references(() => verifications.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    productBuild: text('product_build').notNull(),
    productName: text('product_name').notNull(),
    branch: integer('branch').notNull(),
    release: text('release').notNull(),
    javaLevel: integer('java_level').notNull(),
  },
  (table) => [primaryKey({ columns: [table.verificationId, table.position] })],
);

export const verificationFindings = pgTable(
  'verification_findings',
  {
    id: serial('id').primaryKey(),
    verificationId: integer('verification_id')
      .notNull()
      .references(() => verifications.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    kind: text('kind').notNull(),
    severity: text('severity').$type<'problem' | 'warning'>().notNull(),
    message: text('message').notNull(),
    fingerprint: text('fingerprint').notNull(),
    productBuilds: text('product_builds')
      .array()
      .notNull()
      .default(sql`'{}'`),
  },
  (table) => [index('verification_findings_verification_idx').on(table.verificationId, table.id)],
);

export const verificationFalsePositives = pgTable(
  'verification_false_positives',
  {
    id: serial('id').primaryKey(),
    pluginId: integer('plugin_id').references(() => plugins.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    kind: text('kind').notNull(),
    fingerprint: text('fingerprint').notNull(),
    message: text('message').notNull(),
    reason: text('reason').notNull().default(''),
    markedBy: integer('marked_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [
    unique().on(table.pluginId, table.fingerprint).nullsNotDistinct(),
    index('verification_false_positives_fingerprint_idx').on(table.fingerprint),
  ],
);
