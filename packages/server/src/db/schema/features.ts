import { bigint, boolean, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './catalogue';

// Mirrors src/db/migrations/0081_features_consent.sql column for column (checks live in the SQL).

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const featureFlags = pgTable('feature_flags', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  type: text('type').$type<'boolean' | 'percentage' | 'users' | 'vendors'>().notNull(),
  description: text('description').notNull().default(''),
  value: jsonb('value').$type<boolean | number | number[]>().notNull(),
  evaluations: bigint('evaluations', { mode: 'number' }).notNull().default(0),
  evaluationsOn: bigint('evaluations_on', { mode: 'number' }).notNull().default(0),
  countedSince: timestamptz('counted_since').notNull().defaultNow(),
  lastEvaluatedAt: timestamptz('last_evaluated_at'),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
});

export const userConsents = pgTable('user_consents', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  analytics: boolean('analytics').notNull(),
  decidedAt: timestamptz('decided_at').notNull().defaultNow(),
});
