import {
  MIRROR_INTERVAL_MAX_SECONDS,
  MIRROR_INTERVAL_MIN_SECONDS,
  MIRROR_MAX_BUILDS,
  MIRROR_MAX_PLUGIN_IDS,
  type MirrorSyncRunBody,
  type MirrorUpstreamBody,
} from '@marketplace/api-contract';
import { parseBuildNumber } from '@marketplace/core';
import { eq, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client';
import { mirrorUpstreams } from '../../db/schema';
import { recordAdminAudit } from '../../admin/audit';
import { ApiError } from '../../plugins/app/errors';
import { selectRows } from '../../search/sql';
import { DEFAULT_MIRROR_BUILDS, DEFAULT_UPSTREAM_INTERVAL_SECONDS } from './options';

export type MirrorUpstreamRow = typeof mirrorUpstreams.$inferSelect;

/**
 * The base URL of a marketplace as stored: scheme, host, port and path without a trailing slash, without the
 * feed's own path when it was pasted whole (`…/plugins/list/?build=…`). Undefined for anything else.
 */
export function normalizeBaseUrl(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username !== '' || url.password !== '' || url.hostname === '') return undefined;
  const path = url.pathname.replace(/\/plugins\/list\/?$/, '').replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}`;
}

const PLUGIN_ID = /^[^\s,<>&"'\\]{1,255}$/;

interface UpstreamInput {
  baseUrl?: string | undefined;
  pluginIds?: readonly string[] | undefined;
  builds?: readonly string[] | undefined;
  intervalSeconds?: number | undefined;
  enabled?: boolean | undefined;
}

/** The fields checked and normalised; a mistake is a 400 with a sentence, and nothing is written. */
function validated(input: UpstreamInput, ownUrl: string) {
  const result: Partial<{
    baseUrl: string;
    pluginIds: string[];
    builds: string[];
    intervalSeconds: number;
    enabled: boolean;
  }> = {};
  if (input.baseUrl !== undefined) {
    const baseUrl = normalizeBaseUrl(input.baseUrl);
    if (baseUrl === undefined) {
      throw new ApiError(
        'validation',
        `"${input.baseUrl.trim().slice(0, 200)}" is not a marketplace address: write it like https://plugins.jetbrains.com (http or https, no user name or password).`,
      );
    }
    if (normalizeBaseUrl(ownUrl) === baseUrl) {
      throw new ApiError(
        'validation',
        `${baseUrl} is this marketplace's own address: it cannot mirror itself.`,
      );
    }
    result.baseUrl = baseUrl;
  }
  if (input.pluginIds !== undefined) {
    const ids = [...new Set(input.pluginIds.map((id) => id.trim()).filter((id) => id !== ''))];
    const wrong = ids.find((id) => !PLUGIN_ID.test(id));
    if (wrong !== undefined) {
      throw new ApiError(
        'validation',
        `"${wrong.slice(0, 100)}" is not a plugin id: give the ids of plugin.xml (e.g. com.example.tool), without spaces or commas.`,
      );
    }
    if (ids.length > MIRROR_MAX_PLUGIN_IDS) {
      throw new ApiError(
        'validation',
        `Choose at most ${MIRROR_MAX_PLUGIN_IDS} plugins, or mirror them all.`,
      );
    }
    result.pluginIds = ids;
  }
  if (input.builds !== undefined) {
    const builds = [...new Set(input.builds.map((build) => build.trim()).filter((build) => build !== ''))];
    const wrong = builds.find((build) => !parseBuildNumber(build));
    if (wrong !== undefined) {
      throw new ApiError(
        'validation',
        `"${wrong.slice(0, 100)}" is not an IDE build number: write it like IU-243.28141.18.`,
      );
    }
    if (builds.length > MIRROR_MAX_BUILDS) {
      throw new ApiError('validation', `Give at most ${MIRROR_MAX_BUILDS} IDE builds.`);
    }
    result.builds = builds.length > 0 ? builds : [...DEFAULT_MIRROR_BUILDS];
  }
  if (input.intervalSeconds !== undefined) {
    const seconds = input.intervalSeconds;
    if (
      !Number.isInteger(seconds) ||
      seconds < MIRROR_INTERVAL_MIN_SECONDS ||
      seconds > MIRROR_INTERVAL_MAX_SECONDS
    ) {
      throw new ApiError(
        'validation',
        `The interval must be a whole number of seconds from ${MIRROR_INTERVAL_MIN_SECONDS} (a minute) to ${MIRROR_INTERVAL_MAX_SECONDS} (30 days).`,
      );
    }
    result.intervalSeconds = seconds;
  }
  if (input.enabled !== undefined) result.enabled = input.enabled;
  return result;
}

export function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

/** A PostgreSQL unique violation (23505), found through the causes drivers and Drizzle wrap it in. */
export function isUniqueViolation(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

function addressTaken(baseUrl: string, cause?: unknown): ApiError {
  return new ApiError('conflict', `${baseUrl} is mirrored already: change that upstream instead.`, { cause });
}

async function refuseTakenAddress(db: Queryable, baseUrl: string, exceptId?: number): Promise<void> {
  const [taken] = await db
    .select({ id: mirrorUpstreams.id })
    .from(mirrorUpstreams)
    .where(eq(mirrorUpstreams.baseUrl, baseUrl));
  if (taken && taken.id !== exceptId) throw addressTaken(baseUrl);
}

/**
 * For the `catch` of a write that stores `baseUrl`: when another administrator committed the same address
 * after the check above (two adds at once), the unique key of base_url answers, and it is the same conflict.
 */
function addressConflict(baseUrl: string | undefined): (error: unknown) => never {
  return (error) => {
    if (baseUrl !== undefined && isUniqueViolation(error)) throw addressTaken(baseUrl, error);
    throw error;
  };
}

interface RunRow {
  id: number;
  upstream_id: number;
  started_at: number;
  finished_at: number | null;
  outcome: MirrorSyncRunBody['outcome'];
  imported: number;
  present: number;
  failed: number;
  problems: string[];
  notes: string[];
}

function runView(row: RunRow): MirrorSyncRunBody {
  return {
    id: row.id,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    outcome: row.outcome,
    imported: row.imported,
    present: row.present,
    failed: row.failed,
    problems: row.problems,
    notes: row.notes,
  };
}

function upstreamView(row: MirrorUpstreamRow, mirroredItems: number, runs: RunRow[]): MirrorUpstreamBody {
  return {
    id: row.id,
    baseUrl: row.baseUrl,
    host: hostOf(row.baseUrl),
    pluginIds: row.pluginIds,
    allPlugins: row.pluginIds.length === 0,
    builds: row.builds,
    intervalSeconds: row.intervalSeconds,
    enabled: row.enabled,
    createdAt: row.createdAt.getTime(),
    nextSyncAt: row.nextSyncAt.getTime(),
    lastSyncAt: row.lastSyncAt?.getTime() ?? null,
    lastOutcome: row.lastOutcome,
    lastSummary: row.lastSummary,
    lastError: row.lastError,
    mirroredItems,
    recentRuns: runs.map(runView),
  };
}

const RUNS_SHOWN = 5;

/** Every upstream, oldest first, with its item count and newest runs. */
export async function listUpstreams(db: Database): Promise<MirrorUpstreamBody[]> {
  const rows = await db.select().from(mirrorUpstreams).orderBy(mirrorUpstreams.id);
  if (rows.length === 0) return [];
  const counts = await selectRows<{ upstream_id: number; count: number }>(
    db,
    sql`SELECT upstream_id, count(*)::int AS count FROM mirrored_plugins WHERE upstream_id IS NOT NULL
      GROUP BY upstream_id`,
  );
  const runs = await selectRows<RunRow>(
    db,
    sql`SELECT id, upstream_id, (extract(epoch FROM started_at) * 1000)::float8 AS started_at,
        (extract(epoch FROM finished_at) * 1000)::float8 AS finished_at, outcome, imported, present, failed,
        problems, notes
      FROM (SELECT *, row_number() OVER (PARTITION BY upstream_id ORDER BY id DESC) AS position
        FROM mirror_sync_runs) r
      WHERE position <= ${RUNS_SHOWN} ORDER BY upstream_id, id DESC`,
  );
  return rows.map((row) =>
    upstreamView(
      row,
      counts.find((count) => count.upstream_id === row.id)?.count ?? 0,
      runs.filter((run) => run.upstream_id === row.id),
    ),
  );
}

export async function upstreamById(db: Database, id: number): Promise<MirrorUpstreamBody> {
  const found = (await listUpstreams(db)).find((upstream) => upstream.id === id);
  if (!found) throw new ApiError('notFound', `There is no mirrored upstream ${id}.`);
  return found;
}

/** Adds an upstream, due at once; audited as `mirror.add` on subject `mirror:<base URL>`. */
export async function addUpstream(
  db: Database,
  input: UpstreamInput & { baseUrl: string },
  actor: { adminId: number; reason?: string | undefined; ownUrl: string },
): Promise<MirrorUpstreamBody> {
  const fields = validated(
    {
      ...input,
      builds: input.builds ?? [],
      intervalSeconds: input.intervalSeconds ?? DEFAULT_UPSTREAM_INTERVAL_SECONDS,
    },
    actor.ownUrl,
  );
  const baseUrl = fields.baseUrl!;
  const id = await db
    .transaction(async (tx) => {
      await refuseTakenAddress(tx, baseUrl);
      const [row] = await tx
        .insert(mirrorUpstreams)
        .values({
          baseUrl,
          pluginIds: fields.pluginIds ?? [],
          builds: fields.builds ?? [...DEFAULT_MIRROR_BUILDS],
          intervalSeconds: fields.intervalSeconds ?? DEFAULT_UPSTREAM_INTERVAL_SECONDS,
          enabled: fields.enabled ?? true,
          createdBy: actor.adminId,
        })
        .returning();
      if (!row) throw new Error('The upstream row was not written.');
      await recordAdminAudit(tx, {
        actorId: actor.adminId,
        action: 'mirror.add',
        subject: `mirror:${baseUrl}`,
        ...(actor.reason ? { reason: actor.reason } : {}),
        details: {
          upstreamId: row.id,
          pluginIds: row.pluginIds,
          builds: row.builds,
          intervalSeconds: row.intervalSeconds,
          enabled: row.enabled,
        },
      });
      return row.id;
    })
    .catch(addressConflict(baseUrl));
  return upstreamById(db, id);
}

/** Changes an upstream's fields; audited as `mirror.update` with what it was and what it became. */
export async function updateUpstream(
  db: Database,
  id: number,
  input: UpstreamInput,
  actor: { adminId: number; reason?: string | undefined; ownUrl: string },
): Promise<MirrorUpstreamBody> {
  const fields = validated(input, actor.ownUrl);
  if (Object.keys(fields).length === 0) {
    // Nothing to write (drizzle refuses an empty SET): most likely a mistake of the caller, so it is told.
    throw new ApiError(
      'validation',
      'Nothing to change: give the address, plugin ids, IDE builds, interval or whether the upstream is on.',
    );
  }
  await db
    .transaction(async (tx) => {
      const [before] = await tx
        .select()
        .from(mirrorUpstreams)
        .where(eq(mirrorUpstreams.id, id))
        .for('update');
      if (!before) throw new ApiError('notFound', `There is no mirrored upstream ${id}.`);
      if (fields.baseUrl !== undefined) await refuseTakenAddress(tx, fields.baseUrl, id);
      if (fields.baseUrl !== undefined && fields.baseUrl !== before.baseUrl) {
        // Another marketplace now: the items mirrored so far stay marked as mirrored from the old one, and
        // are no longer this upstream's to change (an item of the same id there is another vendor's).
        await tx.execute(sql`UPDATE mirrored_plugins SET upstream_id = NULL WHERE upstream_id = ${id}`);
      }
      const [after] = await tx
        .update(mirrorUpstreams)
        .set(fields)
        .where(eq(mirrorUpstreams.id, id))
        .returning();
      const shown = (row: MirrorUpstreamRow) => ({
        baseUrl: row.baseUrl,
        pluginIds: row.pluginIds,
        builds: row.builds,
        intervalSeconds: row.intervalSeconds,
        enabled: row.enabled,
      });
      await recordAdminAudit(tx, {
        actorId: actor.adminId,
        action: 'mirror.update',
        subject: `mirror:${after!.baseUrl}`,
        ...(actor.reason ? { reason: actor.reason } : {}),
        details: { upstreamId: id, before: shown(before), after: shown(after!) },
      });
    })
    .catch(addressConflict(fields.baseUrl));
  return upstreamById(db, id);
}

/** Stops mirroring an upstream; its items stay, still marked as mirrored from it. Audited as `mirror.remove`. */
export async function removeUpstream(
  db: Database,
  id: number,
  actor: { adminId: number; reason?: string | undefined },
): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.delete(mirrorUpstreams).where(eq(mirrorUpstreams.id, id)).returning();
    if (!row) throw new ApiError('notFound', `There is no mirrored upstream ${id}.`);
    await recordAdminAudit(tx, {
      actorId: actor.adminId,
      action: 'mirror.remove',
      subject: `mirror:${row.baseUrl}`,
      ...(actor.reason ? { reason: actor.reason } : {}),
      details: { upstreamId: id },
    });
  });
}

/** Makes an upstream due now: the job's next run (or a run now) syncs it. Audited as `mirror.sync`. */
export async function markDue(
  db: Database,
  id: number,
  actor: { adminId: number; reason?: string | undefined },
): Promise<MirrorUpstreamBody> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(mirrorUpstreams)
      .set({ nextSyncAt: sql`now()` })
      .where(eq(mirrorUpstreams.id, id))
      .returning();
    if (!row) throw new ApiError('notFound', `There is no mirrored upstream ${id}.`);
    await recordAdminAudit(tx, {
      actorId: actor.adminId,
      action: 'mirror.sync',
      subject: `mirror:${row.baseUrl}`,
      ...(actor.reason ? { reason: actor.reason } : {}),
      details: { upstreamId: id },
    });
  });
  return upstreamById(db, id);
}
