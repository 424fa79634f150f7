import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users, vendors } from './catalogue';

// Supply-chain trust (src/trust): mirrors src/db/migrations/0089_trust.sql.

export const NAMESPACE_STATES = ['pending', 'approved', 'refused', 'revoked'] as const;
export type NamespaceState = (typeof NAMESPACE_STATES)[number];

export const trustNamespaces = pgTable(
  'trust_namespaces',
  {
    id: serial('id').primaryKey(),
    /** Lower case, ending with a dot: 'com.acme.'. */
    prefix: text('prefix').notNull(),
    vendorId: integer('vendor_id')
      .notNull()
      .references(() => vendors.id, { onDelete: 'cascade' }),
    state: text('state', { enum: NAMESPACE_STATES }).notNull().default('pending'),
    dnsToken: text('dns_token').notNull(),
    requestedBy: integer('requested_by').references(() => users.id, { onDelete: 'set null' }),
    requestedAt: timestamp('requested_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    decisionReason: text('decision_reason'),
  },
  (table) => [
    uniqueIndex('trust_namespaces_approved_prefix_idx')
      .on(table.prefix)
      .where(sql`state = 'approved'`),
    index('trust_namespaces_state_idx').on(table.state, table.requestedAt, table.id),
    index('trust_namespaces_vendor_idx').on(table.vendorId),
  ],
);
