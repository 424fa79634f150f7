export { default as reviewRoutes } from './routes';
export { sanitizeReviewText } from './sanitize';
