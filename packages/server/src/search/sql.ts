import { IDE_PRODUCTS, type IdeProductKey, type ProductFamily } from '@marketplace/core';
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Viewer as RequestViewer } from '../auth/authorization';
import type { Queryable } from '../db/client';

/** Runs a statement and returns its rows. Columns are cast in SQL so both drivers give the same JS types. */
export async function selectRows<Row>(db: Queryable, statement: SQL): Promise<Row[]> {
  const result = await db.execute(statement);
  return result.rows as Row[];
}

/**
 * Who is looking, as the catalogue queries need it. Visitors (undefined) see only listed items; a signed-in
 * owner or developer also sees their own unlisted items (deleted ones aside), and administrators see
 * everything, deleted items included (they are the ones who may restore them).
 */
export interface Viewer {
  userId: number;
  isAdmin: boolean;
}

/** The viewer of a request, from sign-in's `request.viewer` (guests, and banned users, are visitors). */
export function viewerOf(request: FastifyRequest): Viewer | undefined {
  const viewer = request.viewer as RequestViewer | null | undefined;
  if (!viewer || viewer.kind !== 'user' || viewer.banned) return undefined;
  return { userId: viewer.user.id, isAdmin: viewer.isAdmin };
}

/** The condition "the plugin aliased `p` is visible to this viewer". */
export function pluginVisibleTo(viewer: Viewer | undefined): SQL {
  if (!viewer) return sql`p.listed`;
  // Administrators see every state, deleted included: they are the ones who may restore it.
  if (viewer.isAdmin) return sql`true`;
  return sql`(p.listed OR (p.lifecycle_state <> 'deleted' AND ${developedBy(viewer.userId)}))`;
}

/**
 * The condition "this viewer manages the plugin aliased `p`": an administrator, or its owner or one of its
 * developers (a deleted plugin is the administrators' only). They are shown its lifecycle.
 */
export function pluginManagedBy(viewer: Viewer | undefined): SQL {
  if (!viewer) return sql`false`;
  if (viewer.isAdmin) return sql`true`;
  return sql`(p.lifecycle_state <> 'deleted' AND ${developedBy(viewer.userId)})`;
}

function developedBy(userId: number): SQL {
  return sql`(p.owner_id = ${userId} OR EXISTS (
    SELECT 1 FROM plugin_developers d WHERE d.plugin_id = p.id AND d.user_id = ${userId}))`;
}

/**
 * Columns of the lifecycle of the plugin aliased `p` (see toPluginLifecycle), null for viewers who do not
 * manage it.
 */
export function pluginLifecycleColumns(viewer: Viewer | undefined): SQL {
  return sql`CASE WHEN ${pluginManagedBy(viewer)} THEN json_build_object(
      'lifecycleState', p.lifecycle_state, 'approved', p.approved, 'blockState', p.block_state,
      'modificationAllowed', p.modification_allowed, 'hidden', p.hidden,
      'pendingVersions', (SELECT count(*) FROM plugin_versions lv
        WHERE lv.plugin_id = p.id AND lv.approval_state = 'pending'),
      'versions', (SELECT count(*) FROM plugin_versions lv WHERE lv.plugin_id = p.id))
    END AS lifecycle`;
}

/**
 * The scan states of a version that may be offered to visitors (src/trust/scanning): passed, released by an
 * administrator, or written before scanning existed. Pending, quarantined and rejected ones are held back.
 */
export const OFFERED_SCAN_STATES = ['unscanned', 'passed', 'released'] as const;

/** The condition "the version aliased `pv` can be seen and downloaded by this viewer". */
export function versionVisibleTo(viewer: Viewer | undefined): SQL {
  const published = sql`(pv.approval_state = 'approved' AND NOT pv.hidden
    AND pv.scan_state IN ('unscanned', 'passed', 'released'))`;
  if (!viewer) return published;
  if (viewer.isAdmin) return sql`true`;
  return sql`(${published} OR p.owner_id = ${viewer.userId} OR EXISTS (
    SELECT 1 FROM plugin_developers d WHERE d.plugin_id = p.id AND d.user_id = ${viewer.userId}))`;
}

/** Milliseconds since 1970 of a timestamptz column, as a JS number on both drivers. */
export function epochMs(column: SQL): SQL {
  return sql`(extract(epoch FROM ${column}) * 1000)::float8`;
}

/** Families whose items an IDE product key can run (e.g. IDEA -> intellij). */
function familyOfProduct(product: IdeProductKey): ProductFamily {
  return IDE_PRODUCTS[product].family;
}

/**
 * Compatible with one of the products: listed among the plugin's compatible products, or the plugin lists none
 * (it then runs on every product of its family).
 */
export function compatibleWithAny(products: readonly IdeProductKey[]): SQL {
  const keys = [...new Set(products)];
  const families = [...new Set(keys.map(familyOfProduct))];
  return sql`(EXISTS (SELECT 1 FROM plugin_compatible_products cp WHERE cp.plugin_id = p.id
      AND cp.product IN (${sql.join(
        keys.map((key) => sql`${key}`),
        sql`, `,
      )}))
    OR (p.family IN (${sql.join(
      families.map((family) => sql`${family}`),
      sql`, `,
    )}) AND NOT EXISTS (SELECT 1 FROM plugin_compatible_products cp WHERE cp.plugin_id = p.id)))`;
}
