import type { CategoryStars, ReviewChanges } from '@marketplace/api-client';
import { RATING_CATEGORIES, REVIEW_TEXT_MAX_LENGTH } from '@marketplace/core';
import { StarRatingInput } from '@marketplace/ui';
import { useState, type FormEvent } from 'react';
import { RATING_CATEGORY_LABELS } from './review-labels';

/** What the form gives: every field of a review change. */
export type ReviewDraft = Required<ReviewChanges>;

/** Writing or editing a review: stars (required), text, and optional stars per category. */
export function ReviewForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial?: ReviewDraft;
  submitLabel: string;
  onSubmit: (draft: ReviewDraft) => Promise<void>;
  onCancel?: () => void;
}) {
  const [rating, setRating] = useState(initial?.rating ?? 0);
  const [comment, setComment] = useState(initial?.comment ?? '');
  const [categories, setCategories] = useState<CategoryStars>(initial?.categories ?? {});
  const [touched, setTouched] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState('');
  const ratingError = touched && rating === 0 ? 'Choose from 1 to 5 stars.' : undefined;

  async function submit(event: FormEvent) {
    event.preventDefault();
    // Spec §4: a submit attempt marks every field touched, then validates, then sends.
    setTouched(true);
    if (rating === 0) return;
    setSubmitting(true);
    setFailure('');
    try {
      await onSubmit({ rating, comment: comment.trim(), categories });
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <form className="site-review-form" onSubmit={submit} noValidate>
      <StarRatingInput
        label="Your rating"
        name="rating"
        value={rating}
        onChange={setRating}
        required
        disabled={submitting}
        {...(ratingError ? { error: ratingError } : {})}
      />
      <label className="site-field">
        <span>Your review</span>
        <textarea
          name="comment"
          rows={4}
          maxLength={REVIEW_TEXT_MAX_LENGTH}
          value={comment}
          disabled={submitting}
          onChange={(event) => setComment(event.target.value)}
        />
      </label>
      <details className="site-review-form__categories">
        <summary>Rate by category (optional)</summary>
        {RATING_CATEGORIES.map((category) => (
          <StarRatingInput
            key={category}
            label={RATING_CATEGORY_LABELS[category]}
            name={`category-${category}`}
            value={categories[category] ?? 0}
            disabled={submitting}
            onChange={(value) => setCategories((previous) => ({ ...previous, [category]: value }))}
          />
        ))}
      </details>
      {failure ? (
        <p className="site-error" role="alert">
          {failure}
        </p>
      ) : null}
      <div className="site-form-actions">
        <button type="submit" className="mp-button" disabled={submitting}>
          {submitting ? 'Saving…' : submitLabel}
        </button>
        {onCancel ? (
          <button type="button" className="site-button-secondary" onClick={onCancel} disabled={submitting}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
