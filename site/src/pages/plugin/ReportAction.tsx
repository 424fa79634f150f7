import { itemNoun, type ProductFamily } from '@marketplace/core';
import { useToasts } from '@marketplace/ui';
import { useId, useState, type FormEvent } from 'react';
import { api } from '../../lib/api';
import { errorText } from '../../lib/errors';

/** The reasons offered; "Other" asks for the details in the message. */
const REASONS = [
  'Malware or security risk',
  'Spam or misleading',
  'Copyright or trademark',
  'Abusive or offensive',
  'Other',
];

/**
 * "Report" on an item or on one of its reviews: anyone who sees it, visitors included, tells the
 * administrators what is wrong; the report lands in their queue (/admin/reports). An item is called by its
 * family's noun ('Report this course').
 */
export function ReportAction({
  target,
}: {
  target: { pluginId: number; family: ProductFamily } | { reviewId: number };
}) {
  const toasts = useToasts();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState(REASONS[0] ?? '');
  const [message, setMessage] = useState('');
  const [failure, setFailure] = useState('');
  const what = 'reviewId' in target ? 'review' : itemNoun(target.family);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure('');
    const report = { reason, ...(message.trim() ? { message: message.trim() } : {}) };
    try {
      if ('reviewId' in target) await api.moderation.reportReview(target.reviewId, report);
      else await api.moderation.reportPlugin(target.pluginId, report);
      setOpen(false);
      setMessage('');
      toasts?.show({ kind: 'success', title: 'Thank you: the administrators will look at your report' });
    } catch (error) {
      setFailure(errorText(error));
    }
  }

  if (!open) {
    return (
      <button type="button" className="site-link-button site-report-action" onClick={() => setOpen(true)}>
        {what === 'review' ? 'Report review' : `Report this ${what}`}
      </button>
    );
  }
  return (
    <form className="site-report-form" onSubmit={submit} aria-label={`Report this ${what}`}>
      <label className="site-field">
        <span>Why do you report this {what}?</span>
        <select id={`${id}-reason`} value={reason} onChange={(event) => setReason(event.target.value)}>
          {REASONS.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
      </label>
      <label className="site-field">
        <span>Details (optional)</span>
        <textarea
          rows={3}
          maxLength={5000}
          value={message}
          onChange={(event) => setMessage(event.target.value)}
        />
      </label>
      {failure ? (
        <p className="site-error" role="alert">
          {failure}
        </p>
      ) : null}
      <div className="site-form-actions">
        <button type="submit" className="mp-button">
          Send report
        </button>
        <button type="button" className="site-button-secondary" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
