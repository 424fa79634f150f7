import type { CategoryRatings, ReviewBody, ReviewReplyBody } from '@marketplace/api-contract';
import { isRatingCategory } from '@marketplace/core';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Database, Queryable } from '../db/client';
import { toComment, toCommentReply, type CommentRow, type ReplyRow } from '../routes/api/social-queries';
import { epochMs, selectRows } from '../search/sql';

/** One review in the shape of GET /api/comments, with its replies and stars per category. */
export async function loadReview(db: Queryable, reviewId: number): Promise<ReviewBody | undefined> {
  const [row] = await selectRows<CommentRow>(
    db,
    sql`SELECT r.id, r.plugin_id, p.name AS plugin_name, u.id AS author_id, u.login AS author_login,
        u.name AS author_name, r.rating::int AS rating, r.text, ${epochMs(sql`r.created_at`)} AS cdate,
        CASE WHEN r.updated_at > r.created_at THEN ${epochMs(sql`r.updated_at`)} END AS update_date
      FROM reviews r JOIN plugins p ON p.id = r.plugin_id JOIN users u ON u.id = r.author_id
      WHERE r.id = ${reviewId}`,
  );
  if (!row) return undefined;
  const [replies, categories] = await Promise.all([
    selectRows<ReplyRow>(
      db,
      sql`SELECT rr.id, u.id AS author_id, u.login AS author_login, u.name AS author_name, rr.text,
          ${epochMs(sql`rr.created_at`)} AS cdate
        FROM review_replies rr JOIN users u ON u.id = rr.author_id
        WHERE rr.review_id = ${reviewId} AND NOT u.banned ORDER BY rr.created_at, rr.id`,
    ),
    selectRows<{ category: string; rating: number }>(
      db,
      sql`SELECT category, rating::int AS rating FROM review_category_ratings
        WHERE review_id = ${reviewId} ORDER BY category`,
    ),
  ]);
  const categoryRatings: CategoryRatings = {};
  for (const entry of categories) {
    if (isRatingCategory(entry.category)) categoryRatings[entry.category] = entry.rating;
  }
  return { ...toComment(row, replies), categories: categoryRatings };
}

export async function loadReply(db: Queryable, replyId: number): Promise<ReviewReplyBody | undefined> {
  const [row] = await selectRows<ReplyRow>(
    db,
    sql`SELECT rr.id, u.id AS author_id, u.login AS author_login, u.name AS author_name, rr.text,
        ${epochMs(sql`rr.created_at`)} AS cdate
      FROM review_replies rr JOIN users u ON u.id = rr.author_id WHERE rr.id = ${replyId}`,
  );
  return row && toCommentReply(row);
}

/** A path parameter as a database id, or undefined when it cannot name a row. */
function idParameter(request: FastifyRequest, name: string): number | undefined {
  const raw = (request.params as Record<string, unknown> | undefined)?.[name];
  if (typeof raw !== 'string' || !/^\d{1,10}$/.test(raw)) return undefined;
  const id = Number(raw);
  return id >= 1 && id <= 2_147_483_647 ? id : undefined;
}

/** Reviews of deleted plugins are gone for everyone, their authors included. */
const REVIEW_OF_LIVE_PLUGIN = sql`JOIN plugins p ON p.id = r.plugin_id AND p.lifecycle_state <> 'deleted'`;

/** `ownerOf` for /api/comments/:id: the review's author (administrators pass the rule anyway). */
export function reviewAuthorOf(db: Database) {
  return async (request: FastifyRequest): Promise<readonly number[] | undefined> => {
    const reviewId = idParameter(request, 'id');
    if (reviewId === undefined) return undefined;
    const [row] = await selectRows<{ author_id: number }>(
      db,
      sql`SELECT r.author_id FROM reviews r ${REVIEW_OF_LIVE_PLUGIN} WHERE r.id = ${reviewId}`,
    );
    return row && [row.author_id];
  };
}

/** `ownerOf` for replies to /api/comments/:id: the owner and developers of the reviewed plugin. */
export function reviewedPluginDevelopersOf(db: Database) {
  return async (request: FastifyRequest): Promise<readonly number[] | undefined> => {
    const reviewId = idParameter(request, 'id');
    if (reviewId === undefined) return undefined;
    const rows = await selectRows<{ owner_id: number | null; developer_id: number | null }>(
      db,
      sql`SELECT p.owner_id, d.user_id AS developer_id FROM reviews r ${REVIEW_OF_LIVE_PLUGIN}
        LEFT JOIN plugin_developers d ON d.plugin_id = p.id WHERE r.id = ${reviewId}`,
    );
    if (rows.length === 0) return undefined;
    const developers = new Set<number>();
    for (const row of rows) {
      if (row.owner_id !== null) developers.add(row.owner_id);
      if (row.developer_id !== null) developers.add(row.developer_id);
    }
    return [...developers];
  };
}

/** `ownerOf` for /api/comments/:id/replies/:replyId: the reply's author. */
export function replyAuthorOf(db: Database) {
  return async (request: FastifyRequest): Promise<readonly number[] | undefined> => {
    const reviewId = idParameter(request, 'id');
    const replyId = idParameter(request, 'replyId');
    if (reviewId === undefined || replyId === undefined) return undefined;
    const [row] = await selectRows<{ author_id: number }>(
      db,
      sql`SELECT rr.author_id FROM review_replies rr JOIN reviews r ON r.id = rr.review_id
        ${REVIEW_OF_LIVE_PLUGIN} WHERE rr.id = ${replyId} AND rr.review_id = ${reviewId}`,
    );
    return row && [row.author_id];
  };
}
