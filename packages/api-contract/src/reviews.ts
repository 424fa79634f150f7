import { RATING_CATEGORIES, REVIEW_RAW_TEXT_MAX_LENGTH, REVIEW_TEXT_MAX_LENGTH } from '@marketplace/core';
import { Type, type Static } from 'typebox';
import { CommentSchema } from './social';

// The limits are core's (the site's forms use them without loading any schema); the contract repeats them.
export { REVIEW_RAW_TEXT_MAX_LENGTH, REVIEW_TEXT_MAX_LENGTH };

const DatabaseId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
const Stars = Type.Integer({ minimum: 1, maximum: 5, description: 'Stars, from 1 to 5' });
const ReviewText = Type.String({
  maxLength: REVIEW_RAW_TEXT_MAX_LENGTH,
  description: `Plain text; markup is removed, at most ${REVIEW_TEXT_MAX_LENGTH} characters are kept`,
});

/**
 * Stars per rating category (spec §3). Unknown categories are refused by the server with a sentence naming
 * them, rather than dropped silently, so the schema accepts any key.
 */
export const CategoryRatingsSchema = Type.Record(Type.String(), Stars, {
  description: `Stars per category: ${RATING_CATEGORIES.join(', ')}`,
});
export type CategoryRatings = Static<typeof CategoryRatingsSchema>;

/** POST /api/comments: one review per user and plugin. */
export const CreateReviewBody = Type.Object({
  pluginId: DatabaseId,
  rating: Stars,
  comment: Type.Optional(ReviewText),
  categories: Type.Optional(CategoryRatingsSchema),
});
export type CreateReviewBody = Static<typeof CreateReviewBody>;

/** PUT /api/comments/{id}: what is given changes; at least one field. */
export const UpdateReviewBody = Type.Object({
  rating: Type.Optional(Stars),
  comment: Type.Optional(ReviewText),
  categories: Type.Optional(CategoryRatingsSchema),
});
export type UpdateReviewBody = Static<typeof UpdateReviewBody>;

/** PUT /api/plugins/{id}/rating: one's stars, creating a review without text when there is none. */
export const SetRatingBody = Type.Object({
  rating: Stars,
  categories: Type.Optional(CategoryRatingsSchema),
});
export type SetRatingBody = Static<typeof SetRatingBody>;

/** POST /api/comments/{id}/replies and PUT /api/comments/{id}/replies/{replyId}. */
export const ReplyTextBody = Type.Object({ comment: ReviewText });
export type ReplyTextBody = Static<typeof ReplyTextBody>;

/** A review as the review routes answer it: the comment of GET /api/comments with its stars per category. */
export const ReviewSchema = Type.Object({
  ...CommentSchema.properties,
  categories: CategoryRatingsSchema,
});
export type ReviewBody = Static<typeof ReviewSchema>;

/** A developer's reply to a review, as the reply routes answer it. */
export const ReviewReplySchema = CommentSchema.properties.replies.items;
export type ReviewReplyBody = Static<typeof ReviewReplySchema>;

/** /api/comments/{id}/replies/{replyId}. */
export const ReviewReplyParams = Type.Object({ id: DatabaseId, replyId: DatabaseId });
export type ReviewReplyParams = Static<typeof ReviewReplyParams>;
