import { CommentSchema, ErrorBody, IdParams } from '@marketplace/api-contract';
import { RATING_CATEGORIES } from '@marketplace/core';
import { Type, type Static } from 'typebox';

/** The longest review or reply kept, in characters, after markup is removed. */
export const REVIEW_TEXT_MAX_LENGTH = 5000;
/** The longest text accepted at all: markup is removed from it, so it may be longer than what is kept. */
export const RAW_TEXT_MAX_LENGTH = 20_000;

const DatabaseId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
const Stars = Type.Integer({ minimum: 1, maximum: 5, description: 'Stars, from 1 to 5' });
const ReviewText = Type.String({
  maxLength: RAW_TEXT_MAX_LENGTH,
  description: `Plain text; markup is removed, at most ${REVIEW_TEXT_MAX_LENGTH} characters are kept`,
});

/**
 * Stars per rating category (spec §3). Unknown categories are refused by the route with a sentence naming
 * them, rather than dropped silently, so the schema accepts any key.
 */
export const CategoryRatingsSchema = Type.Record(Type.String(), Stars, {
  description: `Stars per category: ${RATING_CATEGORIES.join(', ')}`,
});
export type CategoryRatings = Static<typeof CategoryRatingsSchema>;

export const CreateReviewBody = Type.Object({
  pluginId: DatabaseId,
  rating: Stars,
  comment: Type.Optional(ReviewText),
  categories: Type.Optional(CategoryRatingsSchema),
});
export type CreateReviewBody = Static<typeof CreateReviewBody>;

export const UpdateReviewBody = Type.Object({
  rating: Type.Optional(Stars),
  comment: Type.Optional(ReviewText),
  categories: Type.Optional(CategoryRatingsSchema),
});
export type UpdateReviewBody = Static<typeof UpdateReviewBody>;

export const SetRatingBody = Type.Object({
  rating: Stars,
  categories: Type.Optional(CategoryRatingsSchema),
});
export type SetRatingBody = Static<typeof SetRatingBody>;

export const ReplyBody = Type.Object({ comment: ReviewText });
export type ReplyBody = Static<typeof ReplyBody>;

/** A review as GET /api/comments shows it, with its stars per category. */
export const ReviewSchema = Type.Object({
  ...CommentSchema.properties,
  categories: CategoryRatingsSchema,
});
export type ReviewBody = Static<typeof ReviewSchema>;

export const ReplySchema = CommentSchema.properties.replies.items;
export type ReplyBodyOut = Static<typeof ReplySchema>;

export const ReviewParams = IdParams;
export const ReplyParams = Type.Object({ id: DatabaseId, replyId: DatabaseId });

export const errors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  429: ErrorBody,
} as const;
