import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import type { ArchiveLimits } from '../../archive/limits';
import type { Database, Queryable } from '../../db/client';
import { LeaseLost, PermanentFailure, workLeaseQueue, type ClaimedJob } from '../../db/lease-queue';
import { flagVersionForModeration } from '../../publishing/moderation-flags';
import { selectRows } from '../../search/sql';
import type { FileStore } from '../../storage';
import { checkNewItem } from '../checks';
import {
  severityRank,
  sortFindings,
  warrantsQuarantine,
  type ScanFinding,
  type ScanSeverity,
} from './findings';
import { loadMalwareHashes } from './malware';
import type { ScanOptions } from './options';
import { jobsOfPlugin, scanQueue } from './queue';
import { MAX_FINDINGS, scanArchive } from './scan';

interface Log {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface ScanEnvironment {
  db: Database;
  fileStore: FileStore;
  /** Scratch space for archives being scanned, on the data disk. */
  tempDir: string;
  options: ScanOptions;
  archiveLimits?: Partial<ArchiveLimits>;
  log: Log;
  /** Told when a scan changed what visitors are offered (the search index, the feed, kept answers). */
  onCatalogueChanged?: () => void;
}

/** Findings at least this severe write a flag in the approval queue; lower ones are only kept with the scan. */
export const FLAG_SEVERITY: ScanSeverity = 'medium';

/** The path of findings about the item's id and name rather than a file. */
export const ITEM = '(id and name)';

/**
 * Works the queue: claims jobs one at a time and scans them until none is due (or `maxJobs` ran); only the
 * jobs of one plugin's versions with `pluginId`. Returns how many jobs it took. The scheduler's `trust-scan`
 * job and the in-process nudge after an upload call it; tests call it directly.
 */
export async function runScanWorker(
  env: ScanEnvironment,
  options: { worker?: string; maxJobs?: number; pluginId?: number } = {},
): Promise<number> {
  const worker = options.worker ?? `scan-${randomBytes(6).toString('hex')}`;
  await mkdir(env.tempDir, { recursive: true });
  return workLeaseQueue(
    scanQueue,
    env.db,
    {
      worker,
      leaseMs: env.options.leaseMs,
      ...(options.maxJobs !== undefined ? { maxJobs: options.maxJobs } : {}),
      ...(options.pluginId !== undefined ? { only: jobsOfPlugin(options.pluginId) } : {}),
    },
    {
      run: (job, leaseLost) => scanVersion(env, job, worker, leaseLost),
      done: (job, outcome) => {
        env.log.info({ jobId: job.id, versionId: job.versionId, ...outcome }, 'version scanned');
        if (outcome.offeredChanged) env.onCatalogueChanged?.();
      },
      lost: (job) => env.log.warn({ jobId: job.id }, 'scan lease lost; another worker took the job over'),
      failed: (job, error) =>
        env.log.error({ err: error, jobId: job.id, attempt: job.attempts }, 'scan failed'),
    },
  );
}

interface ScannedVersion {
  id: number;
  pluginId: number;
  version: string;
  fileHash: string;
  fileName: string;
  scanState: string;
  family: string;
  xmlId: string;
  name: string;
  uploaderId: number;
}

async function loadVersion(db: Queryable, versionId: number): Promise<ScannedVersion | undefined> {
  const [row] = await selectRows<{
    id: number;
    plugin_id: number;
    version: string;
    file_hash: string;
    file_name: string;
    scan_state: string;
    family: string;
    xml_id: string;
    name: string;
    uploader_id: number | null;
  }>(
    db,
    sql`SELECT pv.id, pv.plugin_id, pv.version, pv.file_hash, pv.file_name, pv.scan_state, p.family, p.xml_id,
        p.name, coalesce(pv.author_id, p.owner_id) AS uploader_id
      FROM plugin_versions pv JOIN plugins p ON p.id = pv.plugin_id WHERE pv.id = ${versionId}`,
  );
  if (!row) return undefined;
  return {
    id: row.id,
    pluginId: row.plugin_id,
    version: row.version,
    fileHash: row.file_hash,
    fileName: row.file_name,
    scanState: row.scan_state,
    family: row.family,
    xmlId: row.xml_id,
    name: row.name,
    uploaderId: row.uploader_id ?? 0,
  };
}

/** The look-alike rules of trust/checks.ts over the item the version belongs to. */
async function lookalikeFindings(db: Database, version: ScannedVersion): Promise<ScanFinding[]> {
  const verdict = await checkNewItem(db, {
    family: version.family,
    xmlId: version.xmlId,
    name: version.name,
    uploaderId: version.uploaderId,
    pluginId: version.pluginId,
    existingItemOlderThan: version.pluginId,
  });
  return [
    ...(verdict.refusal === undefined
      ? []
      : [{ kind: 'look-alike', severity: 'high', path: ITEM, message: verdict.refusal } as const]),
    ...verdict.reviewReasons.map(
      (message) => ({ kind: 'look-alike', severity: 'low', path: ITEM, message }) as const,
    ),
  ];
}

function fingerprint(finding: ScanFinding): string {
  return `${finding.kind}\u0000${finding.path}\u0000${finding.message}`;
}

/** The findings of the scan an administrator released the version on (to keep a rescan from undoing it). */
async function releasedFindings(db: Queryable, versionId: number): Promise<Set<string>> {
  const [row] = await selectRows<{ findings: ScanFinding[] }>(
    db,
    sql`SELECT findings FROM version_scans WHERE version_id = ${versionId} AND decision = 'release'
      ORDER BY id DESC LIMIT 1`,
  );
  return new Set((row?.findings ?? []).map(fingerprint));
}

function flagText(version: ScannedVersion, state: string, findings: readonly ScanFinding[]): string {
  const shown = findings.filter((finding) => severityRank(finding.severity) >= severityRank(FLAG_SEVERITY));
  const head =
    state === 'quarantined'
      ? `The scan of version ${version.version} quarantined it: it is offered to nobody but its developers and administrators until an administrator releases or rejects it (Trust page).`
      : `The scan of version ${version.version} found something to look at.`;
  return [
    head,
    ...shown.slice(0, 3).map((finding) => `[${finding.severity}] ${finding.path}: ${finding.message}`),
    ...(shown.length > 3 ? [`(and ${shown.length - 3} more)`] : []),
  ].join(' ');
}

async function scanVersion(
  env: ScanEnvironment,
  job: ClaimedJob,
  worker: string,
  leaseLost: () => boolean,
): Promise<{ scanId: number; state: string; findings: number; offeredChanged: boolean }> {
  const version = await loadVersion(env.db, job.versionId);
  if (!version) throw new PermanentFailure(`Version ${job.versionId} no longer exists.`);
  const opened = await env.fileStore.open(version.fileHash);
  if (!opened) {
    throw new PermanentFailure(`The archive of version ${version.version} is missing from the file store.`);
  }
  const scratch = await mkdtemp(join(env.tempDir, 'scan-'));
  try {
    const kind = /\.jar$/i.test(version.fileName) ? 'jar' : 'zip';
    const archivePath = join(scratch, `archive.${kind}`);
    await pipeline(opened.stream, createWriteStream(archivePath, { flags: 'wx' }));
    const scan = await scanArchive({
      archivePath,
      kind,
      tempDir: scratch,
      malwareHashes: await loadMalwareHashes(env.options.malwareHashesFile),
      maxContentBytes: env.options.maxContentBytes,
      clamav: env.options.clamav,
      archiveLimits: env.archiveLimits,
    });
    const findings = [...scan.findings, ...(await lookalikeFindings(env.db, version))];
    if (scan.clamavError !== undefined) {
      // A passing hiccup of ClamAV (clamd restarting) is retried; on the last attempt a person decides.
      if (job.attempts < job.maxAttempts) throw new Error(scan.clamavError);
      findings.push({
        kind: 'clamav-failed',
        severity: 'high',
        path: '(archive)',
        message: `${scan.clamavError} The archive was not scanned by ClamAV.`,
      });
    }
    const sorted = sortFindings(findings).slice(0, MAX_FINDINGS);
    const verdict = warrantsQuarantine(sorted, env.options.quarantineSeverity) ? 'quarantined' : 'passed';
    if (leaseLost()) throw new LeaseLost();
    return await env.db.transaction(async (tx) => {
      if (!(await scanQueue.complete(tx, job.id, worker))) throw new LeaseLost();
      const [current] = await selectRows<{ scan_state: string }>(
        tx,
        sql`SELECT scan_state FROM plugin_versions WHERE id = ${version.id} FOR UPDATE`,
      );
      if (!current) throw new PermanentFailure(`Version ${version.id} no longer exists.`);
      let state: string = verdict;
      if (current.scan_state === 'rejected') {
        state = 'rejected';
      } else if (current.scan_state === 'released' && verdict === 'quarantined') {
        // Released on these very findings: only something new takes the version away again.
        const released = await releasedFindings(tx, version.id);
        const serious = sorted.filter(
          (finding) => severityRank(finding.severity) >= severityRank(env.options.quarantineSeverity),
        );
        if (serious.every((finding) => released.has(fingerprint(finding)))) state = 'released';
      }
      const flagged =
        state === 'quarantined' ||
        (state === 'passed' &&
          sorted.some((finding) => severityRank(finding.severity) >= severityRank(FLAG_SEVERITY)));
      const noteId = flagged
        ? await flagVersionForModeration(tx, {
            pluginId: version.pluginId,
            versionId: version.id,
            version: version.version,
            source: 'scan',
            text: flagText(version, state, sorted),
          })
        : null;
      const [saved] = await selectRows<{ id: number }>(
        tx,
        sql`INSERT INTO version_scans (job_id, version_id, verdict, engines, archive_sha256, entries_scanned,
            findings, flag_note_id)
          VALUES (${job.id}, ${version.id}, ${verdict}, ARRAY(SELECT json_array_elements_text(${JSON.stringify(scan.engines)}::json)),
            ${scan.sha256}, ${scan.entries}, ${JSON.stringify(sorted)}::jsonb, ${noteId})
          RETURNING id`,
      );
      if (!saved) throw new Error('The scan result was not written.');
      if (state !== current.scan_state) {
        await tx.execute(sql`UPDATE plugin_versions SET scan_state = ${state} WHERE id = ${version.id}`);
      }
      return {
        scanId: saved.id,
        state,
        findings: sorted.length,
        offeredChanged: state !== current.scan_state,
      };
    });
  } finally {
    opened.stream.destroy();
    await rm(scratch, { recursive: true, force: true, maxRetries: 2 }).catch(() => undefined);
  }
}
