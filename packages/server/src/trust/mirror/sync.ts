import { mkdir, rm } from 'node:fs/promises';
import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { mirrorSyncRuns, mirrorUpstreams } from '../../db/schema';
import { uploadTempDirectory } from '../../publishing';
import type { JobContext } from '../../admin/scheduler/types';
import { FeedFormatError, feedUrl, parseFeed, type FeedEntry } from './feed';
import { addressRuleFor, type AddressRule } from './addresses';
import { downloadFile, fetchText, MirrorFetchError } from './http';
import {
  importVersion,
  MirrorImportRefusal,
  mirrorTarget,
  verifyMirroredArchive,
  type MirrorImportEnvironment,
  type MirroredVersionInput,
  type MirrorSource,
} from './importer';
import { mirrorOptionsFromEnv, type MirrorOptions } from './options';
import type { MirrorUpstreamRow } from './repository';

/** Runs kept per upstream; older ones are deleted when a run ends. */
const RUNS_KEPT = 50;
/** Up to this many chosen ids are sent to the feed as `pluginId=`; more are filtered here (URLs stay short). */
const IDS_IN_QUERY = 50;

export interface UpstreamSyncResult {
  imported: number;
  present: number;
  failed: number;
  problems: string[];
  notes: string[];
  /** Versions were left for the next run (MIRROR_MAX_VERSIONS_PER_RUN). */
  more: boolean;
}

function inputOf(entry: FeedEntry): MirroredVersionInput {
  return {
    family: 'intellij',
    xmlId: entry.xmlId,
    version: entry.version,
    channel: '',
    name: entry.name,
    description: entry.description,
    vendor: entry.vendor,
    tags: entry.tags,
    since: entry.since,
    until: entry.until,
    notes: entry.notes,
    originalUrl: entry.downloadUrl.href,
  };
}

/** The feed of each build, the entries of the chosen plugins once each (the first build that offers them). */
async function readFeeds(
  upstream: MirrorUpstreamRow,
  options: MirrorOptions,
  signal: AbortSignal,
  rule: AddressRule,
  result: UpstreamSyncResult,
): Promise<FeedEntry[] | undefined> {
  const chosen = new Set(upstream.pluginIds);
  const queryIds = chosen.size > 0 && chosen.size <= IDS_IN_QUERY ? upstream.pluginIds : [];
  const entries = new Map<string, FeedEntry>();
  let feedsRead = 0;
  for (const build of upstream.builds) {
    const url = feedUrl(upstream.baseUrl, build, queryIds);
    try {
      const text = await fetchText(url, {
        timeoutMs: options.feedTimeoutMs,
        maxBytes: options.maxFeedBytes,
        signal,
        accept: 'application/xml, text/xml',
        rule,
      });
      const feed = parseFeed(text, url);
      feedsRead += 1;
      result.notes.push(...feed.problems.map((problem) => `${problem} (feed for ${build})`));
      for (const entry of feed.entries) {
        if (chosen.size > 0 && !chosen.has(entry.xmlId)) continue;
        const key = `${entry.xmlId}\n${entry.version}`;
        if (!entries.has(key)) entries.set(key, entry);
      }
    } catch (error) {
      if (error instanceof MirrorFetchError || error instanceof FeedFormatError) {
        result.problems.push(error.message);
        continue;
      }
      throw error;
    }
  }
  if (feedsRead === 0) return undefined;
  const offered = new Set([...entries.values()].map((entry) => entry.xmlId));
  for (const id of chosen) {
    if (!offered.has(id)) {
      result.notes.push(
        `${id} is not in the feed for ${upstream.builds.join(', ')}: nothing of it was mirrored.`,
      );
    }
  }
  return [...entries.values()];
}

/**
 * One upstream's sync: its feeds read, each version not here yet downloaded (time and size limits),
 * verified and imported in its own transaction. A version that fails is not imported and is named in the
 * result's problems; the others go on.
 */
export async function syncUpstream(
  env: MirrorImportEnvironment,
  upstream: MirrorUpstreamRow,
  options: MirrorOptions,
  signal: AbortSignal,
  log: FastifyBaseLogger,
): Promise<UpstreamSyncResult> {
  const result: UpstreamSyncResult = {
    imported: 0,
    present: 0,
    failed: 0,
    problems: [],
    notes: [],
    more: false,
  };
  const source: MirrorSource = { upstreamId: upstream.id, mirroredFrom: upstream.baseUrl, via: 'sync' };
  const rule = await addressRuleFor(upstream.baseUrl);
  const entries = await readFeeds(upstream, options, signal, rule, result);
  if (!entries) return result;
  const leftAlone = new Set<string>();
  let attempts = 0;
  for (const [index, entry] of entries.entries()) {
    if (signal.aborted) {
      result.notes.push('The run was stopped: this server lost the job to another one.');
      result.more = true;
      break;
    }
    const input = inputOf(entry);
    const target = await mirrorTarget(env.db, source, input);
    if (target.kind === 'present') {
      result.present += 1;
      continue;
    }
    if (target.kind === 'left-alone') {
      if (!leftAlone.has(entry.xmlId)) result.notes.push(target.note);
      leftAlone.add(entry.xmlId);
      continue;
    }
    if (attempts >= options.maxVersionsPerRun) {
      result.more = true;
      result.notes.push(
        `${entries.length - index} more version(s) wait for the next run (MIRROR_MAX_VERSIONS_PER_RUN is ${options.maxVersionsPerRun}).`,
      );
      break;
    }
    attempts += 1;
    let downloaded: Awaited<ReturnType<typeof downloadFile>> | undefined;
    try {
      downloaded = await downloadFile(entry.downloadUrl, env.tempDir, {
        timeoutMs: options.downloadTimeoutMs,
        maxBytes: options.maxArchiveBytes,
        signal,
        rule,
      });
      const verified = await verifyMirroredArchive(env, input, downloaded, {
        size: entry.size,
        sha256: downloaded.declaredSha256,
      });
      const outcome = await importVersion(env, source, input, downloaded, verified);
      if ('present' in outcome) result.present += 1;
      else if ('leftAlone' in outcome) result.notes.push(outcome.leftAlone);
      else {
        result.imported += 1;
        result.notes.push(...outcome.notes);
      }
    } catch (error) {
      result.failed += 1;
      if (error instanceof MirrorFetchError || error instanceof MirrorImportRefusal) {
        result.problems.push(error.message);
      } else {
        log.error({ err: error, xmlId: entry.xmlId, version: entry.version }, 'a mirrored version failed');
        const reason = error instanceof Error ? error.message : String(error);
        result.problems.push(`${entry.xmlId} ${entry.version} could not be imported: ${reason}`);
      }
    } finally {
      if (downloaded) await rm(downloaded.path, { force: true });
    }
  }
  return result;
}

function sentence(result: UpstreamSyncResult): string {
  const parts = [`imported ${result.imported} version(s)`, `${result.present} already here`];
  if (result.failed > 0) parts.push(`${result.failed} failed`);
  return parts.join(', ');
}

/**
 * The `trust-mirror` job: syncs every enabled upstream whose time has come. Each sync is recorded (a row of
 * `mirror_sync_runs` and the upstream's last outcome). A sync that fails, or leaves versions for later, keeps
 * its upstream due, so the job's next turn tries again; one that succeeds waits for the upstream's interval.
 * The job fails (the scheduler records the error text) when any upstream's sync failed.
 */
export async function syncMirrors(
  app: FastifyInstance,
  context: JobContext,
  options: MirrorOptions = mirrorOptionsFromEnv(),
): Promise<string> {
  const tempDir = uploadTempDirectory(app.config.dataDir);
  await mkdir(tempDir, { recursive: true });
  const env: MirrorImportEnvironment = { db: app.db, fileStore: app.fileStore, tempDir, options };
  const due = await app.db
    .select()
    .from(mirrorUpstreams)
    .where(sql`${mirrorUpstreams.enabled} AND ${mirrorUpstreams.nextSyncAt} <= now()`)
    .orderBy(mirrorUpstreams.nextSyncAt, mirrorUpstreams.id);
  if (due.length === 0) return 'No mirrored upstream was due.';
  const summaries: string[] = [];
  const failures: string[] = [];
  let imported = 0;
  try {
    for (const upstream of due) {
      if (context.signal.aborted) break;
      const [run] = await app.db
        .insert(mirrorSyncRuns)
        .values({ upstreamId: upstream.id })
        .returning({ id: mirrorSyncRuns.id });
      let result: UpstreamSyncResult;
      try {
        result = await syncUpstream(env, upstream, options, context.signal, context.log);
      } catch (error) {
        context.log.error({ err: error, upstream: upstream.baseUrl }, 'a mirror sync failed');
        const reason = error instanceof Error ? error.message : String(error);
        result = {
          imported: 0,
          present: 0,
          failed: 0,
          problems: [`The sync stopped: ${reason}`],
          notes: [],
          more: false,
        };
      }
      imported += result.imported;
      const failed = result.problems.length > 0;
      const summary = sentence(result);
      const error = failed ? result.problems.join(' ') : null;
      await app.db.transaction(async (tx) => {
        await tx
          .update(mirrorSyncRuns)
          .set({
            finishedAt: sql`now()`,
            outcome: failed ? 'failed' : 'succeeded',
            imported: result.imported,
            present: result.present,
            failed: result.failed,
            problems: result.problems,
            notes: result.notes,
          })
          .where(eq(mirrorSyncRuns.id, run!.id));
        await tx
          .update(mirrorUpstreams)
          .set({
            lastSyncAt: sql`now()`,
            lastOutcome: failed ? 'failed' : 'succeeded',
            lastSummary: summary,
            lastError: error,
            // Failed or unfinished: due again at the job's next turn. Done: after the upstream's interval.
            nextSyncAt:
              failed || result.more
                ? sql`now()`
                : sql`now() + make_interval(secs => ${upstream.intervalSeconds})`,
          })
          .where(eq(mirrorUpstreams.id, upstream.id));
        await tx.execute(
          sql`DELETE FROM mirror_sync_runs WHERE upstream_id = ${upstream.id} AND id NOT IN (
            SELECT id FROM mirror_sync_runs WHERE upstream_id = ${upstream.id} ORDER BY id DESC LIMIT ${RUNS_KEPT})`,
        );
      });
      summaries.push(`${upstream.baseUrl}: ${summary}`);
      if (failed) failures.push(`${upstream.baseUrl}: ${summary}. ${error}`);
    }
  } finally {
    // The search index, the IDE feed and kept answers read what was imported before they answer again.
    if (imported > 0) app.catalogueChanged();
  }
  if (failures.length > 0) throw new Error(failures.join('\n'));
  return `Synced ${summaries.length} upstream(s). ${summaries.join('; ')}.`;
}
