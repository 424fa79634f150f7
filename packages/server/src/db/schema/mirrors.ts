import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { pluginVersions, plugins, users } from './catalogue';

// Mirroring (src/trust/mirror): mirrors src/db/migrations/0093_mirrors.sql column for column. Checks live in
// the SQL.

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const MIRROR_SYNC_OUTCOMES = ['running', 'succeeded', 'failed'] as const;
export type MirrorSyncOutcome = (typeof MIRROR_SYNC_OUTCOMES)[number];

export const mirrorUpstreams = pgTable('mirror_upstreams', {
  id: serial('id').primaryKey(),
  baseUrl: text('base_url').notNull().unique(),
  pluginIds: text('plugin_ids')
    .array()
    .notNull()
    .default(sql`'{}'`),
  builds: text('builds').array().notNull(),
  intervalSeconds: integer('interval_seconds').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
  nextSyncAt: timestamptz('next_sync_at').notNull().defaultNow(),
  lastSyncAt: timestamptz('last_sync_at'),
  lastOutcome: text('last_outcome', { enum: ['succeeded', 'failed'] }),
  lastSummary: text('last_summary'),
  lastError: text('last_error'),
});

export const mirrorSyncRuns = pgTable(
  'mirror_sync_runs',
  {
    id: serial('id').primaryKey(),
    upstreamId: integer('upstream_id')
      .notNull()
      .references(() => mirrorUpstreams.id, { onDelete: 'cascade' }),
    startedAt: timestamptz('started_at').notNull().defaultNow(),
    finishedAt: timestamptz('finished_at'),
    outcome: text('outcome', { enum: MIRROR_SYNC_OUTCOMES }).notNull().default('running'),
    imported: integer('imported').notNull().default(0),
    present: integer('present').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    problems: text('problems')
      .array()
      .notNull()
      .default(sql`'{}'`),
    notes: text('notes')
      .array()
      .notNull()
      .default(sql`'{}'`),
  },
  (table) => [index('mirror_sync_runs_upstream_idx').on(table.upstreamId, table.id.desc())],
);

export const mirroredPlugins = pgTable(
  'mirrored_plugins',
  {
    pluginId: integer('plugin_id')
      .primaryKey()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    upstreamId: integer('upstream_id').references(() => mirrorUpstreams.id, { onDelete: 'set null' }),
    mirroredFrom: text('mirrored_from').notNull(),
    originalUrl: text('original_url').notNull(),
    firstImportedAt: timestamptz('first_imported_at').notNull().defaultNow(),
    lastImportedAt: timestamptz('last_imported_at').notNull().defaultNow(),
  },
  (table) => [index('mirrored_plugins_upstream_idx').on(table.upstreamId)],
);

export const mirroredVersions = pgTable('mirrored_versions', {
  versionId: integer('version_id')
    .primaryKey()
    .references(() => pluginVersions.id, { onDelete: 'cascade' }),
  upstreamId: integer('upstream_id').references(() => mirrorUpstreams.id, { onDelete: 'set null' }),
  mirroredFrom: text('mirrored_from').notNull(),
  originalUrl: text('original_url').notNull(),
  via: text('via', { enum: ['sync', 'import'] }).notNull(),
  importedAt: timestamptz('imported_at').notNull().defaultNow(),
});
