import type { ProductFamily } from '@marketplace/core';
import { integer, pgTable, primaryKey, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { plugins, users } from './catalogue';

// Featured items per product family (src/admin/featured): mirrors src/db/migrations/0087_featured_items.sql.

export const featuredItems = pgTable(
  'featured_items',
  {
    family: text('family').$type<ProductFamily>().notNull(),
    pluginId: integer('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    /** 0 first. */
    position: integer('position').notNull(),
    addedBy: integer('added_by').references(() => users.id, { onDelete: 'set null' }),
    addedAt: timestamp('added_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.family, table.pluginId] }),
    unique('featured_items_family_position_key').on(table.family, table.position),
  ],
);
