import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { plugins, users } from './catalogue';

// Mirrors src/db/migrations/0060_pages.sql and 0061_pages_drafts.sql column for column (checks live in the SQL).

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const customPages = pgTable(
  'custom_pages',
  {
    id: serial('id').primaryKey(),
    pluginId: integer('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    parentId: integer('parent_id').references((): AnyPgColumn => customPages.id, { onDelete: 'set null' }),
    url: text('url').notNull(),
    name: text('name').notNull(),
    type: text('type').notNull().default('custom-page'),
    status: text('status').notNull().default('DRAFT'),
    originalContent: text('original_content').notNull().default(''),
    content: text('content').notNull().default(''),
    generateToc: boolean('generate_toc').notNull().default(false),
    position: integer('position').notNull().default(0),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
    publishedAt: timestamptz('published_at'),
    // The unpublished changes of a published page (0061): all set, or all null.
    draftName: text('draft_name'),
    draftUrl: text('draft_url'),
    draftOriginalContent: text('draft_original_content'),
    draftContent: text('draft_content'),
    draftGenerateToc: boolean('draft_generate_toc'),
    draftUpdatedAt: timestamptz('draft_updated_at'),
  },
  (table) => [
    unique().on(table.pluginId, table.url),
    index('custom_pages_plugin_idx').on(table.pluginId, table.parentId, table.position),
  ],
);

export const customPageImages = pgTable(
  'custom_page_images',
  {
    id: serial('id').primaryKey(),
    pageId: integer('page_id')
      .notNull()
      .references(() => customPages.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    fileHash: text('file_hash').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [index('custom_page_images_page_idx').on(table.pageId)],
);

export const customPageFiles = pgTable(
  'custom_page_files',
  {
    pageId: integer('page_id')
      .notNull()
      .references(() => customPages.id, { onDelete: 'cascade' }),
    path: text('path').notNull(),
    fileHash: text('file_hash').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    /** A file of the draft (a new zip of a published webhelp), served to visitors only once published. */
    draft: boolean('draft').notNull().default(false),
  },
  (table) => [primaryKey({ columns: [table.pageId, table.draft, table.path] })],
);

/** Previews of unpublished webhelp for the item's people (0061): the SHA-256 of the token in the URL. */
export const customPagePreviews = pgTable(
  'custom_page_previews',
  {
    tokenHash: text('token_hash').primaryKey(),
    pageId: integer('page_id')
      .notNull()
      .references(() => customPages.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (table) => [index('custom_page_previews_expiry_idx').on(table.expiresAt)],
);
