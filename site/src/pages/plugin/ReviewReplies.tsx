import type { Comment } from '@marketplace/api-client';
import { formatDisplayDate, REVIEW_TEXT_MAX_LENGTH } from '@marketplace/core';
import { useToasts } from '@marketplace/ui';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api } from '../../lib/api';
import { showErrorToast } from '../../lib/errors';
import '../../styles/review-replies.css';

type Reply = Comment['replies'][number];

/** Writing or changing a reply: one text field; an empty text is not sent. */
function ReplyForm({
  label,
  initial = '',
  submitLabel,
  onSubmit,
  onCancel,
}: {
  label: string;
  initial?: string;
  submitLabel: string;
  onSubmit: (text: string) => Promise<void>;
  onCancel: () => void;
}) {
  const errorId = useId();
  const [text, setText] = useState(initial);
  const [touched, setTouched] = useState(false);
  const [sending, setSending] = useState(false);
  const empty = text.trim() === '';

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (empty) return;
    setSending(true);
    try {
      await onSubmit(text.trim());
    } finally {
      setSending(false);
    }
  }

  return (
    <form className="site-reply-form" onSubmit={submit} noValidate>
      <label className="site-field">
        <span>{label}</span>
        <textarea
          rows={3}
          maxLength={REVIEW_TEXT_MAX_LENGTH}
          value={text}
          disabled={sending}
          aria-invalid={touched && empty ? true : undefined}
          aria-describedby={touched && empty ? errorId : undefined}
          onChange={(event) => setText(event.target.value)}
        />
      </label>
      {touched && empty ? (
        <p id={errorId} className="site-field__error">
          Write a reply first.
        </p>
      ) : null}
      <div className="site-form-actions">
        <button type="submit" className="mp-button" disabled={sending}>
          {sending ? 'Saving…' : submitLabel}
        </button>
        <button type="button" className="site-button-secondary" onClick={onCancel} disabled={sending}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function authorName(author: Reply['author']): string {
  return author.name || author.login;
}

/**
 * The vendor's replies under a review (author, date, text), with Edit and Delete on one's own, and a Reply
 * button for the item's people (its owner and developers) and administrators, whom the server lets reply.
 * Failed calls show the site's error toast (spec §8); each change reloads the reviews through `onChanged`.
 */
export function ReviewReplies({
  review,
  userId,
  canReply,
  onChanged,
}: {
  review: Comment;
  userId: number | undefined;
  canReply: boolean;
  onChanged: () => void;
}) {
  const toasts = useToasts();
  const [writing, setWriting] = useState(false);
  const [editing, setEditing] = useState<number | undefined>(undefined);

  async function run(call: () => Promise<unknown>, done: string): Promise<boolean> {
    try {
      await call();
    } catch (error) {
      showErrorToast(toasts, error);
      return false;
    }
    toasts?.show({ kind: 'success', title: done });
    onChanged();
    return true;
  }

  async function add(text: string) {
    if (await run(() => api.addReply(review.id, text), 'Your reply is posted')) setWriting(false);
  }

  async function change(replyId: number, text: string) {
    if (await run(() => api.updateReply(review.id, replyId, text), 'Your reply is updated')) {
      setEditing(undefined);
    }
  }

  async function remove(replyId: number) {
    if (!window.confirm('Delete your reply?')) return;
    await run(() => api.deleteReply(review.id, replyId), 'Your reply is deleted');
  }

  return (
    <>
      {review.replies.map((reply) =>
        editing === reply.id ? (
          <ReplyForm
            key={reply.id}
            label="Edit your reply"
            initial={reply.comment}
            submitLabel="Save reply"
            onSubmit={(text) => change(reply.id, text)}
            onCancel={() => setEditing(undefined)}
          />
        ) : (
          <div
            key={reply.id}
            className="site-review__reply"
            role="group"
            aria-label={`Reply by ${authorName(reply.author)}`}
          >
            <p className="site-review__reply-head">
              <Link to={reply.author.link}>{authorName(reply.author)}</Link>
              <span className="site-muted"> replied on {formatDisplayDate(reply.cdate)}</span>
            </p>
            <p className="site-review__text">{reply.comment}</p>
            {userId !== undefined && reply.author.id === userId ? (
              <div className="site-form-actions">
                <button
                  type="button"
                  className="site-button-secondary"
                  onClick={() => {
                    setWriting(false);
                    setEditing(reply.id);
                  }}
                >
                  Edit reply
                </button>
                <button type="button" className="site-button-danger" onClick={() => void remove(reply.id)}>
                  Delete reply
                </button>
              </div>
            ) : null}
          </div>
        ),
      )}
      {canReply && writing ? (
        <ReplyForm
          label={`Reply to ${authorName(review.author)}`}
          submitLabel="Post reply"
          onSubmit={add}
          onCancel={() => setWriting(false)}
        />
      ) : null}
      {canReply && !writing && editing === undefined ? (
        <button
          type="button"
          className="site-button-secondary site-review__reply-button"
          onClick={() => setWriting(true)}
        >
          Reply
        </button>
      ) : null}
    </>
  );
}
