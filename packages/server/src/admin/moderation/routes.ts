import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AdminInstallQuery,
  AdminPluginStateSchema,
  AdminReportSchema,
  AdminReportsQuery,
  AdminVersionsSchema,
  AppsDownloadQuery,
  AuditEntrySchema,
  AuditLogQuery,
  ErrorBody,
  IdParams,
  NewReviewReportBody,
  ResolveReportBody,
  UploadDetailsSchema,
  type AdminReportBody,
  type AdminVersionBody,
  type AuditEntryBody,
  type UploadDetailsBody,
} from '@marketplace/api-contract';
import type { ProductFamily } from '@marketplace/core';
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Queryable } from '../../db/client';
import { pluginReports } from '../../db/schema';
import { ApiError } from '../../plugins/app/errors';
import { adminLifecycleActions } from '../../publishing/lifecycle';
import { stateBody } from '../../publishing/moderation-routes';
import { loadPluginState, pluginManagers, viewerUserId } from '../../publishing/plugin-access';
import { contentDisposition } from '../../routes/ide/downloads';
import { setOffsetLinks } from '../../routes/pagination';
import { epochMs, pluginVisibleTo, selectRows, versionVisibleTo, viewerOf } from '../../search/sql';
import { recordAdminAudit } from '../audit';

const ADMIN = { rule: 'admin' } as const;

/** Families whose items are apps installed into a server product, not plugins installed into an IDE. */
export const APP_FAMILIES: ReadonlySet<string> = new Set(['youtrack', 'space', 'hub', 'teamcity_recipes']);

interface VersionRow {
  id: number;
  version: string;
  channel: string;
  approval_state: string;
  hidden: boolean;
  file_size: number;
  created_at: number;
}

async function adminVersions(db: Queryable, pluginId: number): Promise<AdminVersionBody[]> {
  const rows = await selectRows<VersionRow>(
    db,
    sql`SELECT pv.id, pv.version, pv.channel, pv.approval_state, pv.hidden, pv.file_size::float8 AS file_size,
        ${epochMs(sql`pv.created_at`)} AS created_at
      FROM plugin_versions pv WHERE pv.plugin_id = ${pluginId} ORDER BY pv.created_at DESC, pv.id DESC`,
  );
  return rows.map((row) => ({
    id: row.id,
    version: row.version,
    channel: row.channel,
    approvalState: row.approval_state,
    hidden: row.hidden,
    size: row.file_size,
    uploaded: row.created_at,
  }));
}

interface AuditRow {
  id: number;
  plugin_id: number | null;
  plugin_name: string | null;
  actor_id: number | null;
  actor_login: string | null;
  action: string;
  details: Record<string, unknown>;
  created_at: number;
}

/** The reason an entry carries: a ban's or resolution's reason, or the facts of a DSA statement. */
function reasonOf(details: Record<string, unknown>): string | null {
  if (typeof details.reason === 'string') return details.reason;
  if (typeof details.note === 'string') return details.note;
  const report = details.dsaReport as Record<string, unknown> | undefined;
  if (report && typeof report === 'object') {
    for (const key of ['facts', 'statement', 'reason']) {
      if (typeof report[key] === 'string') return report[key];
    }
  }
  return null;
}

async function auditEntries(
  db: Queryable,
  filter: { pluginId?: number; actor?: string; action?: string; max: number; offset: number },
): Promise<{ entries: AuditEntryBody[]; total: number }> {
  const conditions: SQL[] = [sql`true`];
  if (filter.pluginId !== undefined) conditions.push(sql`a.plugin_id = ${filter.pluginId}`);
  if (filter.action !== undefined) conditions.push(sql`a.action = ${filter.action.trim()}`);
  if (filter.actor !== undefined) {
    const actor = filter.actor.trim();
    conditions.push(
      /^\d{1,9}$/.test(actor)
        ? sql`(a.actor_id = ${Number(actor)} OR u.login = ${actor})`
        : sql`lower(u.login) = ${actor.toLowerCase()}`,
    );
  }
  const where = sql.join(conditions, sql` AND `);
  const from = sql`FROM plugin_audit_log a LEFT JOIN users u ON u.id = a.actor_id
    LEFT JOIN plugins p ON p.id = a.plugin_id WHERE ${where}`;
  const [count] = await selectRows<{ total: number }>(db, sql`SELECT count(*)::int AS total ${from}`);
  const rows = await selectRows<AuditRow>(
    db,
    sql`SELECT a.id, a.plugin_id, p.name AS plugin_name, a.actor_id, u.login AS actor_login, a.action, a.details,
        ${epochMs(sql`a.created_at`)} AS created_at
      ${from} ORDER BY a.created_at DESC, a.id DESC LIMIT ${filter.max} OFFSET ${filter.offset}`,
  );
  const entries = rows.map((row) => {
    const details =
      typeof row.details === 'string' ? (JSON.parse(row.details) as Record<string, unknown>) : row.details;
    return {
      id: row.id,
      pluginId: row.plugin_id,
      pluginName: row.plugin_name,
      subject: typeof details.subject === 'string' ? details.subject : null,
      actorId: row.actor_id,
      actorLogin: row.actor_login,
      action: row.action,
      reason: reasonOf(details),
      details,
      date: row.created_at,
    };
  });
  return { entries, total: count?.total ?? 0 };
}

interface ReportRow {
  id: number;
  plugin_id: number;
  plugin_name: string;
  review_id: number | null;
  review_text: string | null;
  reporter_id: number | null;
  reporter_login: string | null;
  reason: string;
  message: string;
  created_at: number;
  resolved_at: number | null;
  resolved_by: number | null;
  resolution: string | null;
}

const REPORT_SELECT = sql`SELECT r.id, r.plugin_id, p.name AS plugin_name, r.review_id, rv.text AS review_text,
    r.reporter_id, u.login AS reporter_login, r.reason, r.message, ${epochMs(sql`r.created_at`)} AS created_at,
    ${epochMs(sql`r.resolved_at`)} AS resolved_at, r.resolved_by, r.resolution
  FROM plugin_reports r JOIN plugins p ON p.id = r.plugin_id
    LEFT JOIN reviews rv ON rv.id = r.review_id LEFT JOIN users u ON u.id = r.reporter_id`;

function reportBody(row: ReportRow): AdminReportBody {
  return {
    id: row.id,
    pluginId: row.plugin_id,
    pluginName: row.plugin_name,
    reviewId: row.review_id,
    reviewText: row.review_text,
    reporterId: row.reporter_id,
    reporterLogin: row.reporter_login,
    reason: row.reason,
    message: row.message,
    cdate: row.created_at,
    resolved: row.resolved_at !== null,
    resolvedAt: row.resolved_at,
    resolvedBy: row.resolved_by,
    resolution: row.resolution,
  };
}

interface FileRow {
  id: number;
  plugin_id: number;
  xml_id: string;
  family: string;
  version: string;
  file_hash: string;
  file_name: string;
}

/**
 * The moderation the admin area completes: an item's state with the actions that apply and its versions,
 * the audit log of every action, visitors' reports of items and reviews with their resolution, what an
 * item's last upload contained, the administrators' download of any version and the apps download.
 */
const moderationAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  async function requirePlugin(id: number) {
    const state = await loadPluginState(app.db, id);
    if (!state) throw new ApiError('notFound', `Plugin ${id} does not exist.`);
    return state;
  }

  app.get(
    '/api/admin/plugins/:id/state',
    {
      config: { auth: ADMIN },
      schema: {
        tags: ['moderation'],
        summary: "An item's state, the lifecycle actions that apply to it now, its versions (administrators)",
        params: IdParams,
        response: { 200: AdminPluginStateSchema, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const state = await requirePlugin(request.params.id);
      const versions = await adminVersions(app.db, state.id);
      const actions = adminLifecycleActions(
        state,
        versions.filter((version) => version.approvalState === 'approved').length,
      );
      const [open] = await selectRows<{ count: number }>(
        app.db,
        sql`SELECT count(*)::int AS count FROM plugin_reports WHERE plugin_id = ${state.id} AND resolved_at IS NULL`,
      );
      reply.header('cache-control', 'private, no-store');
      return {
        state: await stateBody(app.db, state.id),
        name: state.name,
        xmlId: state.xmlId,
        family: state.family as ProductFamily,
        actions,
        versions,
        openReports: open?.count ?? 0,
      };
    },
  );

  app.get(
    '/api/admin/plugins/:id/versions',
    {
      config: { auth: ADMIN },
      schema: {
        tags: ['moderation'],
        summary: 'Every version of an item with its approval or block state, newest first (administrators)',
        params: IdParams,
        response: { 200: AdminVersionsSchema, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      await requirePlugin(request.params.id);
      reply.header('cache-control', 'private, no-store');
      return adminVersions(app.db, request.params.id);
    },
  );

  app.get(
    '/api/admin/plugins/:id/audit',
    {
      config: { auth: ADMIN },
      schema: {
        tags: ['moderation'],
        summary: "An item's audit log with the actors' logins (administrators)",
        params: IdParams,
        querystring: Type.Object({
          max: AuditLogQuery.properties.max,
          offset: AuditLogQuery.properties.offset,
        }),
        response: { 200: Type.Array(AuditEntrySchema), 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      await requirePlugin(request.params.id);
      const { entries, total } = await auditEntries(app.db, {
        ...request.query,
        pluginId: request.params.id,
      });
      setOffsetLinks(request, reply, request.query.offset, request.query.max, total);
      reply.header('cache-control', 'private, no-store');
      return entries;
    },
  );

  app.get(
    '/api/admin/audit',
    {
      config: { auth: ADMIN },
      schema: {
        tags: ['moderation'],
        summary: 'Every entry of the audit log, newest first, by item, actor (login or id) and action',
        querystring: AuditLogQuery,
        response: { 200: Type.Array(AuditEntrySchema), 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request, reply) => {
      const { entries, total } = await auditEntries(app.db, request.query);
      setOffsetLinks(request, reply, request.query.offset, request.query.max, total);
      reply.header('cache-control', 'private, no-store');
      return entries;
    },
  );

  app.get(
    '/api/admin/reports',
    {
      config: { auth: ADMIN },
      schema: {
        tags: ['moderation'],
        summary:
          'Visitors’ reports of items and reviews, newest first (open ones unless state says otherwise)',
        querystring: AdminReportsQuery,
        response: { 200: Type.Array(AdminReportSchema), 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request, reply) => {
      const { max, offset, state, pluginId } = request.query;
      const conditions: SQL[] = [
        state === 'open'
          ? sql`r.resolved_at IS NULL`
          : state === 'resolved'
            ? sql`r.resolved_at IS NOT NULL`
            : sql`true`,
      ];
      if (pluginId !== undefined) conditions.push(sql`r.plugin_id = ${pluginId}`);
      const where = sql.join(conditions, sql` AND `);
      const [count] = await selectRows<{ total: number }>(
        app.db,
        sql`SELECT count(*)::int AS total FROM plugin_reports r WHERE ${where}`,
      );
      const rows = await selectRows<ReportRow>(
        app.db,
        sql`${REPORT_SELECT} WHERE ${where} ORDER BY r.created_at DESC, r.id DESC LIMIT ${max} OFFSET ${offset}`,
      );
      setOffsetLinks(request, reply, offset, max, count?.total ?? 0);
      reply.header('cache-control', 'private, no-store');
      return rows.map(reportBody);
    },
  );

  app.post(
    '/api/admin/reports/:id/resolve',
    {
      config: { auth: ADMIN },
      schema: {
        tags: ['moderation'],
        summary: 'Resolve a report with a note on what was done (administrators)',
        params: IdParams,
        body: ResolveReportBody,
        response: {
          200: AdminReportSchema,
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
        },
      },
    },
    async (request) => {
      const note = request.body.note.trim();
      if (note === '') throw new ApiError('badRequest', 'Say how the report was resolved.');
      const actorId = viewerUserId(request.viewer);
      return app.db.transaction(async (tx) => {
        const [existing] = await selectRows<{
          plugin_id: number;
          review_id: number | null;
          resolved: boolean;
        }>(
          tx,
          sql`SELECT plugin_id, review_id, resolved_at IS NOT NULL AS resolved FROM plugin_reports
            WHERE id = ${request.params.id} FOR UPDATE`,
        );
        if (!existing) throw new ApiError('notFound', `There is no report ${request.params.id}.`);
        if (existing.resolved) throw new ApiError('conflict', 'The report is already resolved.');
        await tx
          .update(pluginReports)
          .set({ resolvedAt: new Date(), resolvedBy: actorId, resolution: note })
          .where(sql`${pluginReports.id} = ${request.params.id}`);
        await recordAdminAudit(tx, {
          actorId,
          action: 'resolve-report',
          subject: `report:${request.params.id}`,
          reason: note,
          details: {
            pluginId: existing.plugin_id,
            ...(existing.review_id !== null ? { reviewId: existing.review_id } : {}),
          },
        });
        const [row] = await selectRows<ReportRow>(
          tx,
          sql`${REPORT_SELECT} WHERE r.id = ${request.params.id}`,
        );
        if (!row) throw new Error('The report disappeared inside the transaction.');
        return reportBody(row);
      });
    },
  );

  // A visitor reports a review (spec §7 /api/comments/{id}/{x}); the item's reports take plugin reports.
  app.post(
    '/api/comments/:id/reports',
    {
      config: { auth: { rule: 'public' } },
      schema: {
        tags: ['moderation'],
        summary: 'Report a review to the administrators',
        params: IdParams,
        body: NewReviewReportBody,
        response: { 201: Type.Object({ id: Type.Integer() }), 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const [review] = await selectRows<{ id: number; plugin_id: number }>(
        app.db,
        sql`SELECT rv.id, rv.plugin_id FROM reviews rv JOIN plugins p ON p.id = rv.plugin_id
          WHERE rv.id = ${request.params.id} AND ${pluginVisibleTo(viewerOf(request))}`,
      );
      if (!review) throw new ApiError('notFound', `Review ${request.params.id} does not exist.`);
      const reason = request.body.reason.trim();
      if (reason === '') throw new ApiError('badRequest', 'Say why you report this review.');
      const [row] = await app.db
        .insert(pluginReports)
        .values({
          pluginId: review.plugin_id,
          reviewId: review.id,
          reporterId: viewerUserId(request.viewer),
          reason,
          message: request.body.message?.trim() ?? '',
        })
        .returning({ id: pluginReports.id });
      if (!row) throw new Error('The report was not written.');
      request.log.info({ reviewId: review.id, reportId: row.id }, 'review reported');
      return reply.code(201).send({ id: row.id });
    },
  );

  app.get(
    '/api/plugins/:id/upload/details',
    {
      config: {
        auth: {
          rule: 'owner',
          ownerOf: async (request: FastifyRequest) => {
            const id = (request.params as { id: number }).id;
            const state = await loadPluginState(app.db, id);
            if (!state || state.lifecycleState === 'deleted') return state ? [] : undefined;
            return pluginManagers(app.db, id);
          },
        },
      },
      schema: {
        tags: ['publishing'],
        summary: "What the item's last upload contained (the item's developers and administrators)",
        params: IdParams,
        response: { 200: UploadDetailsSchema, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const [row] = await selectRows<{
        id: number;
        version: string;
        channel: string;
        file_name: string;
        file_size: number;
        file_hash: string;
        since_build: string;
        until_build: string | null;
        dependencies: string[];
        notes: string;
        approval_state: string;
        hidden: boolean;
        created_at: number;
        author_id: number | null;
        author_login: string | null;
        details: Record<string, unknown> | string | null;
      }>(
        app.db,
        sql`SELECT pv.id, pv.version, pv.channel, pv.file_name, pv.file_size::float8 AS file_size, pv.file_hash,
            pv.since_build, pv.until_build, pv.dependencies, pv.notes, pv.approval_state, pv.hidden,
            ${epochMs(sql`pv.created_at`)} AS created_at, pv.author_id, u.login AS author_login,
            (SELECT a.details FROM plugin_audit_log a WHERE a.plugin_id = pv.plugin_id
               AND a.action IN ('upload-version', 'create-plugin') AND a.details->>'versionId' = pv.id::text
               ORDER BY a.id DESC LIMIT 1) AS details
          FROM plugin_versions pv LEFT JOIN users u ON u.id = pv.author_id
          WHERE pv.plugin_id = ${request.params.id} ORDER BY pv.created_at DESC, pv.id DESC LIMIT 1`,
      );
      if (!row) throw new ApiError('notFound', `Plugin ${request.params.id} has no upload yet.`);
      const details =
        typeof row.details === 'string' ? (JSON.parse(row.details) as Record<string, unknown>) : row.details;
      const warnings = Array.isArray(details?.warnings)
        ? details.warnings.filter((entry): entry is string => typeof entry === 'string')
        : [];
      reply.header('cache-control', 'private, no-store');
      return {
        pluginId: request.params.id,
        versionId: row.id,
        version: row.version,
        channel: row.channel,
        fileName: row.file_name,
        size: row.file_size,
        fileHash: row.file_hash,
        since: row.since_build,
        until: row.until_build,
        dependencies: row.dependencies,
        notes: row.notes,
        approvalState: row.approval_state,
        hidden: row.hidden,
        uploaded: row.created_at,
        uploaderId: row.author_id,
        uploaderLogin: row.author_login,
        warnings,
      } satisfies UploadDetailsBody;
    },
  );

  async function sendArchive(request: FastifyRequest, reply: FastifyReply, row: FileRow) {
    const file = await app.fileStore.open(row.file_hash);
    if (!file) {
      request.log.error({ updateId: row.id, hash: row.file_hash }, 'archive missing from the file store');
      throw new ApiError('unavailable', 'The archive of this version cannot be read right now.');
    }
    return reply
      .type(row.file_name.toLowerCase().endsWith('.jar') ? 'application/java-archive' : 'application/zip')
      .header('content-length', String(file.size))
      .header('content-disposition', contentDisposition(row.xml_id, row.version, row.file_name))
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .send(file.stream);
  }

  const FILE_COLUMNS = sql`pv.id, pv.plugin_id, p.xml_id, p.family, pv.version, pv.file_hash, pv.file_name`;

  // The admin install URL: any version of any item, whatever its approval or block state; not counted as a
  // download (an administrator looking is not a user installing), but written to the audit log.
  app.get(
    '/api/admin/install',
    {
      compress: false,
      config: { auth: ADMIN },
      schema: {
        tags: ['moderation'],
        summary: 'Download any version of an item, unapproved or blocked included (administrators)',
        querystring: AdminInstallQuery,
        response: {
          200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }),
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          503: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const { pluginId, updateId } = request.query;
      const [row] = await selectRows<FileRow>(
        app.db,
        sql`SELECT ${FILE_COLUMNS} FROM plugin_versions pv JOIN plugins p ON p.id = pv.plugin_id
          WHERE pv.id = ${updateId} AND pv.plugin_id = ${pluginId}`,
      );
      if (!row) throw new ApiError('notFound', `Plugin ${pluginId} has no version ${updateId}.`);
      await recordAdminAudit(app.db, {
        actorId: viewerUserId(request.viewer),
        action: 'admin-download',
        subject: `version:${updateId}`,
        details: { pluginId, version: row.version },
      });
      return sendArchive(request, reply, row);
    },
  );

  // The apps URL: the package of an app (YouTrack app, Space application, Hub widget, TeamCity recipe),
  // which is installed into that product rather than into an IDE; the newest offered version unless
  // updateId names one. Visitors get what they may see, as with /plugin/download.
  app.get(
    '/apps/download',
    {
      compress: false,
      schema: {
        tags: ['ide'],
        summary: 'Download the package of an app (YouTrack, Space, Hub, TeamCity recipes)',
        querystring: AppsDownloadQuery,
        response: {
          200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }),
          400: ErrorBody,
          404: ErrorBody,
          503: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const { pluginId, updateId } = request.query;
      const viewer = viewerOf(request);
      const [row] = await selectRows<FileRow>(
        app.db,
        sql`SELECT ${FILE_COLUMNS} FROM plugin_versions pv JOIN plugins p ON p.id = pv.plugin_id
          WHERE p.id = ${pluginId} AND ${pluginVisibleTo(viewer)} AND ${versionVisibleTo(viewer)}
            ${updateId !== undefined ? sql`AND pv.id = ${updateId}` : sql`AND pv.channel = ''`}
          ORDER BY pv.created_at DESC, pv.id DESC LIMIT 1`,
      );
      if (!row) throw new ApiError('notFound', `No version of app ${pluginId} is available.`);
      if (!APP_FAMILIES.has(row.family)) {
        throw new ApiError(
          'badRequest',
          `Item ${pluginId} is a plugin, not an app: download it from /plugin/download?updateId=${row.id}.`,
        );
      }
      return sendArchive(request, reply, row);
    },
  );
};

export default moderationAdminRoutes;
