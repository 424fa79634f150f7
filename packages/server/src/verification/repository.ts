import type {
  FalsePositive,
  Verification,
  VerificationJob,
  VerificationProblem,
  VerificationSummary,
} from '@marketplace/api-contract';
import {
  isVerificationType,
  verificationStatusOf,
  type PricingModel,
  type VerificationTarget,
  type VerificationType,
} from '@marketplace/core';
import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import {
  plugins,
  pluginVersions,
  verificationFalsePositives,
  verificationFindings,
  verificationJobs,
  verifications,
  verificationTargets,
} from '../db/schema';
import { selectRows } from '../search/sql';
import { fingerprintOf, type DependencyLookup, type Finding, type VersionFacts } from './checkers';

/** The version of the built-in checks: results of another version are not compared finding by finding. */
export const BUILT_IN_VERIFIER_VERSION = 'marketplace-checks/1';

export async function loadVersionFacts(db: Queryable, versionId: number): Promise<VersionFacts | undefined> {
  const [row] = await selectRows<{
    id: number;
    plugin_id: number;
    xml_id: string;
    pricing_model: PricingModel;
    version: string;
    channel: string;
    since_build: string;
    until_build: string | null;
    file_hash: string;
    file_name: string;
  }>(
    db,
    sql`SELECT pv.id, pv.plugin_id, p.xml_id, p.pricing_model, pv.version, pv.channel, pv.since_build,
        pv.until_build, pv.file_hash, pv.file_name
      FROM plugin_versions pv JOIN plugins p ON p.id = pv.plugin_id WHERE pv.id = ${versionId}`,
  );
  if (!row) return undefined;
  return {
    id: row.id,
    pluginId: row.plugin_id,
    pluginXmlId: row.xml_id,
    pricingModel: row.pricing_model,
    version: row.version,
    channel: row.channel,
    sinceBuild: row.since_build,
    untilBuild: row.until_build,
    fileHash: row.file_hash,
    fileName: row.file_name,
  };
}

/** Approved versions of a plugin that is here to be installed (not deleted, not blocked). */
export function dependencyLookup(db: Queryable): DependencyLookup {
  return async (xmlId) => {
    const rows = await selectRows<{ since_build: string | null; until_build: string | null }>(
      db,
      sql`SELECT pv.since_build, pv.until_build FROM plugins p
        LEFT JOIN plugin_versions pv ON pv.plugin_id = p.id AND pv.approval_state = 'approved'
        WHERE p.xml_id = ${xmlId} AND p.lifecycle_state <> 'deleted' AND p.block_state <> 'blocked'`,
    );
    if (rows.length === 0) return undefined;
    return rows
      .filter((row): row is { since_build: string; until_build: string | null } => row.since_build !== null)
      .map((row) => ({ since: row.since_build, until: row.until_build }));
  };
}

/** Writes a finished verification with its builds and findings; returns its id. */
export async function saveVerification(
  db: Queryable,
  input: {
    jobId: number;
    version: VersionFacts;
    types: readonly VerificationType[];
    verifierVersion: string;
    targets: readonly VerificationTarget[];
    findings: readonly Finding[];
  },
): Promise<number> {
  const [row] = await db
    .insert(verifications)
    .values({
      jobId: input.jobId,
      versionId: input.version.id,
      pluginId: input.version.pluginId,
      types: [...input.types],
      verifierVersion: input.verifierVersion,
    })
    .returning({ id: verifications.id });
  if (!row) throw new Error('The verification was not written.');
  if (input.targets.length > 0) {
    await db.insert(verificationTargets).values(
      input.targets.map((target, position) => ({
        verificationId: row.id,
        position,
        productBuild: target.productBuild,
        productName: target.productName,
        branch: target.branch,
        release: target.release,
        javaLevel: target.javaLevel,
      })),
    );
  }
  if (input.findings.length > 0) {
    await db.insert(verificationFindings).values(
      input.findings.map((finding) => ({
        verificationId: row.id,
        type: finding.type,
        kind: finding.kind,
        severity: finding.severity,
        message: finding.message.slice(0, 8000),
        fingerprint: fingerprintOf(finding),
        productBuilds: finding.builds,
      })),
    );
  }
  return row.id;
}

type VerificationRow = typeof verifications.$inferSelect & { version: string; channel: string };

async function verificationRows(db: Queryable, ids: readonly number[]): Promise<VerificationRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ verification: verifications, version: pluginVersions.version, channel: pluginVersions.channel })
    .from(verifications)
    .innerJoin(pluginVersions, eq(pluginVersions.id, verifications.versionId))
    .where(inArray(verifications.id, [...ids]));
  const byId = new Map(
    rows.map((row) => [
      row.verification.id,
      { ...row.verification, version: row.version, channel: row.channel },
    ]),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The false positives that apply to a plugin: its own and the global ones, by fingerprint. */
async function falsePositivesFor(
  db: Queryable,
  pluginIds: readonly number[],
): Promise<Map<string, { id: number; scope: 'plugin' | 'global'; pluginId: number | null }[]>> {
  const rows = await db
    .select({
      id: verificationFalsePositives.id,
      pluginId: verificationFalsePositives.pluginId,
      fingerprint: verificationFalsePositives.fingerprint,
    })
    .from(verificationFalsePositives)
    .where(
      pluginIds.length === 0
        ? isNull(verificationFalsePositives.pluginId)
        : or(
            isNull(verificationFalsePositives.pluginId),
            inArray(verificationFalsePositives.pluginId, [...pluginIds]),
          ),
    );
  const byFingerprint = new Map<
    string,
    { id: number; scope: 'plugin' | 'global'; pluginId: number | null }[]
  >();
  for (const row of rows) {
    const list = byFingerprint.get(row.fingerprint) ?? [];
    list.push({ id: row.id, scope: row.pluginId === null ? 'global' : 'plugin', pluginId: row.pluginId });
    byFingerprint.set(row.fingerprint, list);
  }
  return byFingerprint;
}

function problemBodies(
  rows: (typeof verificationFindings.$inferSelect)[],
  pluginId: number,
  falsePositives: Map<string, { id: number; scope: 'plugin' | 'global'; pluginId: number | null }[]>,
): VerificationProblem[] {
  return rows.map((row) => {
    const marks = (falsePositives.get(row.fingerprint) ?? []).filter(
      (mark) => mark.pluginId === null || mark.pluginId === pluginId,
    );
    const mark = marks.find((candidate) => candidate.scope === 'plugin') ?? marks[0];
    return {
      id: row.id,
      type: isVerificationType(row.type) ? row.type : 'plugin-verifier',
      kind: row.kind,
      severity: row.severity,
      message: row.message,
      fingerprint: row.fingerprint,
      builds: row.productBuilds,
      falsePositive: mark ? { id: mark.id, scope: mark.scope } : null,
    };
  });
}

function counted(problems: readonly VerificationProblem[]) {
  const findings = problems.map((problem) => ({
    severity: problem.severity,
    falsePositive: problem.falsePositive !== null,
    builds: problem.builds,
  }));
  const live = problems.filter((problem) => problem.falsePositive === null);
  return {
    findings,
    status: verificationStatusOf(findings),
    problems: live.filter((problem) => problem.severity === 'problem').length,
    warnings: live.filter((problem) => problem.severity === 'warning').length,
  };
}

/** Verifications in the API's shape, in the order of `ids` (unknown ids left out). */
export async function loadVerifications(
  db: Queryable,
  ids: readonly number[],
  options: { type?: VerificationType } = {},
): Promise<Verification[]> {
  const rows = await verificationRows(db, ids);
  if (rows.length === 0) return [];
  const rowIds = rows.map((row) => row.id);
  const [targets, findings, falsePositives] = await Promise.all([
    db
      .select()
      .from(verificationTargets)
      .where(inArray(verificationTargets.verificationId, rowIds))
      .orderBy(verificationTargets.verificationId, verificationTargets.position),
    db
      .select()
      .from(verificationFindings)
      .where(
        options.type === undefined
          ? inArray(verificationFindings.verificationId, rowIds)
          : and(
              inArray(verificationFindings.verificationId, rowIds),
              eq(verificationFindings.type, options.type),
            ),
      )
      .orderBy(verificationFindings.verificationId, verificationFindings.id),
    falsePositivesFor(db, [...new Set(rows.map((row) => row.pluginId))]),
  ]);
  return rows.map((row) => {
    const problems = problemBodies(
      findings.filter((finding) => finding.verificationId === row.id),
      row.pluginId,
      falsePositives,
    );
    const totals = counted(problems);
    return {
      id: row.id,
      updateId: row.versionId,
      pluginId: row.pluginId,
      version: row.version,
      channel: row.channel,
      status: totals.status,
      problems: totals.problems,
      warnings: totals.warnings,
      verifierVersion: row.verifierVersion,
      created: row.createdAt.getTime(),
      discarded: row.discardedAt !== null,
      types: row.types.filter(isVerificationType),
      results: targets
        .filter((target) => target.verificationId === row.id)
        .map((target) => {
          const concerning = problems.filter(
            (problem) =>
              problem.falsePositive === null &&
              (problem.builds.length === 0 || problem.builds.includes(target.productBuild)),
          );
          return {
            productBuild: target.productBuild,
            productName: target.productName,
            branch: target.branch,
            release: target.release,
            javaLevel: target.javaLevel,
            status: verificationStatusOf(totals.findings, target.productBuild),
            problems: concerning.filter((problem) => problem.severity === 'problem').length,
            warnings: concerning.filter((problem) => problem.severity === 'warning').length,
          };
        }),
      findings: problems,
    };
  });
}

export async function loadVerification(
  db: Queryable,
  id: number,
  options: { type?: VerificationType } = {},
): Promise<Verification | undefined> {
  return (await loadVerifications(db, [id], options))[0];
}

export function summaryOf(verification: Verification): VerificationSummary {
  return {
    id: verification.id,
    updateId: verification.updateId,
    pluginId: verification.pluginId,
    version: verification.version,
    channel: verification.channel,
    status: verification.status,
    problems: verification.problems,
    warnings: verification.warnings,
    verifierVersion: verification.verifierVersion,
    created: verification.created,
    discarded: verification.discarded,
  };
}

/** The version's current verification: the newest one not discarded. */
export async function currentVerificationId(db: Queryable, versionId: number): Promise<number | undefined> {
  const [row] = await db
    .select({ id: verifications.id })
    .from(verifications)
    .where(and(eq(verifications.versionId, versionId), isNull(verifications.discardedAt)))
    .orderBy(desc(verifications.id))
    .limit(1);
  return row?.id;
}

/** The current verification of each version of a plugin, newest version first (at most 100). */
export async function pluginVerificationIds(db: Queryable, pluginId: number): Promise<number[]> {
  const rows = await selectRows<{ id: number }>(
    db,
    sql`SELECT id FROM (
        SELECT DISTINCT ON (v.version_id) v.id, v.version_id FROM verifications v
        WHERE v.plugin_id = ${pluginId} AND v.discarded_at IS NULL
        ORDER BY v.version_id, v.id DESC) AS current
      ORDER BY version_id DESC LIMIT 100`,
  );
  return rows.map((row) => row.id);
}

/**
 * The verification to compare with: the current one of the version uploaded before this one in the same
 * channel (by upload time).
 */
export async function previousVerificationId(
  db: Queryable,
  verificationId: number,
): Promise<number | undefined> {
  const [row] = await selectRows<{ id: number }>(
    db,
    sql`SELECT pv_v.id FROM verifications v
      JOIN plugin_versions cur ON cur.id = v.version_id
      JOIN plugin_versions prev ON prev.plugin_id = cur.plugin_id AND prev.channel = cur.channel
        AND (prev.created_at, prev.id) < (cur.created_at, cur.id)
      JOIN LATERAL (SELECT id FROM verifications pv_v WHERE pv_v.version_id = prev.id AND pv_v.discarded_at IS NULL
        ORDER BY pv_v.id DESC LIMIT 1) AS pv_v ON true
      WHERE v.id = ${verificationId}
      ORDER BY prev.created_at DESC, prev.id DESC LIMIT 1`,
  );
  return row?.id;
}

/** The plugin a verification, a finding or a version belongs to (for access checks). */
export async function pluginOfVerification(
  db: Queryable,
  verificationId: number,
): Promise<number | undefined> {
  const [row] = await db
    .select({ pluginId: verifications.pluginId })
    .from(verifications)
    .where(eq(verifications.id, verificationId));
  return row?.pluginId;
}

export async function pluginOfVersion(db: Queryable, versionId: number): Promise<number | undefined> {
  const [row] = await db
    .select({ pluginId: pluginVersions.pluginId })
    .from(pluginVersions)
    .where(eq(pluginVersions.id, versionId));
  return row?.pluginId;
}

export async function findingWithPlugin(db: Queryable, findingId: number) {
  const [row] = await db
    .select({ finding: verificationFindings, pluginId: verifications.pluginId })
    .from(verificationFindings)
    .innerJoin(verifications, eq(verifications.id, verificationFindings.verificationId))
    .where(eq(verificationFindings.id, findingId));
  return row;
}

export function falsePositiveBody(row: typeof verificationFalsePositives.$inferSelect): FalsePositive {
  return {
    id: row.id,
    scope: row.pluginId === null ? 'global' : 'plugin',
    pluginId: row.pluginId,
    type: isVerificationType(row.type) ? row.type : 'plugin-verifier',
    kind: row.kind,
    fingerprint: row.fingerprint,
    message: row.message,
    reason: row.reason,
    markedBy: row.markedBy,
    created: row.createdAt.getTime(),
  };
}

/** Jobs in the API's shape, newest first, with their version's plugin and the verification they made. */
export async function loadJobs(
  db: Queryable,
  query: { state?: VerificationJob['state']; versionId?: number; max: number; offset: number },
): Promise<{ total: number; jobs: VerificationJob[] }> {
  const filters = and(
    query.state === undefined ? undefined : eq(verificationJobs.state, query.state),
    query.versionId === undefined ? undefined : eq(verificationJobs.versionId, query.versionId),
  );
  const [rows, [count]] = await Promise.all([
    db
      .select({
        job: verificationJobs,
        pluginId: pluginVersions.pluginId,
        pluginName: plugins.name,
        version: pluginVersions.version,
      })
      .from(verificationJobs)
      .innerJoin(pluginVersions, eq(pluginVersions.id, verificationJobs.versionId))
      .innerJoin(plugins, eq(plugins.id, pluginVersions.pluginId))
      .where(filters)
      .orderBy(desc(verificationJobs.createdAt), desc(verificationJobs.id))
      .limit(query.max)
      .offset(query.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(verificationJobs)
      .where(filters),
  ]);
  const made =
    rows.length === 0
      ? []
      : await db
          .select({ id: verifications.id, jobId: verifications.jobId })
          .from(verifications)
          .where(
            inArray(
              verifications.jobId,
              rows.map((row) => row.job.id),
            ),
          );
  const summaries = new Map(
    (
      await loadVerifications(
        db,
        made.map((row) => row.id),
      )
    ).map((verification) => [verification.id, summaryOf(verification)]),
  );
  return {
    total: Number(count?.total ?? 0),
    jobs: rows.map(({ job, pluginId, pluginName, version }) => {
      const verificationId = made.find((row) => row.jobId === job.id)?.id;
      return {
        id: job.id,
        updateId: job.versionId,
        pluginId,
        pluginName,
        version,
        state: job.state,
        attempts: job.attempts,
        created: job.createdAt.getTime(),
        finished: job.finishedAt?.getTime() ?? null,
        lastError: job.lastError,
        verification: verificationId === undefined ? null : (summaries.get(verificationId) ?? null),
      };
    }),
  };
}
