import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  customType,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';
import { plugins, users } from './catalogue';

// Mirrors src/db/migrations/0051_insight_exceptions.sql column for column (checks live in the SQL).

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });

export const EXCEPTION_DIMENSIONS = ['total', 'version', 'build', 'os', 'java'] as const;
export type ExceptionDimension = (typeof EXCEPTION_DIMENSIONS)[number];

export const exceptionGroups = pgTable(
  'exception_groups',
  {
    id: serial('id').primaryKey(),
    pluginId: integer('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    fingerprint: text('fingerprint').notNull(),
    normalisedTrace: text('normalised_trace').notNull(),
    pluginPackage: text('plugin_package').notNull().default(''),
    exceptionClass: text('exception_class').notNull(),
    message: text('message').notNull().default(''),
    status: text('status').notNull().default('new'),
    fixedInVersion: text('fixed_in_version'),
    statusNote: text('status_note').notNull().default(''),
    statusChangedAt: timestamptz('status_changed_at'),
    statusChangedBy: integer('status_changed_by').references(() => users.id, { onDelete: 'set null' }),
    firstSeenAt: timestamptz('first_seen_at').notNull().defaultNow(),
    lastSeenAt: timestamptz('last_seen_at').notNull().defaultNow(),
    reportCount: integer('report_count').notNull().default(0),
    installationCount: integer('installation_count').notNull().default(0),
  },
  (table) => [
    unique().on(table.pluginId, table.fingerprint),
    index('exception_groups_plugin_seen_idx').on(table.pluginId, table.lastSeenAt.desc()),
  ],
);

export const exceptionReports = pgTable(
  'exception_reports',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => exceptionGroups.id, { onDelete: 'cascade' }),
    receivedAt: timestamptz('received_at').notNull().defaultNow(),
    pluginVersion: text('plugin_version').notNull().default(''),
    build: text('build').notNull().default(''),
    productName: text('product_name').notNull().default(''),
    os: text('os').notNull().default(''),
    java: text('java').notNull().default(''),
    message: text('message').notNull().default(''),
    stackTrace: text('stack_trace').notNull(),
    comment: text('comment').notNull().default(''),
    lastAction: text('last_action').notNull().default(''),
    attachmentNames: text('attachment_names')
      .array()
      .notNull()
      .default(sql`'{}'`),
    automatic: boolean('automatic').notNull().default(false),
  },
  (table) => [index('exception_reports_group_idx').on(table.groupId, table.id.desc())],
);

export const exceptionDaily = pgTable(
  'exception_daily',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => exceptionGroups.id, { onDelete: 'cascade' }),
    dimension: text('dimension').notNull(),
    day: date('day').notNull(),
    value: text('value').notNull(),
    reports: integer('reports').notNull(),
  },
  (table) => [primaryKey({ columns: [table.groupId, table.dimension, table.day, table.value] })],
);

export const exceptionInstallations = pgTable(
  'exception_installations',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => exceptionGroups.id, { onDelete: 'cascade' }),
    installation: text('installation').notNull(),
  },
  (table) => [primaryKey({ columns: [table.groupId, table.installation] })],
);

export const exceptionSalt = pgTable('exception_salt', {
  id: boolean('id').primaryKey().default(true),
  salt: bytea('salt').notNull(),
});
