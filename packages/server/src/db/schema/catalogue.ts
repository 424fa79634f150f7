import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  pgTable,
  pgView,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';

// Mirrors src/db/migrations/0001_catalogue.sql column for column; the SQL is the source of truth and a test
// compares the two.

/** A full-text document; written only by the triggers of the catalogue migration. */
const tsvector = customType<{ data: string }>({
  dataType: () => 'tsvector',
});

/** A 64-bit transaction id; compared and passed around as text. */
const xid8 = customType<{ data: string }>({
  dataType: () => 'xid8',
});

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    login: text('login').notNull().unique(),
    name: text('name').notNull(),
    email: text('email'),
    emailVerified: boolean('email_verified').notNull().default(false),
    isAdmin: boolean('is_admin').notNull().default(false),
    banned: boolean('banned').notNull().default(false),
    passwordHash: text('password_hash'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    // Migration 0082: why, when and by whom the user was banned (null while not banned).
    banReason: text('ban_reason'),
    bannedAt: timestamptz('banned_at'),
    bannedBy: integer('banned_by').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
  },
  (table) => [
    index('users_login_trgm_idx').using('gin', table.login.op('gin_trgm_ops')),
    index('users_name_trgm_idx').using('gin', table.name.op('gin_trgm_ops')),
    index('users_created_idx').on(table.createdAt.desc(), table.id.desc()),
  ],
);

export const vendors = pgTable('vendors', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  url: text('url'),
  email: text('email'),
  verified: boolean('verified').notNull().default(false),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
});

export const tags = pgTable('tags', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  name: text('name').notNull().unique(),
  privileged: boolean('privileged').notNull().default(false),
  searchable: boolean('searchable').notNull().default(true),
  families: text('families')
    .array()
    .notNull()
    .default(sql`'{}'`),
});

export const LIFECYCLE_STATES = ['draft', 'published', 'removal_requested', 'deleted'] as const;
export type LifecycleState = (typeof LIFECYCLE_STATES)[number];
export const BLOCK_STATES = ['none', 'partial', 'blocked'] as const;
export type BlockState = (typeof BLOCK_STATES)[number];
/** 'blocked' (migration 0082): chosen by an administrator's partial block; back to 'approved' on unblock. */
export const VERSION_APPROVAL_STATES = ['pending', 'approved', 'rejected', 'blocked'] as const;
export type VersionApprovalState = (typeof VERSION_APPROVAL_STATES)[number];
/** Where a version stands with its scan (migration 0092, src/trust/scanning); see the migration for each. */
export const VERSION_SCAN_STATES = [
  'unscanned',
  'pending',
  'passed',
  'quarantined',
  'released',
  'rejected',
] as const;
export type VersionScanState = (typeof VERSION_SCAN_STATES)[number];
export const PLUGIN_LINK_KINDS = ['donation', 'custom_contact'] as const;
export type PluginLinkKind = (typeof PLUGIN_LINK_KINDS)[number];

export const plugins = pgTable(
  'plugins',
  {
    id: serial('id').primaryKey(),
    family: text('family').notNull(),
    xmlId: text('xml_id').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    preview: text('preview'),
    docText: text('doc_text'),
    email: text('email'),
    copyright: text('copyright'),
    iconHash: text('icon_hash'),
    pricingModel: text('pricing_model').notNull().default('FREE'),
    isMonetizationAvailable: boolean('is_monetization_available').notNull().default(false),
    vendorId: integer('vendor_id').references(() => vendors.id, { onDelete: 'restrict' }),
    ownerId: integer('owner_id').references(() => users.id, { onDelete: 'set null' }),
    language: text('language'),
    programmingLanguage: text('programming_language'),
    url: text('url'),
    bugtrackerUrl: text('bugtracker_url'),
    forumUrl: text('forum_url'),
    licenseUrl: text('license_url'),
    sourceCodeUrl: text('source_code_url'),
    docUrl: text('doc_url'),
    privacyPolicyUrl: text('privacy_policy_url'),
    lifecycleState: text('lifecycle_state', { enum: LIFECYCLE_STATES }).notNull().default('draft'),
    approved: boolean('approved').notNull().default(false),
    blockState: text('block_state', { enum: BLOCK_STATES }).notNull().default('none'),
    hidden: boolean('hidden').notNull().default(false),
    modificationAllowed: boolean('modification_allowed').notNull().default(true),
    /** Every version is held by its scan (pending, quarantined, rejected): kept by triggers (migration 0092). */
    scanHeld: boolean('scan_held').notNull().default(false),
    /**
     * Shown in public listings: published, approved, not blocked (a partial block hides versions only), not
     * hidden, and not held back by the scans of all its versions.
     */
    listed: boolean('listed').generatedAlwaysAs(
      sql`lifecycle_state = 'published' AND approved AND block_state IN ('none', 'partial') AND NOT hidden
  AND NOT scan_held`,
    ),
    downloads: bigint('downloads', { mode: 'number' }).notNull().default(0),
    ratingCount: integer('rating_count').notNull().default(0),
    ratingTotal: integer('rating_total').notNull().default(0),
    ratingMean: doublePrecision('rating_mean').generatedAlwaysAs(
      sql`CASE WHEN rating_count > 0 THEN rating_total::double precision / rating_count ELSE 0 END`,
    ),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    publishedAt: timestamptz('published_at'),
    lastUpdatedAt: timestamptz('last_updated_at').notNull().defaultNow(),
    searchVector: tsvector('search_vector')
      .notNull()
      .default(sql`''::tsvector`),
    /** The transaction that last changed what a search answer shows of the plugin (set by a trigger). */
    changedByXact: xid8('changed_by_xact').notNull().default('0'),
  },
  (table) => [
    unique().on(table.family, table.xmlId),
    check('plugins_pricing_model_check', sql`${table.pricingModel} IN ('PAID', 'FREEMIUM', 'FREE')`),
    index('plugins_xml_id_idx').on(table.xmlId),
    index('plugins_vendor_idx').on(table.vendorId),
    index('plugins_owner_idx').on(table.ownerId),
    index('plugins_search_vector_idx').using('gin', table.searchVector),
    index('plugins_name_trgm_idx').using('gin', table.name.op('gin_trgm_ops')),
    index('plugins_listed_downloads_idx')
      .on(table.family, table.downloads.desc(), table.id.desc())
      .where(sql`listed`),
    index('plugins_listed_updated_idx')
      .on(table.family, table.lastUpdatedAt.desc(), table.id.desc())
      .where(sql`listed`),
    index('plugins_listed_published_idx')
      .on(table.family, table.publishedAt.desc(), table.id.desc())
      .where(sql`listed`),
    index('plugins_listed_name_idx')
      .on(table.family, sql`lower(name)`, table.id)
      .where(sql`listed`),
    index('plugins_listed_rating_idx')
      .on(table.family, table.ratingMean.desc(), table.ratingCount.desc(), table.id.desc())
      .where(sql`listed`),
    index('plugins_changed_by_xact_idx').on(table.changedByXact),
  ],
);

/** Ids of deleted plugin rows, with the deleting transaction (the search index drops them). */
export const pluginRemovals = pgTable(
  'plugin_removals',
  {
    pluginId: integer('plugin_id').notNull(),
    removedByXact: xid8('removed_by_xact')
      .notNull()
      .default(sql`pg_current_xact_id()`),
  },
  (table) => [index('plugin_removals_xact_idx').on(table.removedByXact)],
);

export const pluginTags = pgTable(
  'plugin_tags',
  {
    pluginId: integer('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
  },
  (table) => [
    primaryKey({ columns: [table.pluginId, table.tagId] }),
    index('plugin_tags_tag_idx').on(table.tagId, table.pluginId),
  ],
);

export const pluginDevelopers = pgTable(
  'plugin_developers',
  {
    pluginId: integer('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    addedAt: timestamptz('added_at').notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.pluginId, table.userId] }),
    index('plugin_developers_user_idx').on(table.userId, table.pluginId),
  ],
);

export const pluginScreenshots = pgTable(
  'plugin_screenshots',
  {
    id: serial('id').primaryKey(),
    pluginId: integer('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    fileHash: text('file_hash').notNull(),
    contentType: text('content_type').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [unique().on(table.pluginId, table.position)],
);

export const pluginDocumentationTabs = pgTable(
  'plugin_documentation_tabs',
  {
    id: serial('id').primaryKey(),
    pluginId: integer('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    tabName: text('tab_name').notNull(),
    urlSuffix: text('url_suffix').notNull(),
    position: integer('position').notNull(),
    contentHash: text('content_hash').notNull(),
    generateToc: boolean('generate_toc').notNull().default(false),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (table) => [unique().on(table.pluginId, table.urlSuffix)],
);

export const pluginLinks = pgTable(
  'plugin_links',
  {
    id: serial('id').primaryKey(),
    pluginId: integer('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: PLUGIN_LINK_KINDS }).notNull(),
    position: integer('position').notNull(),
    title: text('title').notNull(),
    url: text('url').notNull(),
  },
  (table) => [unique().on(table.pluginId, table.kind, table.position)],
);

export const pluginBundles = pgTable(
  'plugin_bundles',
  {
    bundleId: integer('bundle_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    memberId: integer('member_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.bundleId, table.memberId] }),
    index('plugin_bundles_member_idx').on(table.memberId),
  ],
);

export const pluginThemes = pgTable(
  'plugin_themes',
  {
    id: serial('id').primaryKey(),
    pluginId: integer('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    dark: boolean('dark').notNull(),
  },
  (table) => [unique().on(table.pluginId, table.name)],
);

export const pluginCompatibleProducts = pgTable(
  'plugin_compatible_products',
  {
    pluginId: integer('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    /** An IDE product key of @marketplace/core (IDEA, PYCHARM, ...). */
    product: text('product').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.pluginId, table.product] }),
    index('plugin_compatible_products_product_idx').on(table.product, table.pluginId),
  ],
);

const versionColumns = {
  id: serial('id').primaryKey(),
  pluginId: integer('plugin_id')
    .notNull()
    .references(() => plugins.id, { onDelete: 'cascade' }),
  version: text('version').notNull(),
  /** '' is the stable channel, as the IDE sends it. */
  channel: text('channel').notNull().default(''),
  sinceBuild: text('since_build').notNull(),
  untilBuild: text('until_build'),
  /**
   * The build bounds as numbers (core's parseBuildNumber; wildcards are BUILD_WILDCARD), compared by
   * PostgreSQL's array order, which is the IDE's build order.
   */
  sinceComponents: bigint('since_components', { mode: 'number' }).array().notNull(),
  untilComponents: bigint('until_components', { mode: 'number' }).array(),
  fileHash: text('file_hash').notNull(),
  fileSize: bigint('file_size', { mode: 'number' }).notNull(),
  fileName: text('file_name').notNull(),
  notes: text('notes').notNull().default(''),
  dependencies: text('dependencies')
    .array()
    .notNull()
    .default(sql`'{}'`),
  authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
  hidden: boolean('hidden').notNull().default(false),
  approvalState: text('approval_state', { enum: VERSION_APPROVAL_STATES }).notNull().default('pending'),
  downloads: bigint('downloads', { mode: 'number' }).notNull().default(0),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
  /** `<product-descriptor>` of plugin.xml, which paid versions declare (migration 0040). */
  productCode: text('product_code'),
  productReleaseDate: date('product_release_date', { mode: 'string' }),
  productReleaseVersion: integer('product_release_version'),
  productOptional: boolean('product_optional'),
  /** Where the version stands with its scan (migration 0092): only unscanned, passed and released are offered. */
  scanState: text('scan_state', { enum: VERSION_SCAN_STATES }).notNull().default('unscanned'),
};

export const pluginVersions = pgTable('plugin_versions', versionColumns, (table) => [
  unique().on(table.pluginId, table.channel, table.version),
  index('plugin_versions_latest_idx').on(
    table.pluginId,
    table.channel,
    table.createdAt.desc(),
    table.id.desc(),
  ),
  index('plugin_versions_file_hash_idx').on(table.fileHash),
  index('plugin_versions_scan_held_idx')
    .on(table.pluginId, table.id)
    .where(sql`scan_state IN ('pending', 'quarantined', 'rejected')`),
]);

/** The newest approved, visible version of each plugin in each channel. */
export const pluginLatestVersions = pgView('plugin_latest_versions', versionColumns).existing();

export const downloadCounts = pgTable(
  'download_counts',
  {
    /** The version's plugin; not a foreign key of its own (0002), the version's key covers it. */
    pluginId: integer('plugin_id').notNull(),
    versionId: integer('version_id')
      .notNull()
      .references(() => pluginVersions.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    count: integer('count').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.pluginId, table.day, table.versionId] }),
    index('download_counts_version_idx').on(table.versionId, table.day),
  ],
);

export const reviews = pgTable(
  'reviews',
  {
    id: serial('id').primaryKey(),
    pluginId: integer('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    authorId: integer('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rating: smallint('rating').notNull(),
    text: text('text').notNull().default(''),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (table) => [
    unique().on(table.pluginId, table.authorId),
    index('reviews_plugin_idx').on(table.pluginId, table.createdAt.desc(), table.id.desc()),
    index('reviews_author_idx').on(table.authorId, table.createdAt.desc(), table.id.desc()),
  ],
);

export const reviewCategoryRatings = pgTable(
  'review_category_ratings',
  {
    reviewId: integer('review_id')
      .notNull()
      .references(() => reviews.id, { onDelete: 'cascade' }),
    /** One of RATING_CATEGORIES of @marketplace/core. */
    category: text('category').notNull(),
    rating: smallint('rating').notNull(),
  },
  (table) => [primaryKey({ columns: [table.reviewId, table.category] })],
);

export const reviewReplies = pgTable(
  'review_replies',
  {
    id: serial('id').primaryKey(),
    reviewId: integer('review_id')
      .notNull()
      .references(() => reviews.id, { onDelete: 'cascade' }),
    authorId: integer('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (table) => [index('review_replies_review_idx').on(table.reviewId, table.createdAt)],
);

export const featuredPlugins = pgTable(
  'featured_plugins',
  {
    /** An IDE product key of @marketplace/core (IDEA, PYCHARM, ...). */
    product: text('product').notNull(),
    pluginId: integer('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.product, table.pluginId] }),
    index('featured_plugins_order_idx').on(table.product, table.position),
  ],
);

/** Bytes, as the drivers give them (Buffer on PostgreSQL, Uint8Array on PGlite). */
const bytea = customType<{ data: Uint8Array }>({
  dataType: () => 'bytea',
});

/** The IDE feed's pre-rendered fragments (migration 0004, src/ide-feed). */
export const ideFeedFragments = pgTable(
  'ide_feed_fragments',
  {
    versionId: integer('version_id')
      .primaryKey()
      .references(() => pluginVersions.id, { onDelete: 'cascade' }),
    sourceDigest: text('source_digest').notNull(),
    deflated: bytea('deflated').notNull(),
    plainLength: integer('plain_length').notNull(),
    crc: bigint('crc', { mode: 'number' }).notNull(),
    renderedAt: timestamptz('rendered_at').notNull().defaultNow(),
  },
  (table) => [
    check('ide_feed_fragments_plain_length_check', sql`${table.plainLength} >= 0`),
    check('ide_feed_fragments_crc_check', sql`${table.crc} >= 0 AND ${table.crc} < 4294967296`),
  ],
);
