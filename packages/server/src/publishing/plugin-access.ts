import type { PricingModel } from '@marketplace/core';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Viewer } from '../auth';
import type { Database, Queryable } from '../db/client';
import type { BlockState, LifecycleState } from '../db/schema';
import { selectRows } from '../search/sql';

/** The state of a plugin that decides what may be done with it. */
export interface PluginState {
  id: number;
  family: string;
  xmlId: string;
  name: string;
  ownerId: number | null;
  lifecycleState: LifecycleState;
  approved: boolean;
  blockState: BlockState;
  hidden: boolean;
  modificationAllowed: boolean;
  pricingModel: PricingModel;
  publishedAt: Date | null;
  /** Versions waiting for an administrator. */
  pendingVersions: number;
  versions: number;
}

interface StateRow {
  id: number;
  family: string;
  xml_id: string;
  name: string;
  owner_id: number | null;
  lifecycle_state: LifecycleState;
  approved: boolean;
  block_state: BlockState;
  hidden: boolean;
  modification_allowed: boolean;
  pricing_model: PricingModel;
  published_at: string | null;
  pending_versions: number;
  versions: number;
}

/** Reads a plugin's state; `forUpdate` locks the row for the rest of the transaction. */
export async function loadPluginState(
  db: Queryable,
  pluginId: number,
  options: { forUpdate?: boolean } = {},
): Promise<PluginState | undefined> {
  const [row] = await selectRows<StateRow>(
    db,
    sql`SELECT p.id, p.family, p.xml_id, p.name, p.owner_id, p.lifecycle_state, p.approved, p.block_state,
        p.hidden, p.modification_allowed, p.pricing_model, p.published_at::text AS published_at,
        (SELECT count(*)::int FROM plugin_versions pv WHERE pv.plugin_id = p.id AND pv.approval_state = 'pending')
          AS pending_versions,
        (SELECT count(*)::int FROM plugin_versions pv WHERE pv.plugin_id = p.id) AS versions
      FROM plugins p WHERE p.id = ${pluginId} ${options.forUpdate ? sql`FOR UPDATE OF p` : sql``}`,
  );
  if (!row) return undefined;
  return {
    id: row.id,
    family: row.family,
    xmlId: row.xml_id,
    name: row.name,
    ownerId: row.owner_id,
    lifecycleState: row.lifecycle_state,
    approved: row.approved,
    blockState: row.block_state,
    hidden: row.hidden,
    modificationAllowed: row.modification_allowed,
    pricingModel: row.pricing_model,
    publishedAt: row.published_at === null ? null : new Date(row.published_at),
    pendingVersions: row.pending_versions,
    versions: row.versions,
  };
}

/** The users who manage a plugin: its owner and its developers. Undefined when there is no such plugin. */
export async function pluginManagers(db: Queryable, pluginId: number): Promise<number[] | undefined> {
  const rows = await selectRows<{ owner_id: number | null; user_id: number | null }>(
    db,
    sql`SELECT p.owner_id, d.user_id FROM plugins p LEFT JOIN plugin_developers d ON d.plugin_id = p.id
      WHERE p.id = ${pluginId} AND p.lifecycle_state <> 'deleted'`,
  );
  if (rows.length === 0) return undefined;
  const ids = new Set<number>();
  for (const row of rows) {
    if (row.owner_id !== null) ids.add(row.owner_id);
    if (row.user_id !== null) ids.add(row.user_id);
  }
  return [...ids];
}

/**
 * The `ownerOf` of routes addressed as `/.../:id/...`: the plugin's managers, or undefined (404) for a
 * plugin that does not exist or was deleted. Ids that are not whole numbers address nothing.
 */
export function managersOfPluginParam(db: Database) {
  return async (request: FastifyRequest): Promise<readonly number[] | undefined> => {
    const raw = (request.params as { id?: unknown }).id;
    const id = Number(raw);
    if (!Number.isSafeInteger(id) || id <= 0) return undefined;
    return pluginManagers(db, id);
  };
}

export function viewerUserId(viewer: Viewer): number | null {
  return viewer.kind === 'user' ? viewer.user.id : null;
}

export function isAdministrator(viewer: Viewer): boolean {
  return viewer.kind === 'user' && viewer.isAdmin && !viewer.banned;
}
