import { sql } from 'drizzle-orm';
import { bigserial, customType, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './catalogue';

// Caches' administration (src/admin/caches): mirrors src/db/migrations/0085_cache_events.sql.

/** A 64-bit transaction id; compared and passed around as text. */
const xid8 = customType<{ data: string }>({ dataType: () => 'xid8' });

export type CacheEventAction = 'flush' | 'reload';

export const cacheEvents = pgTable(
  'cache_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    action: text('action').$type<CacheEventAction>().notNull(),
    cacheName: text('cache_name'),
    origin: text('origin').notNull(),
    requestedBy: integer('requested_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdByXact: xid8('created_by_xact')
      .notNull()
      .default(sql`pg_current_xact_id()`),
  },
  (table) => [index('cache_events_xact_idx').on(table.createdByXact)],
);
