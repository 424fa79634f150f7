import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { plugins, reviews, users } from './catalogue';

// Mirrors src/db/migrations/0020_publishing.sql column for column.

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A stored file an upload is about to commit a row for; the orphan sweep leaves claimed files alone. */
export const fileClaims = pgTable(
  'file_claims',
  {
    id: serial('id').primaryKey(),
    fileHash: text('file_hash').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [index('file_claims_file_hash_idx').on(table.fileHash)],
);

/** Every management and moderation action: who did what to which plugin, and with what details. */
export const pluginAuditLog = pgTable(
  'plugin_audit_log',
  {
    id: serial('id').primaryKey(),
    pluginId: integer('plugin_id').references(() => plugins.id, { onDelete: 'set null' }),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    details: jsonb('details')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [
    index('plugin_audit_log_plugin_idx').on(table.pluginId, table.createdAt.desc(), table.id.desc()),
    index('plugin_audit_log_created_idx').on(table.createdAt.desc(), table.id.desc()),
    index('plugin_audit_log_actor_idx').on(table.actorId, table.createdAt.desc(), table.id.desc()),
    index('plugin_audit_log_action_idx').on(table.action, table.createdAt.desc(), table.id.desc()),
  ],
);

export const adminNotes = pgTable(
  'admin_notes',
  {
    id: serial('id').primaryKey(),
    pluginId: integer('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    text: text('text').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    resolvedAt: timestamptz('resolved_at'),
    resolvedBy: integer('resolved_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [index('admin_notes_plugin_idx').on(table.pluginId, table.createdAt.desc(), table.id.desc())],
);

export const pluginReports = pgTable(
  'plugin_reports',
  {
    id: serial('id').primaryKey(),
    pluginId: integer('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    reporterId: integer('reporter_id').references(() => users.id, { onDelete: 'set null' }),
    reason: text('reason').notNull(),
    message: text('message').notNull().default(''),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    // Migration 0082: a report of one review of the plugin, and its resolution by an administrator.
    reviewId: integer('review_id').references(() => reviews.id, { onDelete: 'cascade' }),
    resolvedAt: timestamptz('resolved_at'),
    resolvedBy: integer('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    resolution: text('resolution'),
  },
  (table) => [
    index('plugin_reports_created_idx').on(table.createdAt.desc(), table.id.desc()),
    index('plugin_reports_open_idx')
      .on(table.createdAt.desc(), table.id.desc())
      .where(sql`resolved_at IS NULL`),
    index('plugin_reports_plugin_idx').on(table.pluginId, table.createdAt.desc(), table.id.desc()),
  ],
);

/** The order a developer gives their own plugins on their pages. */
export const pluginOwnerOrder = pgTable(
  'plugin_owner_order',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    pluginId: integer('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.pluginId] })],
);
