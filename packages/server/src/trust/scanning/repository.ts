import {
  PLUGIN_SCANS_MAX,
  type PluginScansBody,
  type ScanAction,
  type ScanQueueEntryBody,
  type ScanQueueFilter,
  type ScanState,
  type VersionScanBody,
  type VersionScanStatusBody,
} from '@marketplace/api-contract';
import { sql, type SQL } from 'drizzle-orm';
import { recordAdminAudit } from '../../admin/audit';
import type { Database, Queryable } from '../../db/client';
import { ApiError } from '../../plugins/app/errors';
import { epochMs, selectRows } from '../../search/sql';
import type { ScanFinding } from './findings';
import { enqueueScan } from './queue';

interface EntryRow {
  version_id: number;
  version: string;
  channel: string;
  uploaded: number;
  approval_state: string;
  scan_state: ScanState;
  plugin_id: number;
  plugin_name: string;
  xml_id: string;
  vendor: string | null;
  scan_id: number | null;
  verdict: 'passed' | 'quarantined' | null;
  scanned_at: number | null;
  engines: string[] | null;
  archive_sha256: string | null;
  entries_scanned: number | null;
  findings: ScanFinding[] | null;
  decision: 'release' | 'reject' | null;
  decided_by: string | null;
  decided_at: number | null;
  decision_reason: string | null;
  job_state: 'queued' | 'running' | 'done' | 'failed' | null;
  attempts: number | null;
  max_attempts: number | null;
  last_error: string | null;
  total?: number | string;
}

/** The columns of a version with its latest scan and job, over `plugin_versions pv`. */
const ENTRY_FROM = sql`plugin_versions pv JOIN plugins p ON p.id = pv.plugin_id
  LEFT JOIN vendors v ON v.id = p.vendor_id
  LEFT JOIN LATERAL (SELECT * FROM version_scans s WHERE s.version_id = pv.id ORDER BY s.id DESC LIMIT 1) s ON true
  LEFT JOIN users du ON du.id = s.decided_by
  LEFT JOIN LATERAL (SELECT * FROM scan_jobs j WHERE j.version_id = pv.id ORDER BY j.id DESC LIMIT 1) j ON true`;

const ENTRY_COLUMNS = sql`pv.id AS version_id, pv.version, pv.channel, ${epochMs(sql`pv.created_at`)} AS uploaded,
  pv.approval_state, pv.scan_state, p.id AS plugin_id, p.name AS plugin_name, p.xml_id, v.name AS vendor,
  s.id AS scan_id, s.verdict, ${epochMs(sql`s.created_at`)} AS scanned_at, s.engines, s.archive_sha256,
  s.entries_scanned, s.findings, s.decision, du.login AS decided_by, ${epochMs(sql`s.decided_at`)} AS decided_at,
  s.decision_reason, j.state AS job_state, j.attempts, j.max_attempts, j.last_error`;

function scanOf(row: EntryRow, showDecider: boolean): VersionScanBody | null {
  if (row.scan_id === null || row.verdict === null) return null;
  return {
    id: row.scan_id,
    verdict: row.verdict,
    scannedAt: Number(row.scanned_at),
    engines: row.engines ?? [],
    archiveSha256: row.archive_sha256 ?? '',
    entriesScanned: row.entries_scanned ?? 0,
    findings: row.findings ?? [],
    decision:
      row.decision === null || row.decided_at === null
        ? null
        : {
            action: row.decision,
            by: showDecider ? row.decided_by : null,
            at: Number(row.decided_at),
            reason: row.decision_reason,
          },
  };
}

function jobOf(row: EntryRow): VersionScanStatusBody['job'] {
  return row.job_state === null
    ? null
    : {
        state: row.job_state,
        attempts: row.attempts ?? 0,
        maxAttempts: row.max_attempts ?? 0,
        lastError: row.last_error,
      };
}

function entryOf(row: EntryRow): ScanQueueEntryBody {
  return {
    versionId: row.version_id,
    version: row.version,
    channel: row.channel,
    uploaded: Number(row.uploaded),
    approvalState: row.approval_state,
    plugin: { id: row.plugin_id, name: row.plugin_name, xmlId: row.xml_id, vendor: row.vendor },
    state: row.scan_state,
    scan: scanOf(row, true),
    job: jobOf(row),
  };
}

/** Which versions a filter of the administrators' list shows. */
function filterCondition(filter: ScanQueueFilter): SQL {
  // Passed versions are many: the list shows those whose scan found something below the threshold.
  if (filter === 'passed') {
    return sql`pv.scan_state = 'passed' AND s.id IS NOT NULL AND jsonb_array_length(s.findings) > 0`;
  }
  return sql`pv.scan_state = ${filter}`;
}

/** The administrators' list: versions in one scan state, the latest scan first, with their findings. */
export async function listScans(
  db: Queryable,
  query: { state: ScanQueueFilter; max: number; offset: number },
): Promise<{ total: number; entries: ScanQueueEntryBody[] }> {
  const rows = await selectRows<EntryRow>(
    db,
    sql`SELECT ${ENTRY_COLUMNS}, count(*) OVER () AS total
      FROM ${ENTRY_FROM}
      WHERE p.lifecycle_state <> 'deleted' AND ${filterCondition(query.state)}
      ORDER BY coalesce(s.created_at, pv.created_at) DESC, pv.id DESC
      LIMIT ${query.max} OFFSET ${query.offset}`,
  );
  let total = rows[0] ? Number(rows[0].total) : 0;
  if (rows.length === 0 && query.offset > 0) {
    const [counted] = await selectRows<{ total: number | string }>(
      db,
      sql`SELECT count(*) AS total FROM ${ENTRY_FROM}
        WHERE p.lifecycle_state <> 'deleted' AND ${filterCondition(query.state)}`,
    );
    total = Number(counted?.total ?? 0);
  }
  return { total, entries: rows.map(entryOf) };
}

async function loadEntryRow(db: Queryable, versionId: number): Promise<EntryRow | undefined> {
  const [row] = await selectRows<EntryRow>(
    db,
    sql`SELECT ${ENTRY_COLUMNS} FROM ${ENTRY_FROM} WHERE pv.id = ${versionId}`,
  );
  return row;
}

/** One version's scan entry (administrators). */
export async function scanEntry(db: Queryable, versionId: number): Promise<ScanQueueEntryBody> {
  const row = await loadEntryRow(db, versionId);
  if (!row) throw new ApiError('notFound', `Version ${versionId} does not exist.`);
  return entryOf(row);
}

/** A version's standing with scanning, for its developers (the deciding administrator is not named). */
export async function scanStatus(
  db: Queryable,
  versionId: number,
  isAdmin: boolean,
): Promise<VersionScanStatusBody> {
  const row = await loadEntryRow(db, versionId);
  if (!row) throw new ApiError('notFound', `Version ${versionId} does not exist.`);
  return { versionId, state: row.scan_state, scan: scanOf(row, isAdmin), job: jobOf(row) };
}

/**
 * The scan standing of an item's versions that scanning holds back or an administrator decided on, the
 * newest first, for its developers' manage page (the deciding administrator named to administrators only).
 */
export async function pluginScans(
  db: Queryable,
  pluginId: number,
  isAdmin: boolean,
): Promise<PluginScansBody> {
  const rows = await selectRows<EntryRow>(
    db,
    sql`SELECT ${ENTRY_COLUMNS} FROM ${ENTRY_FROM}
      WHERE pv.plugin_id = ${pluginId} AND pv.scan_state IN ('pending', 'quarantined', 'rejected', 'released')
      ORDER BY pv.created_at DESC, pv.id DESC
      LIMIT ${PLUGIN_SCANS_MAX}`,
  );
  return {
    versions: rows.map((row) => ({
      versionId: row.version_id,
      state: row.scan_state,
      scan: scanOf(row, isAdmin),
      job: jobOf(row),
    })),
  };
}

/** The plugin a version belongs to (for the access rule of its routes). */
export async function pluginOfVersion(db: Queryable, versionId: number): Promise<number | undefined> {
  const [row] = await selectRows<{ plugin_id: number }>(
    db,
    sql`SELECT plugin_id FROM plugin_versions WHERE id = ${versionId}`,
  );
  return row?.plugin_id;
}

const ACTION_VERBS: Record<ScanAction, string> = {
  release: 'released',
  reject: 'rejected',
  rescan: 'scanned again',
};

/**
 * An administrator's decision on a quarantined version: `release` offers it again (as far as its approval
 * allows), `reject` holds it for good and refuses its approval; `rescan` queues a new scan of any version
 * (with the malware list and engines of now) without taking an offered version away meanwhile. The flag in
 * the approval queue is resolved, and the action goes to the audit log, in the same transaction.
 */
export async function actOnScan(
  db: Database,
  input: { versionId: number; action: ScanAction; adminId: number; reason?: string },
): Promise<ScanQueueEntryBody> {
  await db.transaction(async (tx) => {
    const [version] = await selectRows<{
      plugin_id: number;
      version: string;
      scan_state: ScanState;
      plugin_name: string;
    }>(
      tx,
      sql`SELECT pv.plugin_id, pv.version, pv.scan_state, p.name AS plugin_name
        FROM plugin_versions pv JOIN plugins p ON p.id = pv.plugin_id
        WHERE pv.id = ${input.versionId} FOR UPDATE OF pv`,
    );
    if (!version) throw new ApiError('notFound', `Version ${input.versionId} does not exist.`);
    const [latest] = await selectRows<{ id: number; flag_note_id: number | null; findings: unknown[] }>(
      tx,
      sql`SELECT id, flag_note_id, findings FROM version_scans WHERE version_id = ${input.versionId}
        ORDER BY id DESC LIMIT 1`,
    );
    if (input.action !== 'rescan') {
      if (version.scan_state !== 'quarantined' || !latest) {
        throw new ApiError(
          'conflict',
          `Version ${version.version} of ${version.plugin_name} is ${version.scan_state}: only a quarantined version can be ${ACTION_VERBS[input.action]}.`,
        );
      }
      await tx.execute(
        sql`UPDATE version_scans SET decision = ${input.action}, decided_by = ${input.adminId}, decided_at = now(),
            decision_reason = ${input.reason ?? null}
          WHERE id = ${latest.id}`,
      );
      // The findings are dealt with: they leave the approval queue's flags.
      await tx.execute(
        sql`UPDATE admin_notes SET resolved_at = now(), resolved_by = ${input.adminId}
          WHERE resolved_at IS NULL AND id IN (
            SELECT flag_note_id FROM version_scans WHERE version_id = ${input.versionId} AND flag_note_id IS NOT NULL)`,
      );
      if (input.action === 'release') {
        await tx.execute(
          sql`UPDATE plugin_versions SET scan_state = 'released' WHERE id = ${input.versionId}`,
        );
      } else {
        await tx.execute(
          sql`UPDATE plugin_versions SET scan_state = 'rejected',
              approval_state = CASE WHEN approval_state IN ('pending', 'approved') THEN 'rejected' ELSE approval_state END
            WHERE id = ${input.versionId}`,
        );
      }
    } else {
      await enqueueScan(tx, input.versionId, { requestedBy: input.adminId, hold: false });
    }
    await recordAdminAudit(tx, {
      actorId: input.adminId,
      action: `scan.${input.action}`,
      subject: `version:${input.versionId}`,
      ...(input.reason !== undefined ? { reason: input.reason } : {}),
      details: {
        pluginId: version.plugin_id,
        version: version.version,
        stateBefore: version.scan_state,
        ...(latest ? { scanId: latest.id, findings: latest.findings.length } : {}),
      },
    });
  });
  return scanEntry(db, input.versionId);
}
