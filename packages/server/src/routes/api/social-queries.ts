import type {
  CommentBody,
  PluginLifecycleBody,
  UserBody,
  UserPluginSummaryBody,
} from '@marketplace/api-contract';
import {
  IDE_PRODUCTS,
  itemNoun,
  productFullName,
  type IdeProductKey,
  type ProductFamily,
} from '@marketplace/core';
import { sql, type SQL } from 'drizzle-orm';
import { recordAdminAudit } from '../../admin/audit';
import type { Database, Queryable } from '../../db/client';
import { ApiError } from '../../plugins/app/errors';
import {
  PLUGIN_SUMMARY_COLUMNS,
  pluginPagePath,
  toPluginLifecycle,
  toPluginSummary,
  userPagePath,
  type PluginSummaryRow,
  type StoredPluginSummary,
} from '../../search/plugin-summary';
import { epochMs, pluginLifecycleColumns, pluginVisibleTo, selectRows, type Viewer } from '../../search/sql';

/** A review row as the comment queries select it (reviews/ selects the same columns). */
export interface CommentRow {
  id: number;
  plugin_id: number;
  plugin_name: string;
  author_id: number;
  author_login: string;
  author_name: string;
  rating: number;
  text: string;
  cdate: number;
  update_date: number | null;
}

/** A reply row; `review_id` where replies of several reviews are read at once. */
export interface ReplyRow {
  id: number;
  review_id?: number;
  author_id: number;
  author_login: string;
  author_name: string;
  text: string;
  cdate: number;
}

function commentAuthor(id: number, login: string, name: string) {
  return { id, login, name, link: userPagePath(id) };
}

/** A reply in the shape of GET /api/comments. */
export function toCommentReply(row: ReplyRow) {
  return {
    id: row.id,
    author: commentAuthor(row.author_id, row.author_login, row.author_name),
    comment: row.text,
    cdate: row.cdate,
  };
}

/** A review and its replies in the shape of GET /api/comments. */
export function toComment(row: CommentRow, replies: readonly ReplyRow[]): CommentBody {
  return {
    id: row.id,
    plugin: {
      id: row.plugin_id,
      name: row.plugin_name,
      link: pluginPagePath(row.plugin_id, row.plugin_name),
    },
    author: commentAuthor(row.author_id, row.author_login, row.author_name),
    rating: row.rating,
    comment: row.text,
    cdate: row.cdate,
    updateDate: row.update_date,
    replies: replies.map(toCommentReply),
  };
}

/** Reviews of plugins the viewer can see, by authors who are not banned, newest first. */
async function loadComments(
  db: Queryable,
  condition: SQL,
  viewer: Viewer | undefined,
  page: number,
  size: number,
): Promise<{ comments: CommentBody[]; total: number }> {
  const where = sql`${condition} AND ${pluginVisibleTo(viewer)} AND NOT u.banned`;
  const [rows, counted] = await Promise.all([
    selectRows<CommentRow>(
      db,
      sql`SELECT r.id, r.plugin_id, p.name AS plugin_name, u.id AS author_id, u.login AS author_login,
          u.name AS author_name, r.rating::int AS rating, r.text, ${epochMs(sql`r.created_at`)} AS cdate,
          CASE WHEN r.updated_at > r.created_at THEN ${epochMs(sql`r.updated_at`)} END AS update_date
        FROM reviews r JOIN plugins p ON p.id = r.plugin_id JOIN users u ON u.id = r.author_id
        WHERE ${where} ORDER BY r.created_at DESC, r.id DESC
        LIMIT ${size} OFFSET ${(page - 1) * size}`,
    ),
    selectRows<{ total: number }>(
      db,
      sql`SELECT count(*)::int AS total FROM reviews r JOIN plugins p ON p.id = r.plugin_id
        JOIN users u ON u.id = r.author_id WHERE ${where}`,
    ),
  ]);
  const replies =
    rows.length === 0
      ? []
      : await selectRows<ReplyRow>(
          db,
          sql`SELECT rr.id, rr.review_id, u.id AS author_id, u.login AS author_login, u.name AS author_name,
              rr.text, ${epochMs(sql`rr.created_at`)} AS cdate
            FROM review_replies rr JOIN users u ON u.id = rr.author_id
            WHERE rr.review_id IN (${sql.join(
              rows.map((row) => sql`${row.id}`),
              sql`, `,
            )}) AND NOT u.banned
            ORDER BY rr.created_at, rr.id`,
        );
  const comments = rows.map((row) =>
    toComment(
      row,
      replies.filter((reply) => reply.review_id === row.id),
    ),
  );
  return { comments, total: counted[0]?.total ?? 0 };
}

export function loadPluginComments(
  db: Queryable,
  pluginId: number,
  viewer: Viewer | undefined,
  page: number,
  size: number,
) {
  return loadComments(db, sql`r.plugin_id = ${pluginId}`, viewer, page, size);
}

export function loadUserComments(
  db: Queryable,
  userId: number,
  viewer: Viewer | undefined,
  page: number,
  size: number,
) {
  return loadComments(db, sql`r.author_id = ${userId}`, viewer, page, size);
}

/** A user's public profile; banned users have none. */
export async function loadUser(db: Queryable, id: number): Promise<UserBody | undefined> {
  const rows = await selectRows<{ id: number; login: string; name: string; cdate: number }>(
    db,
    sql`SELECT id, login, name, ${epochMs(sql`created_at`)} AS cdate FROM users WHERE id = ${id} AND NOT banned`,
  );
  const row = rows[0];
  return row && { ...row, link: userPagePath(row.id) };
}

/**
 * The items a user owns or develops, in the given families: in the order the user gave them (PUT
 * /api/plugins/order), then the others most downloaded first.
 */
export async function loadUserPlugins(
  db: Queryable,
  userId: number,
  families: readonly ProductFamily[],
  viewer: Viewer | undefined,
  page: number,
  size: number,
): Promise<{ plugins: Omit<UserPluginSummaryBody, 'downloadStatistics'>[]; total: number }> {
  if (families.length === 0) return { plugins: [], total: 0 };
  const where = sql`${pluginVisibleTo(viewer)} AND p.family IN (${sql.join(
    [...new Set(families)].map((family) => sql`${family}`),
    sql`, `,
  )}) AND (p.owner_id = ${userId}
    OR EXISTS (SELECT 1 FROM plugin_developers d WHERE d.plugin_id = p.id AND d.user_id = ${userId}))`;
  const [rows, counted] = await Promise.all([
    selectRows<PluginSummaryRow & { lifecycle: PluginLifecycleBody | null }>(
      db,
      sql`SELECT ${PLUGIN_SUMMARY_COLUMNS}, ${pluginLifecycleColumns(viewer)}
        FROM plugins p LEFT JOIN vendors v ON v.id = p.vendor_id
        WHERE ${where}
        ORDER BY (SELECT o.position FROM plugin_owner_order o WHERE o.user_id = ${userId} AND o.plugin_id = p.id)
          ASC NULLS LAST, p.downloads DESC, p.id DESC
        LIMIT ${size} OFFSET ${(page - 1) * size}`,
    ),
    selectRows<{ total: number }>(db, sql`SELECT count(*)::int AS total FROM plugins p WHERE ${where}`),
  ]);
  // The lifecycle of each item the viewer develops or administers (their dashboard's status labels).
  const plugins = rows.map((row) => ({
    ...toPluginSummary(row),
    ...(row.lifecycle ? { lifecycle: toPluginLifecycle(row.lifecycle) } : {}),
  }));
  return { plugins, total: counted[0]?.total ?? 0 };
}

/** Featured items for an IDE product, in their display order, optionally of one family. */
export async function loadFeatured(
  db: Queryable,
  product: IdeProductKey,
  family: ProductFamily | undefined,
  viewer: Viewer | undefined,
): Promise<StoredPluginSummary[]> {
  const familyCondition = family ? sql`AND p.family = ${family}` : sql``;
  const rows = await selectRows<PluginSummaryRow>(
    db,
    sql`SELECT ${PLUGIN_SUMMARY_COLUMNS} FROM featured_plugins f
      JOIN plugins p ON p.id = f.plugin_id LEFT JOIN vendors v ON v.id = p.vendor_id
      WHERE f.product = ${product} AND ${pluginVisibleTo(viewer)} ${familyCondition}
      ORDER BY f.position, p.id LIMIT 100`,
  );
  return rows.map(toPluginSummary);
}

/**
 * Replaces an IDE product's staff picks (`featured_plugins`) with `pluginIds`, in that order, and records it
 * in the audit log, in one transaction. Every id must name an item that is not deleted, of the product's
 * family, that runs on the product (it names it among its compatible products, or names none), each once;
 * otherwise nothing changes (400 naming the first problem). The search index follows through migration 0090.
 */
export async function setFeaturedPlugins(
  db: Database,
  product: IdeProductKey,
  pluginIds: readonly number[],
  actorId: number,
): Promise<void> {
  const twice = pluginIds.find((id, index) => pluginIds.indexOf(id) !== index);
  if (twice !== undefined) throw new ApiError('badRequest', `Item ${twice} is listed twice.`);
  const ide = IDE_PRODUCTS[product];
  await db.transaction(async (tx) => {
    // One change of a product's picks at a time: the second waits, then replaces the first's.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`featured_plugins:${product}`}))`);
    const found =
      pluginIds.length === 0
        ? []
        : await selectRows<{
            id: number;
            name: string;
            family: ProductFamily;
            deleted: boolean;
            runs: boolean;
          }>(
            tx,
            sql`SELECT p.id, p.name, p.family, p.lifecycle_state = 'deleted' AS deleted,
                (EXISTS (SELECT 1 FROM plugin_compatible_products cp
                    WHERE cp.plugin_id = p.id AND cp.product = ${product})
                  OR NOT EXISTS (SELECT 1 FROM plugin_compatible_products cp WHERE cp.plugin_id = p.id)) AS runs
              FROM plugins p WHERE p.id IN (${sql.join(
                pluginIds.map((id) => sql`${id}`),
                sql`, `,
              )})`,
          );
    const byId = new Map(found.map((row) => [row.id, row]));
    for (const id of pluginIds) {
      const row = byId.get(id);
      if (!row || row.deleted) throw new ApiError('badRequest', `Item ${id} does not exist.`);
      if (row.family !== ide.family) {
        throw new ApiError(
          'badRequest',
          `${row.name} (${id}) is of the ${row.family} family; ${productFullName(ide)} shows ${ide.family} items.`,
        );
      }
      if (!row.runs) {
        throw new ApiError(
          'badRequest',
          `${row.name} (${id}) does not run on ${productFullName(ide)}: the ${itemNoun(row.family)} names ` +
            'other compatible products.',
        );
      }
    }
    const before = await selectRows<{ plugin_id: number }>(
      tx,
      sql`SELECT plugin_id FROM featured_plugins WHERE product = ${product} ORDER BY position, plugin_id`,
    );
    const after = [...pluginIds];
    // Rows that stay are not deleted and inserted again: only the items that join or leave are re-indexed
    // (their position is not part of the index).
    await tx.execute(
      after.length === 0
        ? sql`DELETE FROM featured_plugins WHERE product = ${product}`
        : sql`DELETE FROM featured_plugins WHERE product = ${product} AND plugin_id NOT IN (${sql.join(
            after.map((id) => sql`${id}`),
            sql`, `,
          )})`,
    );
    if (after.length > 0) {
      await tx.execute(
        sql`INSERT INTO featured_plugins (product, plugin_id, position)
          SELECT ${product}, pick.id::int, pick.position::int - 1
          FROM json_array_elements_text(${JSON.stringify(after)}::json) WITH ORDINALITY AS pick (id, position)
          ON CONFLICT (product, plugin_id) DO UPDATE SET position = EXCLUDED.position
            WHERE featured_plugins.position IS DISTINCT FROM EXCLUDED.position`,
      );
    }
    await recordAdminAudit(tx, {
      actorId,
      action: 'featured-plugins.set',
      subject: `featured-plugins:${product}`,
      details: { before: before.map((row) => row.plugin_id), after },
    });
  });
}
