import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AdminNoteParams,
  ApprovalQueueQuery,
  ApprovalQueueSchema,
  DsaReportBody,
  ErrorBody,
  IdParams,
  ModerationPageQuery,
  NewAdminNoteBody,
  NewPluginReportBody,
  PartialBlockBody,
  type AdminNoteBody,
  type PluginReportBody,
  type PluginStateBody,
} from '@marketplace/api-contract';
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/client';
import { adminNotes, pluginAuditLog, pluginReports, plugins, pluginVersions } from '../db/schema';
import { ApiError } from '../plugins/app/errors';
import { setOffsetLinks } from '../routes/pagination';
import { pluginVisibleTo, selectRows, viewerOf } from '../search/sql';
import { scannerFor } from '../trust/scanning/service';
import { loadApprovalQueue } from './approval-queue';
import { recordAudit } from './audit';
import {
  ADMIN_ACTIONS,
  decideLifecycleAction,
  LIFECYCLE_ACTIONS,
  REPORTING_ACTIONS,
  type LifecycleAction,
} from './lifecycle';
import { loadPluginState, pluginManagers, viewerUserId, type PluginState } from './plugin-access';

export async function stateBody(db: Queryable, pluginId: number): Promise<PluginStateBody> {
  const [row] = await selectRows<{
    lifecycle_state: string;
    approved: boolean;
    block_state: string;
    modification_allowed: boolean;
    listed: boolean;
    pending: boolean;
  }>(
    db,
    sql`SELECT p.lifecycle_state, p.approved, p.block_state, p.modification_allowed, p.listed,
        EXISTS (SELECT 1 FROM plugin_versions pv WHERE pv.plugin_id = p.id AND pv.approval_state = 'pending') AS pending
      FROM plugins p WHERE p.id = ${pluginId}`,
  );
  if (!row) throw new ApiError('notFound', `Plugin ${pluginId} does not exist.`);
  return {
    id: pluginId,
    lifecycleState: row.lifecycle_state,
    approved: row.approved,
    blockState: row.block_state,
    modificationAllowed: row.modification_allowed,
    hasUnapprovedUpdate: row.pending,
    listed: row.listed,
  };
}

/**
 * The versions an administrator chose to block: at least one, each of this plugin and offered to visitors
 * (approved). Anything else is a 400 and nothing is written.
 */
async function chooseVersionsToBlock(
  db: Queryable,
  pluginId: number,
  chosen: readonly number[],
): Promise<number[]> {
  const ids = [...new Set(chosen)];
  if (ids.length === 0) throw new ApiError('badRequest', 'Choose the versions to block.');
  const rows = await db
    .select({ id: pluginVersions.id, version: pluginVersions.version, state: pluginVersions.approvalState })
    .from(pluginVersions)
    .where(and(eq(pluginVersions.pluginId, pluginId), inArray(pluginVersions.id, ids)));
  const foreign = ids.filter((id) => !rows.some((row) => row.id === id));
  if (foreign.length > 0) {
    throw new ApiError(
      'badRequest',
      `Plugin ${pluginId} has no version ${foreign.join(', ')}: choose among its own versions.`,
    );
  }
  const notOffered = rows.filter((row) => row.state !== 'approved');
  if (notOffered.length > 0) {
    throw new ApiError(
      'badRequest',
      `Only approved versions can be blocked; ${notOffered
        .map((row) => `${row.version} is ${row.state}`)
        .join(', ')}.`,
    );
  }
  return ids;
}

function snapshot(state: PluginState) {
  return {
    lifecycleState: state.lifecycleState,
    approved: state.approved,
    blockState: state.blockState,
    modificationAllowed: state.modificationAllowed,
    pendingVersions: state.pendingVersions,
  };
}

/**
 * The plugin lifecycle (approve ... disallow-access, the state machine of README.md, enforced with 409),
 * its audit log, admin notes and visitors' reports.
 */
const moderationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Lifecycle routes reach deleted plugins too: an administrator restores them.
  const managersIncludingDeleted = async (request: FastifyRequest) => {
    const id = Number((request.params as { id?: unknown }).id);
    if (!Number.isSafeInteger(id) || id <= 0) return undefined;
    const [row] = await selectRows<{ lifecycle_state: string }>(
      app.db,
      sql`SELECT lifecycle_state FROM plugins WHERE id = ${id}`,
    );
    if (!row) return undefined;
    if (row.lifecycle_state !== 'deleted') return pluginManagers(app.db, id);
    return [];
  };

  async function takeAction(
    request: FastifyRequest,
    pluginId: number,
    action: LifecycleAction,
    report: Record<string, string> | null | undefined,
    chosenVersions?: readonly number[],
  ): Promise<PluginStateBody> {
    const viewer = request.viewer;
    const actor = viewer.kind === 'user' && viewer.isAdmin ? 'admin' : 'developer';
    // An approval finds each version it approves scanned (src/trust/scanning): passed ones are offered at
    // once, quarantined ones stay held until an administrator releases them.
    if (action === 'approve') await scannerFor(app).settlePlugin(pluginId);
    return app.db.transaction(async (tx) => {
      const state = await loadPluginState(tx, pluginId, { forUpdate: true });
      if (!state) throw new ApiError('notFound', `Plugin ${pluginId} does not exist.`);
      const decision = decideLifecycleAction(action, state, actor);
      if (!decision.allowed) {
        request.log.warn({ pluginId, action, reason: decision.reason }, 'lifecycle action refused');
        throw new ApiError('conflict', decision.reason);
      }
      const change = decision.change;
      // Checked before anything is written: a refusal changes nothing.
      const toBlock = change.blockChosenVersions
        ? await chooseVersionsToBlock(tx, pluginId, chosenVersions ?? [])
        : [];
      const columns = {
        ...(change.lifecycleState !== undefined ? { lifecycleState: change.lifecycleState } : {}),
        ...(change.approved !== undefined ? { approved: change.approved } : {}),
        ...(change.blockState !== undefined ? { blockState: change.blockState } : {}),
        ...(change.modificationAllowed !== undefined
          ? { modificationAllowed: change.modificationAllowed }
          : {}),
        ...(change.setPublishedAt ? { publishedAt: sql`coalesce(${plugins.publishedAt}, now())` } : {}),
      };
      if (Object.keys(columns).length > 0)
        await tx.update(plugins).set(columns).where(eq(plugins.id, pluginId));
      let versionIds: number[] = [];
      if (change.pendingVersionsBecome) {
        const changed = await tx
          .update(pluginVersions)
          .set({ approvalState: change.pendingVersionsBecome })
          .where(and(eq(pluginVersions.pluginId, pluginId), eq(pluginVersions.approvalState, 'pending')))
          .returning({ id: pluginVersions.id });
        versionIds = changed.map((row) => row.id);
      }
      if (toBlock.length > 0) {
        await tx
          .update(pluginVersions)
          .set({ approvalState: 'blocked' })
          .where(and(eq(pluginVersions.pluginId, pluginId), inArray(pluginVersions.id, toBlock)));
        versionIds = [...toBlock];
      }
      if (change.unblockVersions) {
        const changed = await tx
          .update(pluginVersions)
          .set({ approvalState: 'approved' })
          .where(and(eq(pluginVersions.pluginId, pluginId), eq(pluginVersions.approvalState, 'blocked')))
          .returning({ id: pluginVersions.id });
        versionIds = changed.map((row) => row.id);
      }
      const after = await loadPluginState(tx, pluginId);
      await recordAudit(tx, {
        pluginId,
        actorId: viewerUserId(viewer),
        action,
        details: {
          from: snapshot(state),
          to: after ? snapshot(after) : null,
          ...(versionIds.length > 0 ? { versions: versionIds } : {}),
          ...(report ? { dsaReport: report } : {}),
        },
      });
      request.log.info({ pluginId, action, actor }, 'lifecycle action taken');
      return stateBody(tx, pluginId);
    });
  }

  // Partial block: the body names the versions (checked after the state, so a blocked plugin answers 409).
  app.post(
    '/api/plugins/:id/partial-block',
    {
      config: { auth: { rule: 'admin' } },
      schema: {
        tags: ['moderation'],
        summary: 'partial-block: block chosen versions of the plugin (administrators)',
        params: IdParams,
        body: PartialBlockBody,
      },
    },
    async (request) =>
      takeAction(
        request,
        request.params.id,
        'partial-block',
        request.body?.report ?? undefined,
        request.body?.versions ?? [],
      ),
  );

  for (const action of LIFECYCLE_ACTIONS) {
    if (action === 'partial-block') continue;
    const auth = ADMIN_ACTIONS.has(action)
      ? ({ rule: 'admin' } as const)
      : ({ rule: 'owner', ownerOf: managersIncludingDeleted } as const);
    app.post(
      `/api/plugins/:id/${action}`,
      {
        config: { auth },
        schema: {
          tags: ['moderation'],
          summary: `${action} (${ADMIN_ACTIONS.has(action) ? 'administrators' : 'developers and administrators'})`,
          params: IdParams,
          ...(REPORTING_ACTIONS.has(action) ? { body: DsaReportBody } : {}),
        },
      },
      async (request) =>
        takeAction(
          request,
          request.params.id,
          action,
          REPORTING_ACTIONS.has(action)
            ? (request.body as Record<string, string> | null | undefined)
            : undefined,
        ),
    );
  }

  app.delete(
    '/api/plugins/:id',
    {
      config: { auth: { rule: 'owner', ownerOf: managersIncludingDeleted } },
      schema: {
        tags: ['moderation'],
        summary: 'Delete a plugin (optional DSA report body)',
        params: IdParams,
        body: DsaReportBody,
      },
    },
    async (request) => takeAction(request, request.params.id, 'delete', request.body),
  );

  app.get(
    '/api/plugins/:id/audit-log',
    {
      config: { auth: { rule: 'owner', ownerOf: managersIncludingDeleted } },
      schema: {
        tags: ['moderation'],
        summary: 'Every management and moderation action on the plugin',
        params: IdParams,
        querystring: ModerationPageQuery,
      },
    },
    async (request) => {
      const rows = await app.db
        .select()
        .from(pluginAuditLog)
        .where(eq(pluginAuditLog.pluginId, request.params.id))
        .orderBy(desc(pluginAuditLog.createdAt), desc(pluginAuditLog.id))
        .limit(request.query.max)
        .offset(request.query.offset);
      return rows.map((row) => ({
        id: row.id,
        action: row.action,
        actorId: row.actorId,
        details: row.details,
        date: row.createdAt.getTime(),
      }));
    },
  );

  // Admin notes: administrators only; list, add, resolve.
  const ADMIN = { rule: 'admin' } as const;
  const noteBody = (row: typeof adminNotes.$inferSelect): AdminNoteBody => ({
    id: row.id,
    text: row.text,
    authorId: row.authorId,
    cdate: row.createdAt.getTime(),
    resolved: row.resolvedAt !== null,
    resolvedAt: row.resolvedAt?.getTime() ?? null,
    resolvedBy: row.resolvedBy,
  });

  async function requirePlugin(id: number) {
    const [row] = await app.db.select({ id: plugins.id }).from(plugins).where(eq(plugins.id, id));
    if (!row) throw new ApiError('notFound', `Plugin ${id} does not exist.`);
  }

  app.get(
    '/api/plugins/:id/admin-notes',
    {
      config: { auth: ADMIN },
      schema: { tags: ['moderation'], summary: 'Admin notes', params: IdParams },
    },
    async (request) => {
      await requirePlugin(request.params.id);
      const rows = await app.db
        .select()
        .from(adminNotes)
        .where(eq(adminNotes.pluginId, request.params.id))
        .orderBy(desc(adminNotes.createdAt), desc(adminNotes.id));
      return rows.map(noteBody);
    },
  );

  app.post(
    '/api/plugins/:id/admin-notes',
    {
      config: { auth: ADMIN },
      schema: {
        tags: ['moderation'],
        summary: 'Add an admin note',
        params: IdParams,
        body: NewAdminNoteBody,
      },
    },
    async (request, reply) => {
      await requirePlugin(request.params.id);
      const text = request.body.text.trim();
      if (text === '') throw new ApiError('badRequest', 'Write something in the note.');
      const note = await app.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(adminNotes)
          .values({ pluginId: request.params.id, authorId: viewerUserId(request.viewer), text })
          .returning();
        if (!row) throw new Error('The admin note was not written.');
        await recordAudit(tx, {
          pluginId: request.params.id,
          actorId: viewerUserId(request.viewer),
          action: 'add-admin-note',
          details: { noteId: row.id },
        });
        return row;
      });
      return reply.code(201).send(noteBody(note));
    },
  );

  app.post(
    '/api/plugins/:id/admin-notes/:noteId/resolve',
    {
      config: { auth: ADMIN },
      schema: { tags: ['moderation'], summary: 'Resolve an admin note', params: AdminNoteParams },
    },
    async (request) => {
      const { id, noteId } = request.params;
      return app.db.transaction(async (tx) => {
        const [existing] = await tx
          .select()
          .from(adminNotes)
          .where(and(eq(adminNotes.id, noteId), eq(adminNotes.pluginId, id)))
          .for('update');
        if (!existing) throw new ApiError('notFound', `Plugin ${id} has no admin note ${noteId}.`);
        if (existing.resolvedAt !== null) throw new ApiError('conflict', 'The note is already resolved.');
        const [row] = await tx
          .update(adminNotes)
          .set({ resolvedAt: new Date(), resolvedBy: viewerUserId(request.viewer) })
          .where(and(eq(adminNotes.id, noteId), isNull(adminNotes.resolvedAt)))
          .returning();
        if (!row) throw new ApiError('conflict', 'The note is already resolved.');
        await recordAudit(tx, {
          pluginId: id,
          actorId: viewerUserId(request.viewer),
          action: 'resolve-admin-note',
          details: { noteId },
        });
        return noteBody(row);
      });
    },
  );

  // Reports: anyone who can see a plugin may report it; administrators read them.
  const reportBody = (row: typeof pluginReports.$inferSelect): PluginReportBody => ({
    id: row.id,
    pluginId: row.pluginId,
    reporterId: row.reporterId,
    reason: row.reason,
    message: row.message,
    cdate: row.createdAt.getTime(),
  });

  app.post(
    '/api/plugins/:id/reports',
    {
      config: { auth: { rule: 'public' } },
      schema: {
        tags: ['moderation'],
        summary: 'Report a plugin to the administrators',
        params: IdParams,
        body: NewPluginReportBody,
      },
    },
    async (request, reply) => {
      const [visible] = await selectRows<{ id: number }>(
        app.db,
        sql`SELECT p.id FROM plugins p WHERE p.id = ${request.params.id} AND ${pluginVisibleTo(viewerOf(request))}`,
      );
      if (!visible) throw new ApiError('notFound', `Plugin ${request.params.id} does not exist.`);
      const reason = request.body.reason.trim();
      if (reason === '') throw new ApiError('badRequest', 'Say why you report this plugin.');
      const [row] = await app.db
        .insert(pluginReports)
        .values({
          pluginId: request.params.id,
          reporterId: viewerUserId(request.viewer),
          reason,
          message: request.body.message?.trim() ?? '',
        })
        .returning();
      if (!row) throw new Error('The report was not written.');
      request.log.info({ pluginId: row.pluginId, reportId: row.id }, 'plugin reported');
      return reply.code(201).send(reportBody(row));
    },
  );

  app.get(
    '/api/plugins/:id/reports',
    {
      config: { auth: ADMIN },
      schema: {
        tags: ['moderation'],
        summary: "A plugin's reports",
        params: IdParams,
        querystring: ModerationPageQuery,
      },
    },
    async (request) => {
      await requirePlugin(request.params.id);
      const rows = await app.db
        .select()
        .from(pluginReports)
        .where(eq(pluginReports.pluginId, request.params.id))
        .orderBy(desc(pluginReports.createdAt), desc(pluginReports.id))
        .limit(request.query.max)
        .offset(request.query.offset);
      return rows.map(reportBody);
    },
  );

  app.get(
    '/api/admin/plugins/pending',
    {
      config: { auth: ADMIN },
      schema: {
        tags: ['moderation'],
        summary:
          'Plugins waiting for an administrator (published and not approved, or with versions pending), oldest first',
        querystring: ApprovalQueueQuery,
        response: { 200: ApprovalQueueSchema, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request, reply) => {
      const { max, offset } = request.query;
      const queue = await loadApprovalQueue(app.db, { max, offset });
      setOffsetLinks(request, reply, offset, max, queue.total);
      // Who waits is administrators' business: never kept by a shared cache.
      reply.header('cache-control', 'private, no-cache');
      return queue.entries;
    },
  );
  // The administrators' reports queue (GET /api/admin/reports, resolve) is in src/admin/moderation.
};

export default moderationRoutes;
