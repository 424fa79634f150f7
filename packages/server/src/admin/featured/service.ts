import type { ProductFamily } from '@marketplace/core';
import { eq, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client';
import { featuredItems } from '../../db/schema';
import { ApiError } from '../../plugins/app/errors';
import {
  PLUGIN_SUMMARY_COLUMNS,
  toPluginSummary,
  type PluginSummaryRow,
  type StoredPluginSummary,
} from '../../search/plugin-summary';
import { pluginVisibleTo, selectRows, type Viewer } from '../../search/sql';
import { recordAdminAudit } from '../audit';

/** A family's featured items the viewer may see, in their order (the home page's "Featured" section). */
export async function loadFeaturedItems(
  db: Queryable,
  family: ProductFamily,
  viewer: Viewer | undefined,
): Promise<StoredPluginSummary[]> {
  const rows = await selectRows<PluginSummaryRow>(
    db,
    sql`SELECT ${PLUGIN_SUMMARY_COLUMNS} FROM featured_items f
      JOIN plugins p ON p.id = f.plugin_id LEFT JOIN vendors v ON v.id = p.vendor_id
      WHERE f.family = ${family} AND ${pluginVisibleTo(viewer)}
      ORDER BY f.position`,
  );
  return rows.map(toPluginSummary);
}

/**
 * Replaces a family's featured list with `pluginIds`, in that order, and records it in the audit log, in one
 * transaction. Every id must name an item of the family that is not deleted, each once; otherwise nothing
 * changes (400 naming the first problem).
 */
export async function setFeaturedItems(
  db: Database,
  family: ProductFamily,
  pluginIds: readonly number[],
  actorId: number,
): Promise<void> {
  const twice = pluginIds.find((id, index) => pluginIds.indexOf(id) !== index);
  if (twice !== undefined) throw new ApiError('badRequest', `Item ${twice} is listed twice.`);
  await db.transaction(async (tx) => {
    // One change of a family's list at a time: the second waits, then replaces the first's.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`featured_items:${family}`}))`);
    const found =
      pluginIds.length === 0
        ? []
        : await selectRows<{ id: number; family: ProductFamily; lifecycle_state: string }>(
            tx,
            sql`SELECT p.id, p.family, p.lifecycle_state FROM plugins p
              WHERE p.id IN (${sql.join(
                pluginIds.map((id) => sql`${id}`),
                sql`, `,
              )})`,
          );
    const byId = new Map(found.map((row) => [row.id, row]));
    for (const id of pluginIds) {
      const row = byId.get(id);
      if (!row || row.lifecycle_state === 'deleted') {
        throw new ApiError('badRequest', `Item ${id} does not exist.`);
      }
      if (row.family !== family) {
        throw new ApiError('badRequest', `Item ${id} is of the ${row.family} family, not ${family}.`);
      }
    }
    const before = await tx
      .select({ pluginId: featuredItems.pluginId })
      .from(featuredItems)
      .where(eq(featuredItems.family, family))
      .orderBy(featuredItems.position);
    await tx.delete(featuredItems).where(eq(featuredItems.family, family));
    if (pluginIds.length > 0) {
      await tx
        .insert(featuredItems)
        .values(pluginIds.map((pluginId, position) => ({ family, pluginId, position, addedBy: actorId })));
    }
    await recordAdminAudit(tx, {
      actorId,
      action: 'featured.set',
      subject: `featured:${family}`,
      details: { before: before.map((row) => row.pluginId), after: [...pluginIds] },
    });
  });
}
