import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CreateReviewBody,
  IdParams,
  RatingSchema,
  ReplyTextBody,
  ReviewReplyParams,
  ReviewReplySchema,
  ReviewSchema,
  SetRatingBody,
  UpdateReviewBody,
} from '@marketplace/api-contract';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ApiError } from '../plugins/app/errors';
import { loadRating } from '../routes/api/plugin-queries';
import { viewerOf, type Viewer } from '../search/sql';
import { loadReply, loadReview, replyAuthorOf, reviewAuthorOf, reviewedPluginDevelopersOf } from './queries';
import { errors } from './schemas';
import {
  addReply,
  categoryRatings,
  createReview,
  deleteReply,
  deleteReview,
  reviewNotFound,
  reviewText,
  setRating,
  updateReply,
  updateReview,
} from './service';

/** The signed-in writer; the routes' access rules have already turned guests and banned users away. */
function writer(request: FastifyRequest): Viewer {
  const viewer = viewerOf(request);
  if (!viewer) throw new ApiError('unauthorized', 'Please sign in to do this.');
  return viewer;
}

/**
 * Reviews and ratings: write, change and delete a review (stars 1-5, optional stars per category, plain
 * text), set one's stars with PUT {plugin}/rating, and developers' replies. One review per user per plugin:
 * a second POST is answered 409 and names the review to change instead.
 */
const reviewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const signedIn = { auth: { rule: 'signed-in' } } as const;
  const reviewAuthor = { auth: { rule: 'owner', ownerOf: reviewAuthorOf(app.db) } } as const;
  const pluginDevelopers = { auth: { rule: 'owner', ownerOf: reviewedPluginDevelopersOf(app.db) } } as const;
  const replyAuthor = { auth: { rule: 'owner', ownerOf: replyAuthorOf(app.db) } } as const;

  async function reviewAnswer(reviewId: number) {
    const review = await loadReview(app.db, reviewId);
    if (!review) throw reviewNotFound(reviewId);
    return review;
  }

  app.post(
    '/api/comments',
    {
      config: signedIn,
      schema: {
        tags: ['comments'],
        summary: 'Review a plugin: stars, optional text and stars per category; one review per plugin',
        body: CreateReviewBody,
        response: { 201: ReviewSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { pluginId, rating, comment, categories } = request.body;
      const reviewId = await createReview(app.db, writer(request), {
        pluginId,
        rating,
        text: reviewText(comment ?? '', 'review'),
        categories: categoryRatings(categories),
      });
      return reply.code(201).send(await reviewAnswer(reviewId));
    },
  );

  app.put(
    '/api/comments/:id',
    {
      config: reviewAuthor,
      schema: {
        tags: ['comments'],
        summary: 'Change my review: any of stars, text and stars per category ({} clears them)',
        params: IdParams,
        body: UpdateReviewBody,
        response: { 200: ReviewSchema, ...errors },
      },
    },
    async (request) => {
      const { rating, comment, categories } = request.body;
      if (rating === undefined && comment === undefined && categories === undefined) {
        throw new ApiError('validation', 'Nothing to change: send rating, comment or categories.');
      }
      await updateReview(app.db, request.params.id, {
        rating,
        text: comment === undefined ? undefined : reviewText(comment, 'review'),
        categories: categoryRatings(categories),
      });
      return reviewAnswer(request.params.id);
    },
  );

  app.delete(
    '/api/comments/:id',
    {
      config: reviewAuthor,
      schema: {
        tags: ['comments'],
        summary: 'Delete my review (administrators: any review) with its replies',
        params: IdParams,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      await deleteReview(app.db, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/comments/:id/replies',
    {
      config: pluginDevelopers,
      schema: {
        tags: ['comments'],
        summary: "Answer a review of one's own plugin (its owner and developers only)",
        params: IdParams,
        body: ReplyTextBody,
        response: { 201: ReviewReplySchema, ...errors },
      },
    },
    async (request, reply) => {
      const text = reviewText(request.body.comment, 'reply');
      if (text === '') throw new ApiError('validation', 'The reply is empty.');
      const replyId = await addReply(app.db, request.params.id, writer(request).userId, text);
      const created = await loadReply(app.db, replyId);
      if (!created) throw reviewNotFound(request.params.id);
      return reply.code(201).send(created);
    },
  );

  app.put(
    '/api/comments/:id/replies/:replyId',
    {
      config: replyAuthor,
      schema: {
        tags: ['comments'],
        summary: 'Change my reply',
        params: ReviewReplyParams,
        body: ReplyTextBody,
        response: { 200: ReviewReplySchema, ...errors },
      },
    },
    async (request) => {
      const text = reviewText(request.body.comment, 'reply');
      if (text === '') throw new ApiError('validation', 'The reply is empty; delete it instead.');
      await updateReply(app.db, request.params.replyId, text);
      const updated = await loadReply(app.db, request.params.replyId);
      if (!updated) throw new ApiError('notFound', `Reply ${request.params.replyId} does not exist.`);
      return updated;
    },
  );

  app.delete(
    '/api/comments/:id/replies/:replyId',
    {
      config: replyAuthor,
      schema: {
        tags: ['comments'],
        summary: 'Delete my reply',
        params: ReviewReplyParams,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      await deleteReply(app.db, request.params.replyId);
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/api/plugins/:id/rating',
    {
      config: signedIn,
      schema: {
        tags: ['plugins'],
        summary:
          'Set my stars for a plugin (creates a review without text, or changes mine); answers the rating',
        params: IdParams,
        body: SetRatingBody,
        response: { 200: RatingSchema, 201: RatingSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { rating, categories } = request.body;
      const { created } = await setRating(
        app.db,
        writer(request),
        request.params.id,
        rating,
        categoryRatings(categories),
      );
      return reply.code(created ? 201 : 200).send(await loadRating(app.db, request.params.id));
    },
  );
};

export default reviewRoutes;
