/**
 * The real marketplace server on loopback for the client's tests: the server's own app on a fresh test
 * database and file store, listening on a free port, with a small catalogue written straight to the tables.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../../server/src/app';
import { loadConfig } from '../../../server/src/config';
import { buildBoundColumns } from '../../../server/src/db/catalogue-queries';
import {
  downloadCounts,
  featuredPlugins,
  pluginBundles,
  pluginCompatibleProducts,
  pluginDevelopers,
  pluginTags,
  plugins,
  pluginVersions,
  reviewCategoryRatings,
  reviews,
  tags,
  users,
  vendors,
} from '../../../server/src/db/schema';
import { createApiToken } from '../../../server/src/auth/api-tokens';
import { createFileStore } from '../../../server/src/storage';
import { createTestDatabase, type TestDatabase } from '../../../server/test/db/test-database';

export interface Catalogue {
  vendorName: string;
  /** The item most tests read: three versions, reviews, developers, tags and statistics. */
  mainPluginId: number;
  mainPluginName: string;
  mainPluginXmlId: string;
  bundleId: number;
  /** Items of the "Formatting" tag, 'Formatter 01' ... 'Formatter 25'. */
  formatterIds: number[];
  ownerId: number;
  /** A permanent API token of the owner (scopes upload and manage) and its id. */
  ownerToken: string;
  ownerTokenId: number;
  /** A token of the first reviewer (who has reviewed only the main item). */
  reviewerToken: string;
  /** A draft only its owner may see. */
  draftPluginId: number;
  reviewerIds: number[];
  /** Versions of the main item, oldest first: 1.0.0, 1.1.0, 2.0.0 (the last one for 243+). */
  versionIds: number[];
  /** The bytes of every version's archive. */
  archiveBytes: Uint8Array;
}

export interface RunningMarketplace {
  origin: string;
  app: Awaited<ReturnType<typeof buildApp>>;
  catalogue: Catalogue;
  close(): Promise<void>;
}

const ARCHIVE_TEXT = 'PK\u0003\u0004 not really a zip, but bytes the download must return unchanged';

async function seed(
  testDatabase: TestDatabase,
  archiveHash: string,
  archiveSize: number,
): Promise<Catalogue> {
  const db = testDatabase.database.db;
  const [vendor] = await db
    .insert(vendors)
    .values({ name: 'Acme Tools', url: 'https://acme.example' })
    .returning();
  const insertedUsers = await db
    .insert(users)
    .values([
      { login: 'owner', name: 'Olga Owner' },
      ...Array.from({ length: 5 }, (_, index) => ({ login: `reviewer${index}`, name: `Reviewer ${index}` })),
    ])
    .returning({ id: users.id });
  const [owner, ...reviewers] = insertedUsers.map((user) => user.id);
  const [formatting] = await db
    .insert(tags)
    .values({ name: 'Formatting', families: ['intellij'] })
    .returning();
  const [linting] = await db
    .insert(tags)
    .values({ name: 'Linting', families: ['intellij'] })
    .returning();

  const day = Date.UTC(2026, 10, 1);
  const [main] = await db
    .insert(plugins)
    .values({
      family: 'intellij',
      xmlId: 'com.acme.bracket.colorizer',
      name: 'Bracket Colorizer',
      description: '<p>Paints matching brackets in distinct colours.</p>',
      vendorId: vendor!.id,
      ownerId: owner!,
      lifecycleState: 'published',
      approved: true,
      pricingModel: 'FREE',
      downloads: 1234,
      createdAt: new Date(day),
      publishedAt: new Date(day),
    })
    .returning();
  const formatters = await db
    .insert(plugins)
    .values(
      Array.from({ length: 25 }, (_, index) => ({
        family: 'intellij',
        xmlId: `com.acme.formatter${String(index + 1).padStart(2, '0')}`,
        name: `Formatter ${String(index + 1).padStart(2, '0')}`,
        description: '<p>Formats code.</p>',
        vendorId: vendor!.id,
        ownerId: owner!,
        lifecycleState: 'published' as const,
        approved: true,
        downloads: 100 + index,
        createdAt: new Date(day + index * 60_000),
        publishedAt: new Date(day + index * 60_000),
      })),
    )
    .returning({ id: plugins.id });
  const [bundle] = await db
    .insert(plugins)
    .values({
      family: 'intellij',
      xmlId: 'com.acme.bundle',
      name: 'Acme Essentials',
      vendorId: vendor!.id,
      ownerId: owner!,
      lifecycleState: 'published',
      approved: true,
      pricingModel: 'PAID',
    })
    .returning();
  const [draft] = await db
    .insert(plugins)
    .values({
      family: 'intellij',
      xmlId: 'com.acme.draft',
      name: 'Unreleased Tool',
      ownerId: owner!,
      vendorId: vendor!.id,
    })
    .returning();
  const ownerToken = await createApiToken(db, {
    userId: owner!,
    name: 'tests',
    scopes: ['upload', 'manage'],
  });
  const reviewerToken = await createApiToken(db, {
    userId: reviewers[0]!,
    name: 'tests',
    scopes: ['manage'],
  });
  await db.insert(pluginBundles).values([
    { bundleId: bundle!.id, memberId: main!.id, position: 0 },
    { bundleId: bundle!.id, memberId: formatters[0]!.id, position: 1 },
  ]);
  await db
    .insert(pluginTags)
    .values([
      { pluginId: main!.id, tagId: linting!.id },
      ...formatters.map((plugin) => ({ pluginId: plugin.id, tagId: formatting!.id })),
    ]);
  await db.insert(pluginDevelopers).values({ pluginId: main!.id, userId: reviewers[0]! });
  await db.insert(pluginCompatibleProducts).values([
    { pluginId: main!.id, product: 'IDEA' },
    { pluginId: main!.id, product: 'PYCHARM' },
  ]);
  await db.insert(featuredPlugins).values([
    { product: 'IDEA', pluginId: main!.id, position: 1 },
    { product: 'IDEA', pluginId: formatters[4]!.id, position: 0 },
  ]);

  const versionIds: number[] = [];
  for (const [index, [version, since, until]] of (
    [
      ['1.0.0', '241', '242.*'],
      ['1.1.0', '241', '243.*'],
      ['2.0.0', '243', null],
    ] as const
  ).entries()) {
    const [row] = await db
      .insert(pluginVersions)
      .values({
        pluginId: main!.id,
        version,
        sinceBuild: since,
        untilBuild: until,
        ...buildBoundColumns(since, until),
        fileHash: archiveHash,
        fileSize: archiveSize,
        fileName: `bracket-colorizer-${version}.zip`,
        notes: `<p>Release ${version}</p>`,
        approvalState: 'approved',
        createdAt: new Date(day + index * 86_400_000),
      })
      .returning({ id: pluginVersions.id });
    versionIds.push(row!.id);
  }
  await db.insert(downloadCounts).values([
    { pluginId: main!.id, versionId: versionIds[2]!, day: '2026-11-02', count: 7 },
    { pluginId: main!.id, versionId: versionIds[2]!, day: '2026-11-04', count: 3 },
  ]);

  for (const [index, reviewerId] of reviewers.entries()) {
    const [review] = await db
      .insert(reviews)
      .values({
        pluginId: main!.id,
        authorId: reviewerId,
        rating: 5 - (index % 2),
        text: `Review number ${index + 1}`,
        createdAt: new Date(day + index * 3_600_000),
      })
      .returning({ id: reviews.id });
    await db
      .insert(reviewCategoryRatings)
      .values({ reviewId: review!.id, category: 'PERFORMANCE', rating: 4 });
  }

  return {
    vendorName: vendor!.name,
    mainPluginId: main!.id,
    mainPluginName: main!.name,
    mainPluginXmlId: main!.xmlId,
    bundleId: bundle!.id,
    formatterIds: formatters.map((plugin) => plugin.id),
    ownerId: owner!,
    ownerToken: ownerToken.token,
    ownerTokenId: ownerToken.id,
    reviewerToken: reviewerToken.token,
    draftPluginId: draft!.id,
    reviewerIds: reviewers,
    versionIds,
    archiveBytes: new TextEncoder().encode(ARCHIVE_TEXT),
  };
}

/** Starts the marketplace on 127.0.0.1 with a free port; close() stops it and removes its data. */
export async function startMarketplace(): Promise<RunningMarketplace> {
  const dataDir = await mkdtemp(join(tmpdir(), 'mp-api-client-'));
  const testDatabase = await createTestDatabase();
  try {
    const fileStore = createFileStore(join(dataDir, 'files'));
    const archiveBytes = new TextEncoder().encode(ARCHIVE_TEXT);
    const stored = await fileStore.put(archiveBytes);
    const catalogue = await seed(testDatabase, stored.hash, stored.size);
    const config = loadConfig(
      {
        PORT: '0',
        LOG_LEVEL: 'silent',
        DEMO: 'false',
        RESPONSE_CACHE_MS: '0',
        PUBLIC_URL: 'http://marketplace.test',
      },
      [],
      dataDir,
    );
    const app = await buildApp({ database: testDatabase.database, fileStore, config });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    return {
      origin: `http://127.0.0.1:${port}`,
      app,
      catalogue,
      async close() {
        await app.close();
        await testDatabase.dispose();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await testDatabase.dispose();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}
