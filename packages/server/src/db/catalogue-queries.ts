import { parseBuildNumber, parseUntilBuild } from '@marketplace/core';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from './client';
import { downloadCounts, pluginLatestVersions, plugins, pluginVersions } from './schema';
import { OFFERED_SCAN_STATES } from '../search/sql';

export class InvalidBuildNumberError extends Error {
  override name = 'InvalidBuildNumberError';
  constructor(readonly value: string) {
    super(`"${value}" is not a build number (expected something like 241.14494 or IU-241.14494.240).`);
  }
}

/**
 * The comparable form of a version's build bounds, for the since/until component columns. The until bound is
 * read as the IDE reads it (an explicit large until such as 145.9999 means 145.*), so the feeds agree with
 * core's isCompatibleBuild.
 */
export function buildBoundColumns(
  sinceBuild: string,
  untilBuild: string | null | undefined,
): { sinceComponents: number[]; untilComponents: number[] | null } {
  const since = parseBuildNumber(sinceBuild);
  if (!since) throw new InvalidBuildNumberError(sinceBuild);
  if (untilBuild == null || untilBuild.trim() === '')
    return { sinceComponents: since.components, untilComponents: null };
  const until = parseUntilBuild(untilBuild);
  if (!until) throw new InvalidBuildNumberError(untilBuild);
  return { sinceComponents: since.components, untilComponents: until.components };
}

/** A bigint[] literal for comparisons with the component columns. */
export function buildComponentsSql(components: readonly number[]): SQL {
  return sql`${`{${components.map((component) => Math.trunc(component)).join(',')}}`}::bigint[]`;
}

export interface LatestVersionsQuery {
  /** '' is the stable channel. */
  channel?: string;
  /** Only versions compatible with this IDE build (core's parseBuildNumber components). */
  buildComponents?: readonly number[];
  pluginIds?: readonly number[];
  xmlIds?: readonly string[];
  family?: string;
  /** Only plugins shown in public listings (default true). */
  listedOnly?: boolean;
}

/**
 * The newest approved, visible version (not held by its scan) of each plugin in one channel, optionally only among the versions
 * compatible with an IDE build: what the IDE feeds and compatible-update searches answer.
 */
export async function selectLatestVersions(db: Queryable, query: LatestVersionsQuery = {}) {
  const conditions: SQL[] = [
    eq(pluginVersions.channel, query.channel ?? ''),
    eq(pluginVersions.approvalState, 'approved'),
    eq(pluginVersions.hidden, false),
    // Held back by its scan (pending, quarantined, rejected): not offered (src/trust/scanning).
    inArray(pluginVersions.scanState, [...OFFERED_SCAN_STATES]),
  ];
  if (query.buildComponents) {
    const build = buildComponentsSql(query.buildComponents);
    conditions.push(
      sql`${pluginVersions.sinceComponents} <= ${build}`,
      sql`(${pluginVersions.untilComponents} IS NULL OR ${build} <= ${pluginVersions.untilComponents})`,
    );
  }
  if (query.pluginIds) conditions.push(inArray(pluginVersions.pluginId, [...query.pluginIds]));
  if (query.xmlIds) conditions.push(inArray(plugins.xmlId, [...query.xmlIds]));
  if (query.family) conditions.push(eq(plugins.family, query.family));
  if (query.listedOnly ?? true) conditions.push(eq(plugins.listed, true));
  return db
    .selectDistinctOn([pluginVersions.pluginId], { version: pluginVersions, plugin: plugins })
    .from(pluginVersions)
    .innerJoin(plugins, eq(plugins.id, pluginVersions.pluginId))
    .where(and(...conditions))
    .orderBy(pluginVersions.pluginId, sql`${pluginVersions.createdAt} DESC`, sql`${pluginVersions.id} DESC`);
}

/** The newest approved, visible version of every channel of one plugin (from the plugin_latest_versions view). */
export async function selectLatestVersionPerChannel(db: Queryable, pluginId: number) {
  return db.select().from(pluginLatestVersions).where(eq(pluginLatestVersions.pluginId, pluginId));
}

/** The UTC calendar day of a moment, as download_counts stores it. */
export function utcDay(moment: Date): string {
  return moment.toISOString().slice(0, 10);
}

/**
 * Counts one download of a version: the version's total, the plugin's total and the day's counter move
 * together, in one transaction (a savepoint when the caller is already in one). Answers false, changing
 * nothing, when the version does not exist.
 */
export async function recordDownload(
  db: Queryable,
  versionId: number,
  at: Date = new Date(),
): Promise<boolean> {
  return db.transaction(async (tx) => {
    // A count is not a catalogue change the other nodes must hear at once (migration 0086): they read the
    // new counts with their next look. The setting lasts until the end of the enclosing transaction.
    await tx.execute(sql`SELECT set_config('mp.counter_only', 'on', true)`);
    const [version] = await tx
      .update(pluginVersions)
      .set({ downloads: sql`${pluginVersions.downloads} + 1` })
      .where(eq(pluginVersions.id, versionId))
      .returning({ pluginId: pluginVersions.pluginId });
    if (!version) return false;
    await tx
      .update(plugins)
      .set({ downloads: sql`${plugins.downloads} + 1` })
      .where(eq(plugins.id, version.pluginId));
    await tx
      .insert(downloadCounts)
      .values({ pluginId: version.pluginId, versionId, day: utcDay(at), count: 1 })
      .onConflictDoUpdate({
        target: [downloadCounts.pluginId, downloadCounts.day, downloadCounts.versionId],
        set: { count: sql`${downloadCounts.count} + 1` },
      });
    return true;
  });
}
