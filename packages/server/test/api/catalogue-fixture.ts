import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseBuildNumber, parseUntilBuild, type IdeProductKey } from '@marketplace/core';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import type { Database } from '../../src/db/client';
import * as schema from '../../src/db/schema';
import { createFileStore, type FileStore } from '../../src/storage';
import { createTestDatabase, type TestDatabase } from '../db/test-database';

/**
 * A small catalogue whose every row is known, so the API tests can assert exact answers: listed items
 * beside hidden, blocked, unapproved, draft and deleted ones; versions whose build bounds sit on every
 * boundary the IDE cares about; reviews (one by a banned user); downloads on known days; featured items.
 */
export const USERS = {
  alice: { id: 1, login: 'alice', name: 'Alice Owner' },
  bob: { id: 2, login: 'bob', name: 'Bob Developer' },
  carol: { id: 3, login: 'carol', name: 'Carol Reviewer' },
  mallory: { id: 4, login: 'mallory', name: 'Mallory Banned', banned: true },
} as const;

export const TAGS = { codeTools: 1, vcs: 2, theme: 164 } as const;

/** Plugin ids by what they are for the tests. */
export const PLUGINS = {
  gitToolbox: 1,
  kotlinFest: 2,
  darculaTheme: 3,
  hidden: 4,
  blocked: 5,
  unapproved: 6,
  draft: 7,
  teamcityNotifier: 8,
  deleted: 9,
  pythonLinter: 10,
} as const;

/** Ids of plugins a visitor must never see anywhere. */
export const INVISIBLE_PLUGINS = [
  PLUGINS.hidden,
  PLUGINS.blocked,
  PLUGINS.unapproved,
  PLUGINS.draft,
  PLUGINS.deleted,
] as const;

/** Version ids by meaning. */
export const VERSIONS = {
  gitToolbox231: 1,
  gitToolbox241: 2,
  gitToolbox242Open: 3,
  gitToolboxEap: 4,
  gitToolboxPending: 5,
  gitToolboxHidden: 6,
  kotlinFestExact241: 7,
  darculaLargeUntil: 8,
  pythonLinter: 9,
  hiddenPlugin: 10,
  blockedPlugin: 11,
  unapprovedPlugin: 12,
  draftPlugin: 13,
  teamcity: 14,
  deletedPlugin: 15,
} as const;

export function archiveBytes(versionId: number): Buffer {
  return Buffer.from(`PK\u0003\u0004 archive of version ${versionId}`);
}

const day = (text: string) => new Date(`${text}T12:00:00Z`);

export interface ApiTestContext {
  app: FastifyInstance;
  db: Database;
  fileStore: FileStore;
  config: Config;
  close(): Promise<void>;
}

export async function seedCatalogue(db: Database, fileStore: FileStore): Promise<void> {
  await db.insert(schema.users).values(
    Object.values(USERS).map((user) => ({
      id: user.id,
      login: user.login,
      name: user.name,
      email: `${user.login}@example.com`,
      banned: 'banned' in user ? user.banned : false,
      createdAt: day('2024-01-01'),
    })),
  );
  await db.execute(sql`SELECT setval('users_id_seq', 100)`);
  await db.insert(schema.vendors).values([
    { id: 1, name: 'Acme Tools', url: 'https://acme.example.com', email: 'plugins@acme.example.com' },
    { id: 2, name: 'Jet Fans', url: null },
  ]);
  await db.insert(schema.tags).values([
    { id: TAGS.codeTools, name: 'Code tools', families: ['intellij'] },
    { id: TAGS.vcs, name: 'VCS', families: ['intellij'] },
    { id: TAGS.theme, name: 'Theme', families: ['intellij'] },
  ]);

  const listed = { lifecycleState: 'published' as const, approved: true };
  const base = (
    id: number,
    name: string,
    xmlId: string,
    extra: Partial<typeof schema.plugins.$inferInsert>,
  ) => ({
    id,
    name,
    xmlId,
    family: 'intellij',
    ownerId: USERS.alice.id,
    vendorId: 1,
    createdAt: day('2024-02-01'),
    publishedAt: day('2024-02-02'),
    ...listed,
    ...extra,
  });
  await db.insert(schema.plugins).values([
    base(PLUGINS.gitToolbox, 'Git Toolbox', 'com.example.gittoolbox', {
      description: '<p>Extends the <b>Git</b> integration with status, blame and fetch.</p>',
      downloads: 5000,
      url: 'https://acme.example.com/git',
      sourceCodeUrl: 'https://github.com/acme/gittoolbox',
      publishedAt: day('2024-03-01'),
      lastUpdatedAt: day('2026-01-10'),
    }),
    base(PLUGINS.kotlinFest, 'Kotlin Fest', 'org.kotlinfest', {
      description: 'Kotlin coroutine debugging and refactorings.',
      pricingModel: 'PAID',
      downloads: 100,
      vendorId: 2,
      publishedAt: day('2024-05-01'),
      lastUpdatedAt: day('2025-05-01'),
    }),
    base(PLUGINS.darculaTheme, 'Darcula Pro Theme', 'com.example.darcula', {
      description: 'A dark theme with high contrast.',
      pricingModel: 'FREEMIUM',
      downloads: 2500,
      publishedAt: day('2024-04-01'),
      lastUpdatedAt: day('2025-04-01'),
    }),
    base(PLUGINS.hidden, 'Secret Git Helper', 'com.example.secret', { hidden: true, downloads: 9000 }),
    base(PLUGINS.blocked, 'Blocked Git Tool', 'com.example.blocked', {
      blockState: 'blocked',
      downloads: 9000,
    }),
    base(PLUGINS.unapproved, 'Pending Git Tool', 'com.example.pending', { approved: false, downloads: 9000 }),
    base(PLUGINS.draft, 'Draft Git Tool', 'com.example.draft', { lifecycleState: 'draft', downloads: 9000 }),
    base(PLUGINS.teamcityNotifier, 'TeamCity Notifier', 'com.example.notifier', {
      family: 'teamcity',
      downloads: 10,
      publishedAt: day('2024-06-01'),
      lastUpdatedAt: day('2025-01-01'),
    }),
    base(PLUGINS.deleted, 'Deleted Git Tool', 'com.example.deleted', {
      lifecycleState: 'deleted',
      downloads: 9000,
    }),
    base(PLUGINS.pythonLinter, 'Python Linter', 'com.example.pylint', {
      description: 'Lints Python code as you type.',
      ownerId: USERS.bob.id,
      downloads: 700,
      publishedAt: day('2024-07-01'),
      lastUpdatedAt: day('2025-07-01'),
    }),
  ]);
  await db.execute(sql`SELECT setval('plugins_id_seq', 100)`);

  await db.insert(schema.pluginTags).values([
    { pluginId: PLUGINS.gitToolbox, tagId: TAGS.vcs },
    { pluginId: PLUGINS.gitToolbox, tagId: TAGS.codeTools },
    { pluginId: PLUGINS.kotlinFest, tagId: TAGS.codeTools },
    { pluginId: PLUGINS.darculaTheme, tagId: TAGS.theme },
    { pluginId: PLUGINS.hidden, tagId: TAGS.vcs },
  ]);
  await db.insert(schema.pluginDevelopers).values([{ pluginId: PLUGINS.gitToolbox, userId: USERS.bob.id }]);
  const products: [number, IdeProductKey][] = [
    [PLUGINS.gitToolbox, 'IDEA'],
    [PLUGINS.gitToolbox, 'IDEA_COMMUNITY'],
    [PLUGINS.kotlinFest, 'IDEA'],
    [PLUGINS.pythonLinter, 'PYCHARM'],
    [PLUGINS.pythonLinter, 'PYCHARM_PRO'],
    [PLUGINS.pythonLinter, 'PYCHARM_COMMUNITY'],
  ];
  await db
    .insert(schema.pluginCompatibleProducts)
    .values(products.map(([pluginId, product]) => ({ pluginId, product })));
  await db.insert(schema.pluginBundles).values([
    { bundleId: PLUGINS.gitToolbox, memberId: PLUGINS.kotlinFest, position: 1 },
    { bundleId: PLUGINS.gitToolbox, memberId: PLUGINS.hidden, position: 2 },
  ]);
  await db
    .insert(schema.pluginThemes)
    .values([{ pluginId: PLUGINS.darculaTheme, name: 'Darcula Pro', dark: true }]);
  await db.insert(schema.pluginLinks).values([
    {
      pluginId: PLUGINS.gitToolbox,
      kind: 'donation',
      position: 1,
      title: 'Sponsor',
      url: 'https://sponsor.example.com',
    },
  ]);

  const version = (
    id: number,
    pluginId: number,
    versionText: string,
    since: string,
    until: string | null,
    created: string,
    extra: Partial<typeof schema.pluginVersions.$inferInsert> = {},
  ) => ({
    id,
    pluginId,
    version: versionText,
    sinceBuild: since,
    untilBuild: until,
    sinceComponents: parseBuildNumber(since)!.components,
    untilComponents: until === null ? null : parseUntilBuild(until)!.components,
    fileHash: '',
    fileSize: archiveBytes(id).length,
    fileName: `plugin-${id}.zip`,
    notes: `<p>Changes in ${versionText}</p>`,
    approvalState: 'approved' as const,
    createdAt: day(created),
    ...extra,
  });
  const versions = [
    version(VERSIONS.gitToolbox231, PLUGINS.gitToolbox, '1.0', '231', '233.*', '2025-01-10'),
    version(VERSIONS.gitToolbox241, PLUGINS.gitToolbox, '2.0', '241', '241.*', '2025-06-10', {
      dependencies: ['com.intellij.modules.platform', 'Git4Idea'],
    }),
    version(VERSIONS.gitToolbox242Open, PLUGINS.gitToolbox, '3.0', '242.100', null, '2025-12-10', {
      notes: 'Fixed <b>blame</b> ]]> parsing',
      fileName: 'gittoolbox-3.0.jar',
    }),
    version(VERSIONS.gitToolboxEap, PLUGINS.gitToolbox, '3.1-eap', '243', null, '2026-01-10', {
      channel: 'eap',
    }),
    version(VERSIONS.gitToolboxPending, PLUGINS.gitToolbox, '4.0', '251', null, '2026-02-10', {
      approvalState: 'pending',
    }),
    version(VERSIONS.gitToolboxHidden, PLUGINS.gitToolbox, '3.5', '251', null, '2026-02-11', {
      hidden: true,
    }),
    version(VERSIONS.kotlinFestExact241, PLUGINS.kotlinFest, '1.0', '241', '241', '2025-05-01'),
    version(VERSIONS.darculaLargeUntil, PLUGINS.darculaTheme, '1.0', '193', '999.9999', '2025-04-01'),
    version(VERSIONS.pythonLinter, PLUGINS.pythonLinter, '1.0', '241', null, '2025-07-01'),
    version(VERSIONS.hiddenPlugin, PLUGINS.hidden, '1.0', '200', null, '2025-01-01'),
    version(VERSIONS.blockedPlugin, PLUGINS.blocked, '1.0', '200', null, '2025-01-01'),
    version(VERSIONS.unapprovedPlugin, PLUGINS.unapproved, '1.0', '200', null, '2025-01-01'),
    version(VERSIONS.draftPlugin, PLUGINS.draft, '1.0', '200', null, '2025-01-01'),
    version(VERSIONS.teamcity, PLUGINS.teamcityNotifier, '1.0', '200', null, '2025-01-01'),
    version(VERSIONS.deletedPlugin, PLUGINS.deleted, '1.0', '200', null, '2025-01-01'),
  ];
  for (const row of versions) {
    row.fileHash = (await fileStore.put(archiveBytes(row.id))).hash;
  }
  await db.insert(schema.pluginVersions).values(versions);
  await db.execute(sql`SELECT setval('plugin_versions_id_seq', 100)`);

  const reviews = [
    {
      id: 1,
      pluginId: PLUGINS.gitToolbox,
      authorId: USERS.carol.id,
      rating: 5,
      text: 'Indispensable.',
      createdAt: day('2026-10-01'),
    },
    {
      id: 2,
      pluginId: PLUGINS.gitToolbox,
      authorId: USERS.bob.id,
      rating: 4,
      text: 'Good, a bit slow.',
      createdAt: day('2026-10-05'),
    },
    {
      id: 3,
      pluginId: PLUGINS.gitToolbox,
      authorId: USERS.mallory.id,
      rating: 1,
      text: 'spam spam',
      createdAt: day('2026-10-06'),
    },
    {
      id: 4,
      pluginId: PLUGINS.hidden,
      authorId: USERS.carol.id,
      rating: 3,
      text: 'Hidden review',
      createdAt: day('2026-10-07'),
    },
    {
      id: 5,
      pluginId: PLUGINS.kotlinFest,
      authorId: USERS.carol.id,
      rating: 2,
      text: 'Crashes.',
      createdAt: day('2026-10-08'),
    },
  ];
  await db
    .insert(schema.reviews)
    .values(reviews.map((review) => ({ ...review, updatedAt: review.createdAt })));
  await db.insert(schema.reviewCategoryRatings).values([
    { reviewId: 1, category: 'PERFORMANCE', rating: 5 },
    { reviewId: 2, category: 'PERFORMANCE', rating: 2 },
    { reviewId: 1, category: 'USER_INTERFACE', rating: 4 },
    // By banned Mallory: left out of every rating.
    { reviewId: 3, category: 'PERFORMANCE', rating: 1 },
  ]);
  await db
    .insert(schema.reviewReplies)
    .values([
      { reviewId: 2, authorId: USERS.alice.id, text: 'Faster in 3.0.', createdAt: day('2026-10-06') },
    ]);
  await db.insert(schema.downloadCounts).values([
    { pluginId: PLUGINS.gitToolbox, versionId: VERSIONS.gitToolbox242Open, day: '2026-11-18', count: 3 },
    { pluginId: PLUGINS.gitToolbox, versionId: VERSIONS.gitToolbox242Open, day: '2026-11-20', count: 2 },
    { pluginId: PLUGINS.gitToolbox, versionId: VERSIONS.gitToolbox241, day: '2026-11-20', count: 1 },
  ]);
  await db.insert(schema.featuredPlugins).values([
    { product: 'IDEA', pluginId: PLUGINS.hidden, position: 0 },
    { product: 'IDEA', pluginId: PLUGINS.darculaTheme, position: 1 },
    { product: 'IDEA', pluginId: PLUGINS.gitToolbox, position: 2 },
    { product: 'TEAMCITY', pluginId: PLUGINS.teamcityNotifier, position: 1 },
  ]);
}

/** Builds the app on a fresh database (PGlite in memory unless TEST_DATABASE=postgres) holding the catalogue. */
export interface ApiTestOptions {
  /** Extra environment for loadConfig (the answer cache is off unless RESPONSE_CACHE_MS is given). */
  env?: Record<string, string>;
  /** Adds routes before the app is ready (to test the error handling of failures). */
  extend?: (app: FastifyInstance) => void;
  /** The file store to use (default: a disk store in a temporary folder), given the configuration. */
  fileStore?: (config: Config) => Promise<FileStore>;
}

export async function createApiTestContext(options: ApiTestOptions = {}): Promise<ApiTestContext> {
  const env = options.env ?? {};
  const testDatabase: TestDatabase = await createTestDatabase();
  const directory = await mkdtemp(join(tmpdir(), 'marketplace-api-'));
  const config = loadConfig(
    { RESPONSE_CACHE_MS: '0', PUBLIC_URL: 'https://plugins.example.com', ...env },
    [],
    directory,
  );
  let fileStore: FileStore;
  try {
    fileStore = options.fileStore ? await options.fileStore(config) : createFileStore(directory);
    await seedCatalogue(testDatabase.database.db, fileStore);
  } catch (error) {
    await testDatabase.dispose();
    throw error;
  }
  const app = await buildApp({ database: testDatabase.database, fileStore, config });
  options.extend?.(app);
  await app.ready();
  return {
    app,
    db: testDatabase.database.db,
    fileStore,
    config,
    async close() {
      await app.close();
      await testDatabase.dispose();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
