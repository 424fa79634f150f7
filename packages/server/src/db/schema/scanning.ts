import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { leaseQueueColumns } from '../lease-queue-columns';
import { pluginVersions, users } from './catalogue';
import { adminNotes } from './publishing';

// Scanning of versions (src/trust/scanning): mirrors src/db/migrations/0092_scanning.sql column for column
// (checks live in the SQL; the version's scan_state and the plugin's scan_held are in catalogue.ts). scan_jobs
// is a lease queue's table: its columns are those of src/db/lease-queue-columns.ts.

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const scanJobs = pgTable('scan_jobs', leaseQueueColumns(), (table) => [
  index('scan_jobs_claim_idx')
    .on(table.availableAt, table.id)
    .where(sql`state IN ('queued', 'running')`),
  index('scan_jobs_version_idx').on(table.versionId, table.id.desc()),
]);

export const versionScans = pgTable(
  'version_scans',
  {
    id: serial('id').primaryKey(),
    jobId: integer('job_id').references(() => scanJobs.id, { onDelete: 'set null' }),
    versionId: integer('version_id')
      .notNull()
      .references(() => pluginVersions.id, { onDelete: 'cascade' }),
    verdict: text('verdict').$type<'passed' | 'quarantined'>().notNull(),
    engines: text('engines').array().notNull(),
    archiveSha256: text('archive_sha256').notNull(),
    entriesScanned: integer('entries_scanned').notNull(),
    findings: jsonb('findings')
      .notNull()
      .default(sql`'[]'`)
      .$type<unknown[]>(),
    flagNoteId: integer('flag_note_id').references(() => adminNotes.id, { onDelete: 'set null' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    decision: text('decision').$type<'release' | 'reject'>(),
    decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamptz('decided_at'),
    decisionReason: text('decision_reason'),
  },
  (table) => [index('version_scans_version_idx').on(table.versionId, table.id.desc())],
);
