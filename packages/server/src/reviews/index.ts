export { default as reviewRoutes } from './routes';
export { sanitizeReviewText } from './sanitize';
export {
  REVIEW_TEXT_MAX_LENGTH,
  ReviewSchema,
  ReplySchema,
  CreateReviewBody,
  UpdateReviewBody,
  SetRatingBody,
  ReplyBody,
  type ReviewBody,
} from './schemas';
