import type { Comment, Plugin } from '@marketplace/api-client';
import { COMMENTS_PAGE_SIZE, formatDisplayDate, RATING_CATEGORIES } from '@marketplace/core';
import { StarRating, useToasts } from '@marketplace/ui';
import { useState } from 'react';
import { Link } from 'react-router';
import { useAuth } from '../../auth/AuthProvider';
import { api } from '../../lib/api';
import { errorText, notificationForError, showErrorToast } from '../../lib/errors';
import { useLoad } from '../../lib/use-load';
import { ReviewForm, type ReviewDraft } from './ReviewForm';
import { ReportAction } from './ReportAction';
import { ReviewReplies } from './ReviewReplies';
import { RATING_CATEGORY_LABELS } from './review-labels';

function ReviewItem({
  review,
  userId,
  canReply,
  onEdit,
  onDelete,
  onRepliesChanged,
}: {
  review: Comment;
  userId: number | undefined;
  canReply: boolean;
  onEdit: () => void;
  onDelete: () => void;
  onRepliesChanged: () => void;
}) {
  const mine = userId !== undefined && userId === review.author.id;
  return (
    <article className="site-review" aria-label={`Review by ${review.author.name || review.author.login}`}>
      <header>
        <StarRating value={review.rating} size="s" />
        <Link to={review.author.link}>{review.author.name || review.author.login}</Link>
        <span className="site-muted">
          {formatDisplayDate(review.cdate)}
          {review.updateDate ? ' (edited)' : ''}
        </span>
      </header>
      {review.comment ? <p className="site-review__text">{review.comment}</p> : null}
      <ReviewReplies review={review} userId={userId} canReply={canReply} onChanged={onRepliesChanged} />
      {mine ? null : <ReportAction target={{ reviewId: review.id }} />}
      {mine ? (
        <div className="site-form-actions">
          <button type="button" className="site-button-secondary" onClick={onEdit}>
            Edit
          </button>
          <button type="button" className="site-button-danger" onClick={onDelete}>
            Delete
          </button>
        </div>
      ) : null}
    </article>
  );
}

/**
 * The item's reviews: its mean and per-category stars, the signed-in user's own review to write or change,
 * and every review with the vendor's replies. `canReply`: the viewer is one of the item's people or an
 * administrator (PluginPage's useManagement), whom the server lets answer reviews.
 */
export function ReviewsTab({
  plugin,
  onRatingChange,
  canReply = false,
}: {
  plugin: Plugin;
  onRatingChange: () => void;
  canReply?: boolean;
}) {
  const { user, available, signIn } = useAuth();
  const toasts = useToasts();
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<number | undefined>(undefined);
  const [reviews, reload] = useLoad(
    (signal) => api.getComments({ pluginId: plugin.id, page, size: COMMENTS_PAGE_SIZE }, { signal }),
    [plugin.id, page],
  );
  const [granular, reloadGranular] = useLoad(
    (signal) => api.getGranularRating(plugin.id, { signal }),
    [plugin.id],
  );
  const list = reviews.status === 'resolved' ? reviews.data.data : [];
  const own = user ? list.find((review) => review.author.id === user.id) : undefined;

  function changed(message: string) {
    setEditing(undefined);
    reload();
    reloadGranular();
    onRatingChange();
    toasts?.show({ kind: 'success', title: message });
  }

  function fail(error: unknown): never {
    const notification = notificationForError(error);
    throw new Error(notification?.message ?? notification?.title ?? String(error));
  }

  async function create(draft: ReviewDraft) {
    await api
      .createReview({
        pluginId: plugin.id,
        rating: draft.rating,
        comment: draft.comment,
        categories: draft.categories,
      })
      .catch(fail);
    changed('Thank you for your review');
  }

  async function update(id: number, draft: ReviewDraft) {
    await api.updateReview(id, draft).catch(fail);
    changed('Your review is updated');
  }

  async function remove(id: number) {
    if (!window.confirm('Delete your review?')) return;
    try {
      await api.deleteReview(id);
      changed('Your review is deleted');
    } catch (error) {
      showErrorToast(toasts, error);
    }
  }

  const categoryMeans = granular.status === 'resolved' ? granular.data : {};
  const ratedCategories = RATING_CATEGORIES.filter((category) => categoryMeans[category] !== undefined);
  const hasMore = reviews.status === 'resolved' && Boolean(reviews.data.links.next);

  return (
    <section aria-labelledby="reviews-heading" className="site-reviews">
      <div className="site-reviews__summary">
        <h2 id="reviews-heading">Reviews</h2>
        <p className="site-reviews__mean">
          <StarRating value={plugin.rating.meanRating} size="m" />
          <span>
            {plugin.rating.meanRating ? `${plugin.rating.meanRating.toFixed(1)} out of 5` : 'No ratings yet'}
          </span>
        </p>
        {ratedCategories.length ? (
          <dl className="site-details">
            {ratedCategories.map((category) => (
              <div key={category} className="site-details__row">
                <dt>{RATING_CATEGORY_LABELS[category]}</dt>
                <dd>
                  <StarRating value={categoryMeans[category] ?? 0} size="xs" />
                </dd>
              </div>
            ))}
          </dl>
        ) : null}
      </div>
      {user === null && available ? (
        <p>
          <button type="button" className="site-button-secondary" onClick={() => void signIn()}>
            Sign in to write a review
          </button>
        </p>
      ) : null}
      {user && !own && reviews.status === 'resolved' && page === 1 ? (
        <div className="site-card-block">
          <h3>Write a review</h3>
          <ReviewForm submitLabel="Post review" onSubmit={create} />
        </div>
      ) : null}
      {reviews.status === 'rejected' ? <p className="site-error">{errorText(reviews.error)}</p> : null}
      {reviews.status === 'resolved' && list.length === 0 ? (
        <p className="site-muted">No reviews yet. Be the first to share your experience.</p>
      ) : null}
      {list.map((review) =>
        editing === review.id ? (
          <div key={review.id} className="site-card-block">
            <h3>Edit your review</h3>
            <ReviewForm
              submitLabel="Save review"
              initial={{ rating: review.rating, comment: review.comment, categories: {} }}
              onSubmit={(draft) => update(review.id, draft)}
              onCancel={() => setEditing(undefined)}
            />
          </div>
        ) : (
          <ReviewItem
            key={review.id}
            review={review}
            userId={user?.id}
            canReply={canReply}
            onEdit={() => setEditing(review.id)}
            onDelete={() => void remove(review.id)}
            onRepliesChanged={reload}
          />
        ),
      )}
      {page > 1 || hasMore ? (
        <nav className="site-pagination" aria-label="Review pages">
          <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Newer reviews
          </button>
          <button type="button" disabled={!hasMore} onClick={() => setPage(page + 1)}>
            Older reviews
          </button>
        </nav>
      ) : null}
    </section>
  );
}
