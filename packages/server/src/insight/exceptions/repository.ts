/**
 * The exception analyzer's tables (migration 0051): filing a report into its group, and reading groups for
 * the item's people. Every statement runs unchanged on PGlite and PostgreSQL.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type {
  ExceptionCount,
  ExceptionGroupBody,
  ExceptionGroupsBody,
  ExceptionGroupSummary,
  ExceptionGroupsQuery,
  ExceptionReportBody,
} from '@marketplace/api-contract';
import {
  comparePluginVersions,
  EXCEPTION_RETENTION,
  RECENT_EXCEPTION_DAYS,
  reopenNote,
  reopensFixedGroup,
  type ExceptionStatus,
} from '@marketplace/core';
import { sql, type SQL } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client';
import type { ExceptionDimension } from '../../db/schema';
import { epochMs, selectRows } from '../../search/sql';
import type { IncomingReport } from './receive';

/** Values listed per dimension of a group's environment table, most reported first. */
const ENVIRONMENT_VALUES = 50;
const LISTED_COMMENTS = 100;
const LISTED_VERSIONS = 50;

/** The plugin a report is for: a plugin of this marketplace by its plugin.xml id (IDE plugins first). */
export async function findReportedPlugin(db: Queryable, xmlId: string): Promise<number | undefined> {
  const [row] = await selectRows<{ id: number }>(
    db,
    sql`SELECT id FROM plugins WHERE xml_id = ${xmlId} AND lifecycle_state <> 'deleted'
      ORDER BY (family = 'intellij') DESC, id LIMIT 1`,
  );
  return row?.id;
}

/**
 * The secret installation hashes are salted with: made once by whichever node asks first, then read by all.
 * Only a cache of the database's value is kept in the process.
 */
export class InstallationHasher {
  private salt: Promise<Buffer> | undefined;

  constructor(private readonly db: Database) {}

  /** A salted hash of the IDE's host id, per plugin, so installations cannot be followed across plugins. */
  async hash(pluginId: number, hostId: string): Promise<string> {
    const salt = await this.saltValue();
    return createHmac('sha256', salt).update(`${pluginId}\n${hostId}`).digest('hex').slice(0, 32);
  }

  private saltValue(): Promise<Buffer> {
    if (!this.salt) {
      const value = (async () => {
        await this.db.execute(
          sql`INSERT INTO exception_salt (id, salt) VALUES (true, ${randomBytes(32)}) ON CONFLICT (id) DO NOTHING`,
        );
        const [row] = await selectRows<{ salt: Buffer | Uint8Array }>(
          this.db,
          sql`SELECT salt FROM exception_salt`,
        );
        if (!row) throw new Error('The installation salt is missing.');
        return Buffer.from(row.salt);
      })();
      value.catch(() => {
        if (this.salt === value) this.salt = undefined;
      });
      this.salt = value;
    }
    return this.salt;
  }
}

/** SHA-256 hex of the normalised trace: what a group is found by. */
export function fingerprintOf(normalisedText: string): string {
  return createHash('sha256').update(normalisedText).digest('hex');
}

interface FiledGroup {
  id: number;
  status: ExceptionStatus;
  fixed_in_version: string | null;
  report_count: number;
  installation_count: number;
}

const TODAY = sql`(now() AT TIME ZONE 'UTC')::date`;

/**
 * Files a report, in one transaction: its group (made on first sight, reopened when fixed in an earlier
 * version), the day's counts, the installation, and the report itself; older reports beyond what is kept
 * are deleted. Answers the report id.
 */
export async function fileReport(
  db: Database,
  pluginId: number,
  report: IncomingReport,
  installation: string | undefined,
): Promise<number> {
  const { normalised } = report;
  const fingerprint = fingerprintOf(normalised.text);
  return db.transaction(async (tx) => {
    const [group] = await selectRows<FiledGroup>(
      tx,
      sql`INSERT INTO exception_groups (plugin_id, fingerprint, normalised_trace, plugin_package, exception_class,
          message, report_count)
        VALUES (${pluginId}, ${fingerprint}, ${normalised.text}, ${normalised.pluginPackage},
          ${normalised.exceptionClass}, ${normalised.message}, 1)
        ON CONFLICT (plugin_id, fingerprint) DO UPDATE SET
          report_count = exception_groups.report_count + 1,
          last_seen_at = greatest(exception_groups.last_seen_at, now()),
          message = excluded.message
        RETURNING id, status, fixed_in_version, report_count, installation_count`,
    );
    if (!group) throw new Error('The exception group was not stored.');

    if (group.status === 'fixed' && reopensFixedGroup(group.fixed_in_version ?? '', report.pluginVersion)) {
      await tx.execute(
        sql`UPDATE exception_groups SET status = 'new', fixed_in_version = NULL,
            status_note = ${reopenNote(group.fixed_in_version ?? '', report.pluginVersion)},
            status_changed_at = now(), status_changed_by = NULL
          WHERE id = ${group.id}`,
      );
    }

    const counted: [ExceptionDimension, string][] = [
      ['total', ''],
      ['version', report.pluginVersion],
      ['build', report.build],
      ['os', report.os],
      ['java', report.java],
    ];
    await tx.execute(
      sql`INSERT INTO exception_daily (group_id, dimension, day, value, reports)
        VALUES ${sql.join(
          counted.map(([dimension, value]) => sql`(${group.id}, ${dimension}, ${TODAY}, ${value}, 1)`),
          sql`, `,
        )}
        ON CONFLICT (group_id, dimension, day, value) DO UPDATE SET reports = exception_daily.reports + 1`,
    );

    if (installation !== undefined && group.installation_count < EXCEPTION_RETENTION.countedInstallations) {
      const added = await selectRows<{ group_id: number }>(
        tx,
        sql`INSERT INTO exception_installations (group_id, installation) VALUES (${group.id}, ${installation})
          ON CONFLICT (group_id, installation) DO NOTHING RETURNING group_id`,
      );
      if (added.length > 0) {
        await tx.execute(
          sql`UPDATE exception_groups SET installation_count = installation_count + 1 WHERE id = ${group.id}`,
        );
      }
    }

    const names = report.attachmentNames.map((name) => sql`${name}`);
    const [stored] = await selectRows<{ id: number | string }>(
      tx,
      sql`INSERT INTO exception_reports (group_id, plugin_version, build, product_name, os, java, message,
          stack_trace, comment, last_action, attachment_names, automatic)
        VALUES (${group.id}, ${report.pluginVersion}, ${report.build}, ${report.productName}, ${report.os},
          ${report.java}, ${report.message}, ${report.stackTrace}, ${report.comment}, ${report.lastAction},
          ARRAY[${names.length > 0 ? sql.join(names, sql`, `) : sql``}]::text[], ${report.automatic})
        RETURNING id`,
    );
    if (!stored) throw new Error('The exception report was not stored.');

    if (group.report_count > EXCEPTION_RETENTION.storedReports) await pruneReports(tx, group.id);
    return Number(stored.id);
  });
}

/** Keeps the newest reports of a group whole, and the newest of those with a comment; deletes the rest. */
async function pruneReports(tx: Queryable, groupId: number): Promise<void> {
  await tx.execute(
    sql`DELETE FROM exception_reports r WHERE r.group_id = ${groupId}
      AND r.id < (SELECT id FROM exception_reports WHERE group_id = ${groupId}
        ORDER BY id DESC OFFSET ${EXCEPTION_RETENTION.storedReports - 1} LIMIT 1)
      AND (r.comment = '' OR r.id < coalesce((SELECT id FROM exception_reports
        WHERE group_id = ${groupId} AND comment <> ''
        ORDER BY id DESC OFFSET ${EXCEPTION_RETENTION.storedComments - 1} LIMIT 1), 0))`,
  );
}

interface GroupRow {
  id: number;
  exception_class: string;
  message: string;
  status: ExceptionStatus;
  fixed_in_version: string | null;
  status_note: string;
  status_changed_at: number | null;
  first_seen: number;
  last_seen: number;
  report_count: number;
  installation_count: number;
  recent: number;
  versions: string[] | null;
}

const SINCE_RECENT = sql`(now() AT TIME ZONE 'UTC')::date - ${RECENT_EXCEPTION_DAYS - 1}::integer`;

function groupColumns(): SQL {
  return sql`g.id, g.exception_class, g.message, g.status, g.fixed_in_version, g.status_note,
    ${epochMs(sql`g.status_changed_at`)} AS status_changed_at, ${epochMs(sql`g.first_seen_at`)} AS first_seen,
    ${epochMs(sql`g.last_seen_at`)} AS last_seen, g.report_count, g.installation_count,
    coalesce((SELECT sum(d.reports) FROM exception_daily d
      WHERE d.group_id = g.id AND d.dimension = 'total' AND d.day >= ${SINCE_RECENT}), 0)::integer AS recent,
    (SELECT array_agg(DISTINCT d.value) FROM exception_daily d
      WHERE d.group_id = g.id AND d.dimension = 'version') AS versions`;
}

function summaryOf(row: GroupRow): ExceptionGroupSummary {
  return {
    id: row.id,
    exceptionClass: row.exception_class,
    message: row.message,
    status: row.status,
    fixedInVersion: row.fixed_in_version,
    statusNote: row.status_note,
    statusChangedAt: row.status_changed_at === null ? null : Number(row.status_changed_at),
    firstSeen: Number(row.first_seen),
    lastSeen: Number(row.last_seen),
    total: row.report_count,
    recent: row.recent,
    installations: row.installation_count,
    versions: [...(row.versions ?? [])].sort((a, b) => comparePluginVersions(b, a)).slice(0, LISTED_VERSIONS),
  };
}

/** A plugin's groups, most reported in the recent days first (then the most recently seen). */
export async function listGroups(
  db: Queryable,
  pluginId: number,
  query: ExceptionGroupsQuery,
): Promise<ExceptionGroupsBody> {
  const statusFilter = query.status === undefined ? sql`` : sql`AND g.status = ${query.status}`;
  const [rows, counted] = await Promise.all([
    selectRows<GroupRow>(
      db,
      sql`SELECT ${groupColumns()} FROM exception_groups g WHERE g.plugin_id = ${pluginId} ${statusFilter}
        ORDER BY recent DESC, g.last_seen_at DESC, g.id DESC
        LIMIT ${query.size} OFFSET ${(query.page - 1) * query.size}`,
    ),
    selectRows<{ total: number }>(
      db,
      sql`SELECT count(*)::integer AS total FROM exception_groups g WHERE g.plugin_id = ${pluginId} ${statusFilter}`,
    ),
  ]);
  return { recentDays: RECENT_EXCEPTION_DAYS, total: counted[0]?.total ?? 0, groups: rows.map(summaryOf) };
}

interface DetailRow extends GroupRow {
  normalised_trace: string;
  plugin_package: string;
}

interface ReportRow {
  id: number | string;
  received_at: number;
  plugin_version: string;
  build: string;
  product_name: string;
  os: string;
  java: string;
  message: string;
  stack_trace: string;
  last_action: string;
  attachment_names: string[] | null;
  automatic: boolean;
}

const ENVIRONMENT_DIMENSIONS = {
  version: 'versions',
  build: 'builds',
  os: 'operatingSystems',
  java: 'javaVersions',
} as const satisfies Partial<Record<ExceptionDimension, keyof ExceptionGroupBody['environment']>>;

/** One group of a plugin with its latest report, environment table and comments; undefined when not the plugin's. */
export async function loadGroup(
  db: Queryable,
  pluginId: number,
  groupId: number,
): Promise<ExceptionGroupBody | undefined> {
  const [row] = await selectRows<DetailRow>(
    db,
    sql`SELECT ${groupColumns()}, g.normalised_trace, g.plugin_package
      FROM exception_groups g WHERE g.id = ${groupId} AND g.plugin_id = ${pluginId}`,
  );
  if (!row) return undefined;
  const [latestRows, counts, comments, stored] = await Promise.all([
    selectRows<ReportRow>(
      db,
      sql`SELECT id, ${epochMs(sql`received_at`)} AS received_at, plugin_version, build, product_name, os, java,
          message, stack_trace, last_action, attachment_names, automatic
        FROM exception_reports WHERE group_id = ${groupId} ORDER BY id DESC LIMIT 1`,
    ),
    selectRows<{ dimension: ExceptionDimension; value: string; report_total: number }>(
      db,
      sql`SELECT dimension, value, sum(reports)::integer AS report_total FROM exception_daily
        WHERE group_id = ${groupId} AND dimension <> 'total'
        GROUP BY dimension, value ORDER BY report_total DESC, value`,
    ),
    selectRows<{
      id: number | string;
      received_at: number;
      plugin_version: string;
      build: string;
      comment: string;
    }>(
      db,
      sql`SELECT id, ${epochMs(sql`received_at`)} AS received_at, plugin_version, build, comment
        FROM exception_reports WHERE group_id = ${groupId} AND comment <> ''
        ORDER BY id DESC LIMIT ${LISTED_COMMENTS}`,
    ),
    selectRows<{ count: number }>(
      db,
      sql`SELECT count(*)::integer AS count FROM exception_reports WHERE group_id = ${groupId}`,
    ),
  ]);
  const environment: ExceptionGroupBody['environment'] = {
    versions: [],
    builds: [],
    operatingSystems: [],
    javaVersions: [],
  };
  for (const count of counts) {
    const key = ENVIRONMENT_DIMENSIONS[count.dimension as keyof typeof ENVIRONMENT_DIMENSIONS];
    const list: ExceptionCount[] | undefined = key ? environment[key] : undefined;
    if (list && list.length < ENVIRONMENT_VALUES)
      list.push({ value: count.value, reports: count.report_total });
  }
  const latest = latestRows[0];
  return {
    ...summaryOf(row),
    normalisedTrace: row.normalised_trace,
    pluginPackage: row.plugin_package,
    latest: latest ? reportOf(latest) : null,
    environment,
    comments: comments.map((comment) => ({
      reportId: Number(comment.id),
      receivedAt: Number(comment.received_at),
      pluginVersion: comment.plugin_version,
      build: comment.build,
      text: comment.comment,
    })),
    storedReports: stored[0]?.count ?? 0,
  };
}

function reportOf(row: ReportRow): ExceptionReportBody {
  return {
    id: Number(row.id),
    receivedAt: Number(row.received_at),
    pluginVersion: row.plugin_version,
    build: row.build,
    productName: row.product_name,
    os: row.os,
    java: row.java,
    message: row.message,
    stackTrace: row.stack_trace,
    lastAction: row.last_action,
    attachmentNames: row.attachment_names ?? [],
    automatic: row.automatic,
  };
}

/** Sets a group's status as the item's people decide; undefined when the group is not the plugin's. */
export async function setGroupStatus(
  db: Database,
  pluginId: number,
  groupId: number,
  change: { status: ExceptionStatus; fixedInVersion: string | null; userId: number | null },
): Promise<ExceptionGroupSummary | undefined> {
  const updated = await selectRows<{ id: number }>(
    db,
    sql`UPDATE exception_groups SET status = ${change.status}, fixed_in_version = ${change.fixedInVersion},
        status_note = '', status_changed_at = now(), status_changed_by = ${change.userId}
      WHERE id = ${groupId} AND plugin_id = ${pluginId} RETURNING id`,
  );
  if (updated.length === 0) return undefined;
  const [row] = await selectRows<GroupRow>(
    db,
    sql`SELECT ${groupColumns()} FROM exception_groups g WHERE g.id = ${groupId}`,
  );
  return row ? summaryOf(row) : undefined;
}
