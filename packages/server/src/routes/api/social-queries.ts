import type {
  CommentBody,
  PluginLifecycleBody,
  UserBody,
  UserPluginSummaryBody,
} from '@marketplace/api-contract';
import type { IdeProductKey, ProductFamily } from '@marketplace/core';
import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
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

/** The items a user owns or develops, in the given families, most downloaded first. */
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
        WHERE ${where} ORDER BY p.downloads DESC, p.id DESC LIMIT ${size} OFFSET ${(page - 1) * size}`,
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
