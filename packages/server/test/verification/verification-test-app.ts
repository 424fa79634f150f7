import { sql } from 'drizzle-orm';
import type { DatabaseKind } from '../../src/db/client';
import { buildBoundColumns } from '../../src/db/catalogue-queries';
import { pluginVersions } from '../../src/db/schema';
import { selectRows } from '../../src/search/sql';
import {
  verificationEnvironment,
  verificationOptionsFromEnv,
  type VerificationEnvironment,
} from '../../src/verification';
import { archiveBytes, type ArchiveContent } from '../archive/plugin-fixtures';
import { createReviewsTestApp, type ReviewsTestApp } from '../reviews/reviews-test-app';

export interface VerificationTestApp extends ReviewsTestApp {
  env: VerificationEnvironment;
  users: { owner: number; other: number; admin: number };
  pluginId: number;
  /** Stores the archive and writes an approved version row of the test plugin; returns its id. */
  addVersion(input: {
    version: string;
    content?: ArchiveContent;
    fileHash?: string;
    since?: string;
    until?: string | null;
    channel?: string;
    pluginId?: number;
  }): Promise<number>;
  /** Adds a published plugin of `owner` (xml id given); returns its id. */
  addPlugin(xmlId: string, ownerId: number): Promise<number>;
}

/**
 * The real application (buildApp) with its verification worker's loop off: tests run the worker
 * themselves with `env`. A published plugin `com.example.rainbow` of the owner, an other developer and an
 * administrator are ready.
 */
export async function createVerificationTestApp(kind: DatabaseKind): Promise<VerificationTestApp> {
  process.env.VERIFICATION_INTERVAL_SECONDS = '0';
  const t = await createReviewsTestApp({ kind, catalogue: false });
  const env = verificationEnvironment(t.app, { ...verificationOptionsFromEnv(), workerIntervalMs: 0 });
  const users = {
    owner: await t.addUser('verification-owner'),
    other: await t.addUser('verification-other'),
    admin: await t.addUser('verification-admin', { isAdmin: true }),
  };
  const addPlugin = async (xmlId: string, ownerId: number) => {
    const [row] = await selectRows<{ id: number }>(
      t.db,
      sql`INSERT INTO plugins (family, xml_id, name, owner_id, lifecycle_state, approved, published_at)
        VALUES ('intellij', ${xmlId}, ${`Plugin ${xmlId}`}, ${ownerId}, 'published', true, now()) RETURNING id`,
    );
    return row!.id;
  };
  const pluginId = await addPlugin('com.example.rainbow', users.owner);
  return {
    ...t,
    env,
    users,
    pluginId,
    addPlugin,
    async addVersion(input) {
      const since = input.since ?? '241';
      const until = input.until === undefined ? '243.*' : input.until;
      let fileHash = input.fileHash ?? 'no-file';
      let fileSize = 0;
      if (input.content) {
        const stored = await t.app.fileStore.put(await archiveBytes(input.content));
        fileHash = stored.hash;
        fileSize = stored.size;
      }
      const [row] = await t.db
        .insert(pluginVersions)
        .values({
          pluginId: input.pluginId ?? pluginId,
          version: input.version,
          channel: input.channel ?? '',
          sinceBuild: since,
          untilBuild: until,
          ...buildBoundColumns(since, until),
          fileHash,
          fileSize,
          fileName: `rainbow-${input.version}.jar`,
          authorId: users.owner,
          approvalState: 'approved',
        })
        .returning({ id: pluginVersions.id });
      return row!.id;
    },
  };
}
