import { REVIEW_TEXT_MAX_LENGTH, type CategoryRatings } from '@marketplace/api-contract';
import { isRatingCategory, RATING_CATEGORIES, type RatingCategory } from '@marketplace/core';
import { sql } from 'drizzle-orm';
import type { Database, Transaction } from '../db/client';
import { ApiError } from '../plugins/app/errors';
import { pluginNotFound } from '../routes/api/plugins';
import { pluginVisibleTo, selectRows, type Viewer } from '../search/sql';
import { sanitizeReviewText } from './sanitize';

/*
 * Every write that can move a plugin's rating (create, edit, delete a review) first locks the plugin's row,
 * then the review's: one order for everyone, so concurrent writers queue instead of deadlocking. The
 * aggregate itself (rating_count, rating_total, rating_mean) is moved by the reviews table's triggers in
 * the same transaction, and the distribution is counted from the reviews, so both stay exact.
 */

/** PostgreSQL's codes for "try the transaction again": deadlock and serialization failure. */
const RETRYABLE_CODES = new Set(['40P01', '40001']);
const UNIQUE_VIOLATION = '23505';
/** The unique key of reviews (plugin_id, author_id), as PostgreSQL names it. */
const ONE_REVIEW_PER_AUTHOR = 'reviews_plugin_id_author_id_key';
const MAX_ATTEMPTS = 3;

/** The SQLSTATE and constraint of a database error, found through the causes drivers and Drizzle wrap it in. */
export function databaseError(error: unknown): { code?: string; constraint?: string } {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    const { code, constraint } = current as { code?: unknown; constraint?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
      return { code, ...(typeof constraint === 'string' ? { constraint } : {}) };
    }
    current = (current as { cause?: unknown }).cause;
  }
  return {};
}

async function inTransaction<T>(db: Database, work: (tx: Transaction) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await db.transaction(work);
    } catch (error) {
      const { code } = databaseError(error);
      if (attempt >= MAX_ATTEMPTS || code === undefined || !RETRYABLE_CODES.has(code)) throw error;
    }
  }
}

/** The review text as stored, or a 400 a person understands. */
export function reviewText(input: string, what: 'review' | 'reply'): string {
  const text = sanitizeReviewText(input);
  if (text.length > REVIEW_TEXT_MAX_LENGTH) {
    throw new ApiError(
      'validation',
      `The ${what} is too long: ${text.length} characters, at most ${REVIEW_TEXT_MAX_LENGTH} are allowed.`,
    );
  }
  if (text === '' && input.trim() !== '') {
    throw new ApiError(
      'validation',
      `The ${what} has no text left once markup is removed. Reviews and replies are plain text.`,
    );
  }
  return text;
}

/** Category stars checked against the spec's categories (unknown ones are named in a 400). */
export function categoryRatings(input: CategoryRatings | undefined): Map<RatingCategory, number> | undefined {
  if (input === undefined) return undefined;
  const ratings = new Map<RatingCategory, number>();
  for (const [category, stars] of Object.entries(input)) {
    if (!isRatingCategory(category)) {
      throw new ApiError(
        'validation',
        `Unknown rating category "${category}". Categories are: ${RATING_CATEGORIES.join(', ')}.`,
      );
    }
    ratings.set(category, stars);
  }
  return ratings;
}

export function reviewNotFound(id: number): ApiError {
  return new ApiError('notFound', `Review ${id} does not exist.`);
}

/**
 * Locks a plugin the viewer may review: one they can see (others are answered 404, as the read API does)
 * and that is published (listed), since a plugin under review or hidden has no public reviews.
 */
async function lockReviewablePlugin(tx: Transaction, pluginId: number, viewer: Viewer): Promise<void> {
  const [plugin] = await selectRows<{ name: string; listed: boolean; visible: boolean }>(
    tx,
    sql`SELECT p.name, p.listed, ${pluginVisibleTo(viewer)} AS visible FROM plugins p
      WHERE p.id = ${pluginId} FOR NO KEY UPDATE OF p`,
  );
  if (!plugin || !plugin.visible) throw pluginNotFound(pluginId);
  if (!plugin.listed) {
    throw new ApiError(
      'conflict',
      `"${plugin.name}" is not published, so it cannot be reviewed or rated yet.`,
    );
  }
}

/** Locks the review's plugin, then the review; undefined when the review is gone. */
async function lockReview(tx: Transaction, reviewId: number): Promise<{ pluginId: number } | undefined> {
  const [review] = await selectRows<{ plugin_id: number }>(
    tx,
    sql`SELECT plugin_id FROM reviews WHERE id = ${reviewId}`,
  );
  if (!review) return undefined;
  await tx.execute(sql`SELECT 1 FROM plugins WHERE id = ${review.plugin_id} FOR NO KEY UPDATE`);
  const [locked] = await selectRows<{ plugin_id: number }>(
    tx,
    sql`SELECT plugin_id FROM reviews WHERE id = ${reviewId} FOR UPDATE`,
  );
  return locked && { pluginId: locked.plugin_id };
}

async function replaceCategoryRatings(
  tx: Transaction,
  reviewId: number,
  ratings: Map<RatingCategory, number>,
): Promise<void> {
  await tx.execute(sql`DELETE FROM review_category_ratings WHERE review_id = ${reviewId}`);
  if (ratings.size === 0) return;
  await tx.execute(
    sql`INSERT INTO review_category_ratings (review_id, category, rating) VALUES ${sql.join(
      [...ratings].map(([category, stars]) => sql`(${reviewId}, ${category}, ${stars})`),
      sql`, `,
    )}`,
  );
}

function alreadyReviewed(reviewId: number): ApiError {
  return new ApiError(
    'conflict',
    `You have already reviewed this plugin (review ${reviewId}). Change it with PUT /api/comments/${reviewId} ` +
      'or PUT /api/plugins/{id}/rating.',
  );
}

export interface NewReview {
  pluginId: number;
  rating: number;
  text: string;
  categories: Map<RatingCategory, number> | undefined;
}

/** Writes the viewer's review of a plugin; a second review of the same plugin is a 409. */
export async function createReview(db: Database, viewer: Viewer, review: NewReview): Promise<number> {
  try {
    return await inTransaction(db, async (tx) => {
      await lockReviewablePlugin(tx, review.pluginId, viewer);
      const [existing] = await selectRows<{ id: number }>(
        tx,
        sql`SELECT id FROM reviews WHERE plugin_id = ${review.pluginId} AND author_id = ${viewer.userId}`,
      );
      if (existing) throw alreadyReviewed(existing.id);
      const [created] = await selectRows<{ id: number }>(
        tx,
        sql`INSERT INTO reviews (plugin_id, author_id, rating, text)
          VALUES (${review.pluginId}, ${viewer.userId}, ${review.rating}, ${review.text}) RETURNING id`,
      );
      if (!created) throw new Error('INSERT INTO reviews returned no row');
      if (review.categories) await replaceCategoryRatings(tx, created.id, review.categories);
      return created.id;
    });
  } catch (error) {
    // Only reachable if the plugin lock were bypassed; the unique key is the last word.
    const { code, constraint } = databaseError(error);
    if (code === UNIQUE_VIOLATION && constraint === ONE_REVIEW_PER_AUTHOR) {
      throw new ApiError('conflict', 'You have already reviewed this plugin.', { cause: error });
    }
    throw error;
  }
}

/**
 * PUT /api/plugins/{id}/rating: the viewer's stars for a plugin, creating a review without text when they
 * have none, otherwise changing the stars of the one they have (its text stays).
 */
export async function setRating(
  db: Database,
  viewer: Viewer,
  pluginId: number,
  rating: number,
  categories: Map<RatingCategory, number> | undefined,
): Promise<{ reviewId: number; created: boolean }> {
  return inTransaction(db, async (tx) => {
    await lockReviewablePlugin(tx, pluginId, viewer);
    const [existing] = await selectRows<{ id: number }>(
      tx,
      sql`SELECT id FROM reviews WHERE plugin_id = ${pluginId} AND author_id = ${viewer.userId} FOR UPDATE`,
    );
    let reviewId: number;
    if (existing) {
      reviewId = existing.id;
      await tx.execute(sql`UPDATE reviews SET rating = ${rating}, updated_at = now() WHERE id = ${reviewId}`);
    } else {
      const [created] = await selectRows<{ id: number }>(
        tx,
        sql`INSERT INTO reviews (plugin_id, author_id, rating) VALUES (${pluginId}, ${viewer.userId}, ${rating})
          RETURNING id`,
      );
      if (!created) throw new Error('INSERT INTO reviews returned no row');
      reviewId = created.id;
    }
    if (categories) await replaceCategoryRatings(tx, reviewId, categories);
    return { reviewId, created: !existing };
  });
}

export interface ReviewChanges {
  rating?: number | undefined;
  text?: string | undefined;
  categories?: Map<RatingCategory, number> | undefined;
}

/** Changes a review's stars, text or category stars; the route has already checked who may. */
export async function updateReview(db: Database, reviewId: number, changes: ReviewChanges): Promise<void> {
  await inTransaction(db, async (tx) => {
    if (!(await lockReview(tx, reviewId))) throw reviewNotFound(reviewId);
    await tx.execute(
      sql`UPDATE reviews SET rating = coalesce(${changes.rating ?? null}::smallint, rating),
        text = coalesce(${changes.text ?? null}::text, text), updated_at = now() WHERE id = ${reviewId}`,
    );
    if (changes.categories) await replaceCategoryRatings(tx, reviewId, changes.categories);
  });
}

/** Deletes a review with its replies and category stars. */
export async function deleteReview(db: Database, reviewId: number): Promise<void> {
  await inTransaction(db, async (tx) => {
    if (!(await lockReview(tx, reviewId))) throw reviewNotFound(reviewId);
    await tx.execute(sql`DELETE FROM reviews WHERE id = ${reviewId}`);
  });
}

/** A developer's answer to a review. */
export async function addReply(
  db: Database,
  reviewId: number,
  authorId: number,
  text: string,
): Promise<number> {
  const [created] = await selectRows<{ id: number }>(
    db,
    sql`INSERT INTO review_replies (review_id, author_id, text)
      SELECT id, ${authorId}, ${text} FROM reviews WHERE id = ${reviewId} RETURNING id`,
  );
  if (!created) throw reviewNotFound(reviewId);
  return created.id;
}

function replyNotFound(replyId: number): ApiError {
  return new ApiError('notFound', `Reply ${replyId} does not exist.`);
}

export async function updateReply(db: Database, replyId: number, text: string): Promise<void> {
  const updated = await selectRows<{ id: number }>(
    db,
    sql`UPDATE review_replies SET text = ${text}, updated_at = now() WHERE id = ${replyId} RETURNING id`,
  );
  if (updated.length === 0) throw replyNotFound(replyId);
}

export async function deleteReply(db: Database, replyId: number): Promise<void> {
  const deleted = await selectRows<{ id: number }>(
    db,
    sql`DELETE FROM review_replies WHERE id = ${replyId} RETURNING id`,
  );
  if (deleted.length === 0) throw replyNotFound(replyId);
}
