import {
  bigint,
  boolean,
  customType,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

// Mirrors src/db/migrations/0050_insight.sql column for column (checks, the partitions of insight_events live in
// the SQL).

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });

export const insightEvents = pgTable(
  'insight_events',
  {
    occurredAt: timestamptz('occurred_at').notNull().defaultNow(),
    kind: text('kind').notNull(),
    pluginId: integer('plugin_id').notNull(),
    version: text('version').notNull().default(''),
    channel: text('channel').notNull().default(''),
    productCode: text('product_code').notNull().default(''),
    build: text('build').notNull().default(''),
    branch: integer('branch').notNull().default(0),
    fromIde: boolean('from_ide').notNull(),
    country: text('country').notNull().default(''),
    // Null: counted without consent to tell visitors apart (0081_features_consent.sql).
    visitor: bigint('visitor', { mode: 'bigint' }),
  },
  (table) => [index('insight_events_time_idx').using('brin', table.occurredAt)],
);

export const insightSalts = pgTable('insight_salts', {
  day: date('day').primaryKey(),
  salt: bytea('salt').notNull(),
});

const counters = {
  downloads: integer('downloads').notNull(),
  downloadsUnique: integer('downloads_unique').notNull(),
  installs: integer('installs').notNull(),
  updateChecks: integer('update_checks').notNull(),
};

export const insightDaily = pgTable(
  'insight_daily',
  {
    pluginId: integer('plugin_id').notNull(),
    day: date('day').notNull(),
    version: text('version').notNull(),
    channel: text('channel').notNull(),
    productCode: text('product_code').notNull(),
    branch: integer('branch').notNull(),
    country: text('country').notNull(),
    ...counters,
  },
  (table) => [
    primaryKey({
      columns: [
        table.pluginId,
        table.day,
        table.version,
        table.channel,
        table.productCode,
        table.branch,
        table.country,
      ],
    }),
    index('insight_daily_day_idx').on(table.day),
  ],
);

export const insightDailyByDimension = pgTable(
  'insight_daily_by_dimension',
  {
    pluginId: integer('plugin_id').notNull(),
    dimension: text('dimension').notNull(),
    day: date('day').notNull(),
    value: text('value').notNull(),
    ...counters,
  },
  (table) => [
    primaryKey({ columns: [table.pluginId, table.dimension, table.day, table.value] }),
    index('insight_daily_by_dimension_day_idx').on(table.day),
  ],
);

export const insightRollupState = pgTable('insight_rollup_state', {
  id: boolean('id').primaryKey().default(true),
  rolledUpUntil: timestamptz('rolled_up_until').notNull(),
});
