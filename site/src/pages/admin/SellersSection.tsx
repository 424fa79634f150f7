import { isApiError, type Seller } from '@marketplace/api-client';
import { formatDisplayDate } from '@marketplace/core';
import { useToasts } from '@marketplace/ui';
import { useId, useState } from 'react';
import { api } from '../../lib/api';
import { errorText } from '../../lib/errors';
import { useLoad } from '../../lib/use-load';

type SellerStatus = 'PENDING' | 'APPROVED' | 'REJECTED';

const FILTERS: readonly (readonly [SellerStatus, string])[] = [
  ['PENDING', 'Waiting'],
  ['APPROVED', 'Approved'],
  ['REJECTED', 'Rejected'],
];

const PAYOUT_LABELS = { BANK_TRANSFER: 'Bank transfer', PAYPAL: 'PayPal' } as const;

/** An administrator's answer to a failed call: a 403 means the signed-in person does not administer. */
export function adminErrorText(error: unknown): string {
  return isApiError(error) && error.status === 403 ? 'For administrators only.' : errorText(error);
}

function Application({ seller, onDecided }: { seller: Seller; onDecided: () => void }) {
  const toasts = useToasts();
  const noteId = useId();
  const [note, setNote] = useState('');
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const details = seller.details;

  async function decide(approve: boolean) {
    setFailure('');
    setBusy(true);
    try {
      await api.commerce.decideSeller(seller.vendorId, approve, note.trim() || undefined);
      toasts?.show({
        kind: 'success',
        title: `${seller.vendorName} ${approve ? 'approved to sell' : 'rejected'}`,
      });
      onDecided();
    } catch (error) {
      setFailure(errorText(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <article className="site-card-block" aria-label={`Application of ${seller.vendorName}`}>
      <h3>
        {seller.vendorName} <span className="site-muted">vendor #{seller.vendorId}</span>
      </h3>
      {details ? (
        <dl className="site-facts">
          <dt>Legal name</dt>
          <dd>{details.legalName}</dd>
          <dt>Country</dt>
          <dd>{details.countryCode}</dd>
          <dt>Address</dt>
          <dd style={{ whiteSpace: 'pre-wrap' }}>{details.address}</dd>
          <dt>Tax id</dt>
          <dd>{details.taxId ?? '—'}</dd>
          <dt>Billing e-mail</dt>
          <dd>{details.billingEmail}</dd>
          <dt>Payout</dt>
          <dd style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {PAYOUT_LABELS[details.payoutMethod]}: {details.payoutDetails}
          </dd>
          <dt>Sent</dt>
          <dd>{formatDisplayDate(details.submittedAt)}</dd>
          {details.decidedAt ? (
            <>
              <dt>Decided</dt>
              <dd>{formatDisplayDate(details.decidedAt)}</dd>
            </>
          ) : null}
          {details.decisionNote ? (
            <>
              <dt>Note</dt>
              <dd style={{ whiteSpace: 'pre-wrap' }}>{details.decisionNote}</dd>
            </>
          ) : null}
        </dl>
      ) : null}
      {seller.status === 'PENDING' ? (
        <div className="site-form">
          <label className="site-field" htmlFor={noteId}>
            <span>Note to the vendor (optional; say why when you reject)</span>
            <textarea
              id={noteId}
              rows={2}
              maxLength={1000}
              value={note}
              onChange={(event) => setNote(event.target.value)}
            />
          </label>
          {failure ? (
            <p className="site-error" role="alert">
              {failure}
            </p>
          ) : null}
          <div className="site-form-actions">
            {/* Named with the vendor: the moderation section above has an "Approve" button of its own. */}
            <button
              type="button"
              className="mp-button"
              aria-label={`Approve ${seller.vendorName}`}
              disabled={busy}
              onClick={() => void decide(true)}
            >
              Approve
            </button>
            <button
              type="button"
              className="site-button-danger"
              aria-label={`Reject ${seller.vendorName}`}
              disabled={busy}
              onClick={() => void decide(false)}
            >
              Reject
            </button>
          </div>
        </div>
      ) : null}
    </article>
  );
}

/** Administrators: vendors' applications to sell, waiting ones first, to approve or reject with a note. */
export function SellersSection() {
  const filterId = useId();
  const [status, setStatus] = useState<SellerStatus>('PENDING');
  const [sellers, reload] = useLoad((signal) => api.commerce.getSellers(status, { signal }), [status]);
  const list = sellers.status === 'resolved' ? sellers.data : [];
  return (
    <section className="site-section" id="sellers" aria-labelledby="sellers-heading">
      <div className="site-section__head">
        <h2 id="sellers-heading">Sellers</h2>
        <span className="site-inline">
          <label htmlFor={filterId}>Show</label>
          <select
            id={filterId}
            value={status}
            onChange={(event) => setStatus(event.target.value as SellerStatus)}
          >
            {FILTERS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </span>
      </div>
      {sellers.status === 'pending' ? <p className="site-muted">Loading…</p> : null}
      {sellers.status === 'rejected' ? <p className="site-muted">{adminErrorText(sellers.error)}</p> : null}
      {sellers.status === 'resolved' && list.length === 0 ? (
        <p className="site-muted">{status === 'PENDING' ? 'No application is waiting.' : 'None.'}</p>
      ) : null}
      {list.map((seller) => (
        <Application key={`${seller.vendorId}-${seller.status}`} seller={seller} onDecided={reload} />
      ))}
    </section>
  );
}
