import type { Seller, SellerApplication } from '@marketplace/api-client';
import { formatDisplayDate } from '@marketplace/core';
import { useId, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { RequireSignIn } from '../../components/RequireSignIn';
import { api } from '../../lib/api';
import { errorText } from '../../lib/errors';
import { usePageTitle } from '../../lib/page-title';
import { useLoad } from '../../lib/use-load';
import { FormFailure, useFormAction } from './selling-parts';

type PayoutMethod = SellerApplication['payoutMethod'];

const PAYOUT_METHODS: readonly (readonly [PayoutMethod, string, string])[] = [
  ['BANK_TRANSFER', 'Bank transfer', 'IBAN and bank (name, BIC)'],
  ['PAYPAL', 'PayPal', 'PayPal address'],
];

const STATUS_TEXT = {
  PENDING: 'Waiting for an administrator',
  APPROVED: 'Approved: this vendor can sell',
  REJECTED: 'Rejected',
} as const;

const STATUS_BADGE = {
  PENDING: 'site-badge site-badge--warning',
  APPROVED: 'site-badge site-badge--success',
  REJECTED: 'site-badge site-badge--danger',
} as const;

function readPositiveId(text: string | null): number | undefined {
  return text && /^\d{1,10}$/.test(text) && Number(text) > 0 ? Number(text) : undefined;
}

/** Where the application stands: its status, when it was sent and decided, and the administrator's note. */
function Status({ seller }: { seller: Seller }) {
  if (seller.status === null) {
    return <p className="site-muted">{seller.vendorName} has not applied to sell yet.</p>;
  }
  const details = seller.details;
  return (
    <section className="site-card-block" aria-labelledby="application-status-heading">
      <h2 id="application-status-heading">
        Status <span className={STATUS_BADGE[seller.status]}>{STATUS_TEXT[seller.status]}</span>
      </h2>
      {details ? (
        <dl className="site-facts">
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
              <dt>Administrator’s note</dt>
              <dd style={{ whiteSpace: 'pre-wrap' }}>{details.decisionNote}</dd>
            </>
          ) : null}
        </dl>
      ) : null}
    </section>
  );
}

function ApplicationForm({ seller, onSent }: { seller: Seller; onSent: () => void }) {
  const details = seller.details;
  const formId = useId();
  const [fields, setFields] = useState({
    legalName: details?.legalName ?? '',
    countryCode: details?.countryCode ?? '',
    address: details?.address ?? '',
    taxId: details?.taxId ?? '',
    billingEmail: details?.billingEmail ?? '',
    payoutMethod: details?.payoutMethod ?? ('BANK_TRANSFER' as PayoutMethod),
    payoutDetails: details?.payoutDetails ?? '',
  });
  const action = useFormAction();
  const set = (patch: Partial<typeof fields>) => setFields({ ...fields, ...patch });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const countryCode = fields.countryCode.trim().toUpperCase();
    if (!/^[A-Z]{2}$/.test(countryCode))
      return action.setFailure('Country: give the two-letter code of the country (ISO 3166), e.g. DE or US.');
    const application: SellerApplication = {
      vendorId: seller.vendorId,
      legalName: fields.legalName.trim(),
      countryCode,
      address: fields.address.trim(),
      billingEmail: fields.billingEmail.trim(),
      payoutMethod: fields.payoutMethod,
      payoutDetails: fields.payoutDetails.trim(),
      ...(fields.taxId.trim() ? { taxId: fields.taxId.trim() } : {}),
    };
    if (await action.run('Application sent', () => api.commerce.applyToSell(application))) onSent();
  }

  const payoutLabel =
    PAYOUT_METHODS.find(([method]) => method === fields.payoutMethod)?.[2] ?? 'Payout details';
  return (
    <form className="site-form site-card-block" onSubmit={submit} noValidate aria-label="Application to sell">
      <h2>{seller.status === null ? 'Apply to sell' : 'Change the details and apply again'}</h2>
      {seller.status === 'APPROVED' ? (
        <p className="site-callout site-callout--warning">
          Changing the details puts the vendor back in the queue until an administrator approves them again.
        </p>
      ) : null}
      <label className="site-field">
        <span>Legal name (person or company)</span>
        <input
          required
          maxLength={200}
          autoComplete="organization"
          value={fields.legalName}
          onChange={(event) => set({ legalName: event.target.value })}
        />
      </label>
      <label className="site-field">
        <span>Country code (two letters, e.g. DE)</span>
        <input
          required
          maxLength={2}
          style={{ width: '6em', textTransform: 'uppercase' }}
          autoComplete="country"
          value={fields.countryCode}
          onChange={(event) => set({ countryCode: event.target.value })}
        />
      </label>
      <label className="site-field">
        <span>Address</span>
        <textarea
          required
          rows={3}
          maxLength={500}
          autoComplete="street-address"
          value={fields.address}
          onChange={(event) => set({ address: event.target.value })}
        />
      </label>
      <label className="site-field">
        <span>Tax id (VAT number; optional)</span>
        <input maxLength={50} value={fields.taxId} onChange={(event) => set({ taxId: event.target.value })} />
      </label>
      <label className="site-field">
        <span>Billing e-mail</span>
        <input
          required
          type="email"
          maxLength={200}
          autoComplete="email"
          value={fields.billingEmail}
          onChange={(event) => set({ billingEmail: event.target.value })}
        />
      </label>
      <div className="site-field">
        <label htmlFor={`${formId}-payout`}>Payout method</label>
        <select
          id={`${formId}-payout`}
          value={fields.payoutMethod}
          onChange={(event) =>
            set({ payoutMethod: event.target.value === 'PAYPAL' ? 'PAYPAL' : 'BANK_TRANSFER' })
          }
        >
          {PAYOUT_METHODS.map(([method, label]) => (
            <option key={method} value={method}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <label className="site-field">
        <span>{payoutLabel}</span>
        <textarea
          required
          rows={2}
          maxLength={500}
          value={fields.payoutDetails}
          onChange={(event) => set({ payoutDetails: event.target.value })}
        />
      </label>
      <FormFailure text={action.failure} />
      <div className="site-form-actions">
        <button type="submit" className="mp-button" disabled={action.busy}>
          {seller.status === null ? 'Apply to sell' : 'Apply again'}
        </button>
      </div>
    </form>
  );
}

function Application({ vendorId, pluginId }: { vendorId: number; pluginId: number | undefined }) {
  const [seller, reload] = useLoad((signal) => api.commerce.getSeller(vendorId, { signal }), [vendorId]);
  usePageTitle(seller.status === 'resolved' ? `Selling as ${seller.data.vendorName}` : 'Apply to sell');
  const back = pluginId === undefined ? '/dashboard' : `/dashboard/plugin/${pluginId}/selling`;
  if (seller.status === 'pending') return <p className="site-page site-muted">Loading…</p>;
  if (seller.status === 'rejected') {
    return (
      <div className="site-message" role="alert">
        <h1>This vendor could not be loaded</h1>
        <p>{errorText(seller.error)}</p>
        <Link to={back}>Back</Link>
      </div>
    );
  }
  const current = seller.data;
  return (
    <div className="site-page site-narrow">
      <p>
        <Link to={back}>{pluginId === undefined ? '← My items' : '← Selling settings'}</Link>
      </p>
      <h1>Selling as {current.vendorName}</h1>
      <p className="site-muted">
        To sell on the marketplace, a vendor gives its legal and payout details; an administrator checks them
        and approves the vendor. Only the vendor’s people and administrators see these details.
      </p>
      <Status seller={current} />
      {current.status !== null && current.details === null ? (
        <p className="site-muted">Only this vendor’s people can see and change its application.</p>
      ) : (
        <ApplicationForm
          key={`${current.status}-${current.details?.submittedAt ?? 0}`}
          seller={current}
          onSent={reload}
        />
      )}
    </div>
  );
}

/** A vendor's application to sell (/dashboard/selling/apply?vendor=ID[&plugin=ID]). */
export default function SellerApplicationPage() {
  const [params] = useSearchParams();
  const vendorId = readPositiveId(params.get('vendor'));
  const pluginId = readPositiveId(params.get('plugin'));
  return (
    <RequireSignIn>
      {() =>
        vendorId === undefined ? (
          <div className="site-message">
            <h1>Which vendor?</h1>
            <p>Open this page from an item’s selling settings or its Monetization tab.</p>
            <Link to="/dashboard">My items</Link>
          </div>
        ) : (
          <Application vendorId={vendorId} pluginId={pluginId} />
        )
      }
    </RequireSignIn>
  );
}
