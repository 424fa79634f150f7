import type { Coupon, Offer, OfferInput } from '@marketplace/api-client';
import {
  DAY_MS,
  formatDisplayDate,
  formatNumber,
  formatStatisticsDate,
  LICENSE_KIND_LABELS,
  LICENSE_KINDS,
  MAX_COUPONS_PER_REQUEST,
  minorToDecimalText,
  type Currency,
  type LicenseKind,
} from '@marketplace/core';
import { useToasts } from '@marketplace/ui';
import { useId, useState, type FormEvent } from 'react';
import { api } from '../../lib/api';
import { errorText, showErrorToast } from '../../lib/errors';
import { useLoad } from '../../lib/use-load';
import { readAmount, readWholeNumber } from './money-input';
import { FormFailure, moneyText, Section, useFormAction } from './selling-parts';

const COUPONS_PER_PAGE = 25;

const day = (text: string) => formatDisplayDate(new Date(`${text}T00:00:00Z`));

function discountText(offer: Offer, currency: Currency): string {
  return offer.discountKind === 'PERCENT'
    ? `${offer.discountValue}% off`
    : `${moneyText(offer.discountValue, currency)} off`;
}

function kindsText(kinds: readonly LicenseKind[]): string {
  return kinds.length === 0 ? 'Every licence' : kinds.map((kind) => LICENSE_KIND_LABELS[kind]).join(', ');
}

interface Draft {
  name: string;
  discountKind: 'PERCENT' | 'AMOUNT';
  value: string;
  validFrom: string;
  validUntil: string;
  licenseKinds: LicenseKind[];
  maxUses: string;
}

function draftOf(offer: Offer | undefined, currency: Currency): Draft {
  if (!offer) {
    const today = Date.now();
    return {
      name: '',
      discountKind: 'PERCENT',
      value: '',
      validFrom: formatStatisticsDate(today),
      validUntil: formatStatisticsDate(today + 30 * DAY_MS),
      licenseKinds: [],
      maxUses: '',
    };
  }
  return {
    name: offer.name,
    discountKind: offer.discountKind,
    value:
      offer.discountKind === 'PERCENT'
        ? String(offer.discountValue)
        : minorToDecimalText(offer.discountValue, currency),
    validFrom: offer.validFrom,
    validUntil: offer.validUntil,
    licenseKinds: [...offer.licenseKinds],
    maxUses: offer.maxUsesPerCoupon === null ? '' : String(offer.maxUsesPerCoupon),
  };
}

/** The offer a draft describes, or a sentence saying what to correct. */
export function readOfferDraft(
  draft: Draft,
  currency: Currency,
): { ok: true; value: OfferInput } | { ok: false; error: string } {
  if (!draft.name.trim()) return { ok: false, error: 'Give the offer a name, such as “Spring sale”.' };
  let discountValue: number;
  if (draft.discountKind === 'PERCENT') {
    const percent = readWholeNumber(draft.value);
    if (percent === undefined || percent < 1 || percent > 100)
      return {
        ok: false,
        error: `Percent off: “${draft.value.trim()}” is not a whole number from 1 to 100.`,
      };
    discountValue = percent;
  } else {
    const amount = readAmount(draft.value, currency, 'Amount off');
    if (!amount.ok) return amount;
    if (amount.value < 1) return { ok: false, error: 'Amount off: give more than nothing.' };
    discountValue = amount.value;
  }
  if (!draft.validFrom || !draft.validUntil)
    return { ok: false, error: 'Give the first and the last day the coupons work.' };
  let maxUsesPerCoupon: number | null = null;
  if (draft.maxUses.trim()) {
    const uses = readWholeNumber(draft.maxUses);
    if (uses === undefined || uses < 1 || uses > 1_000_000)
      return { ok: false, error: `Uses per coupon: “${draft.maxUses.trim()}” is not a whole number from 1.` };
    maxUsesPerCoupon = uses;
  }
  return {
    ok: true,
    value: {
      name: draft.name.trim(),
      discountKind: draft.discountKind,
      discountValue,
      validFrom: draft.validFrom,
      validUntil: draft.validUntil,
      licenseKinds: draft.licenseKinds,
      maxUsesPerCoupon,
    },
  };
}

function OfferForm({
  pluginId,
  offer,
  currency,
  onDone,
  onCancel,
}: {
  pluginId: number;
  offer: Offer | undefined;
  currency: Currency;
  onDone: () => void;
  onCancel?: () => void;
}) {
  const formId = useId();
  const [draft, setDraft] = useState(() => draftOf(offer, currency));
  const action = useFormAction();
  const set = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const reading = readOfferDraft(draft, currency);
    if (!reading.ok) return action.setFailure(reading.error);
    const saved = await action.run(offer ? 'Offer saved' : 'Offer created', () =>
      offer
        ? api.commerce.updateOffer(pluginId, offer.id, reading.value)
        : api.commerce.createOffer(pluginId, reading.value),
    );
    if (saved) {
      if (!offer) setDraft(draftOf(undefined, currency));
      onDone();
    }
  }

  const title = offer ? `Edit the offer “${offer.name}”` : 'New offer';
  return (
    <form className="site-form" onSubmit={submit} noValidate aria-label={title}>
      <h3 style={{ margin: '8px 0 0' }}>{title}</h3>
      <label className="site-field">
        <span>Name</span>
        <input maxLength={100} value={draft.name} onChange={(event) => set({ name: event.target.value })} />
      </label>
      <div className="site-inline-form">
        <label htmlFor={`${formId}-kind`}>Discount</label>
        <select
          id={`${formId}-kind`}
          value={draft.discountKind}
          onChange={(event) =>
            set({ discountKind: event.target.value === 'AMOUNT' ? 'AMOUNT' : 'PERCENT', value: '' })
          }
        >
          <option value="PERCENT">Percent off</option>
          <option value="AMOUNT">Amount off ({currency.code})</option>
        </select>

        <label>
          {draft.discountKind === 'PERCENT' ? 'Percent' : `Amount (${currency.code})`}{' '}
          <input
            inputMode={draft.discountKind === 'PERCENT' ? 'numeric' : 'decimal'}
            style={{ width: '8em' }}
            value={draft.value}
            onChange={(event) => set({ value: event.target.value })}
          />
        </label>
      </div>
      <div className="site-inline-form">
        <label>
          First day{' '}
          <input
            type="date"
            value={draft.validFrom}
            onChange={(event) => set({ validFrom: event.target.value })}
          />
        </label>
        <label>
          Last day{' '}
          <input
            type="date"
            min={draft.validFrom || undefined}
            value={draft.validUntil}
            onChange={(event) => set({ validUntil: event.target.value })}
          />
        </label>
      </div>
      <fieldset className="site-filter">
        <legend>For licences (none checked: every kind)</legend>
        {LICENSE_KINDS.map((kind) => (
          <label key={kind} className="site-check">
            <input
              type="checkbox"
              checked={draft.licenseKinds.includes(kind)}
              onChange={(event) =>
                set({
                  licenseKinds: event.target.checked
                    ? [...draft.licenseKinds, kind]
                    : draft.licenseKinds.filter((other) => other !== kind),
                })
              }
            />
            {LICENSE_KIND_LABELS[kind]}
          </label>
        ))}
      </fieldset>
      <label className="site-field">
        <span>Uses per coupon (empty: unlimited)</span>
        <input
          type="number"
          min={1}
          style={{ width: '8em' }}
          value={draft.maxUses}
          onChange={(event) => set({ maxUses: event.target.value })}
        />
      </label>
      <FormFailure text={action.failure} />
      <div className="site-form-actions">
        <button type="submit" className="mp-button" disabled={action.busy}>
          {offer ? 'Save offer' : 'Create offer'}
        </button>
        {onCancel ? (
          <button type="button" className="site-button-secondary" onClick={onCancel}>
            Cancel editing
          </button>
        ) : null}
      </div>
    </form>
  );
}

function CouponRow({
  pluginId,
  coupon,
  onChanged,
}: {
  pluginId: number;
  coupon: Coupon;
  onChanged: () => void;
}) {
  const toasts = useToasts();
  const [sentTo, setSentTo] = useState('');

  async function copy() {
    try {
      await navigator.clipboard.writeText(coupon.code);
      toasts?.show({ kind: 'success', title: `Copied ${coupon.code}` });
    } catch {
      toasts?.show({ kind: 'error', title: 'Could not copy', message: 'Select the code and copy it.' });
    }
  }

  async function markSent(event: FormEvent) {
    event.preventDefault();
    try {
      await api.commerce.markCouponSent(pluginId, coupon.id, sentTo.trim() || undefined);
      toasts?.show({ kind: 'success', title: `${coupon.code} marked as sent` });
      onChanged();
    } catch (error) {
      showErrorToast(toasts, error);
    }
  }

  return (
    <tr>
      <td>
        <code>{coupon.code}</code>
      </td>
      <td className="site-number">{formatNumber(coupon.uses)}</td>
      <td>
        {coupon.sentAt ? (
          <>
            {formatDisplayDate(coupon.sentAt)}
            {coupon.sentTo ? <span className="site-muted"> to {coupon.sentTo}</span> : null}
          </>
        ) : (
          <form className="site-inline-form" onSubmit={markSent}>
            <label className="site-visually-hidden" htmlFor={`sent-to-${coupon.id}`}>
              Sent to (coupon {coupon.code}, optional)
            </label>
            <input
              id={`sent-to-${coupon.id}`}
              maxLength={200}
              placeholder="sent to (optional)"
              value={sentTo}
              onChange={(event) => setSentTo(event.target.value)}
            />
            <button type="submit" className="site-button-secondary" aria-label={`Mark sent: ${coupon.code}`}>
              Mark sent
            </button>
          </form>
        )}
      </td>
      <td>
        <button
          type="button"
          className="site-button-secondary"
          aria-label={`Copy ${coupon.code}`}
          onClick={() => void copy()}
        >
          Copy
        </button>
      </td>
    </tr>
  );
}

function Coupons({ pluginId, offer, onChanged }: { pluginId: number; offer: Offer; onChanged: () => void }) {
  const toasts = useToasts();
  const [coupons, reload] = useLoad(
    (signal) => api.commerce.getCoupons(pluginId, offer.id, { signal }),
    [pluginId, offer.id],
  );
  const [count, setCount] = useState('10');
  const [page, setPage] = useState(0);
  const action = useFormAction();

  async function generate(event: FormEvent) {
    event.preventDefault();
    const number = readWholeNumber(count);
    if (number === undefined || number < 1 || number > MAX_COUPONS_PER_REQUEST)
      return action.setFailure(`Make from 1 to ${formatNumber(MAX_COUPONS_PER_REQUEST)} coupons at a time.`);
    if (
      await action.run(`${formatNumber(number)} ${number === 1 ? 'coupon' : 'coupons'} made`, () =>
        api.commerce.generateCoupons(pluginId, offer.id, number),
      )
    ) {
      reload();
      onChanged();
    }
  }

  async function copyAll(list: readonly Coupon[]) {
    try {
      await navigator.clipboard.writeText(list.map((coupon) => coupon.code).join('\n'));
      toasts?.show({ kind: 'success', title: `Copied ${formatNumber(list.length)} codes` });
    } catch {
      toasts?.show({ kind: 'error', title: 'Could not copy', message: 'Select the codes and copy them.' });
    }
  }

  const list = coupons.status === 'resolved' ? coupons.data : [];
  const pages = Math.ceil(list.length / COUPONS_PER_PAGE);
  const shown = list.slice(page * COUPONS_PER_PAGE, (page + 1) * COUPONS_PER_PAGE);
  return (
    <section aria-label={`Coupons of ${offer.name}`}>
      <h3>Coupons of “{offer.name}”</h3>
      <form className="site-inline-form" onSubmit={generate} noValidate>
        <label>
          Number of coupons{' '}
          <input
            type="number"
            min={1}
            max={MAX_COUPONS_PER_REQUEST}
            style={{ width: '7em' }}
            value={count}
            onChange={(event) => setCount(event.target.value)}
          />
        </label>
        <button type="submit" className="mp-button" disabled={action.busy}>
          Generate coupons
        </button>
        {list.length ? (
          <button type="button" className="site-button-secondary" onClick={() => void copyAll(list)}>
            Copy all codes
          </button>
        ) : null}
      </form>
      <FormFailure text={action.failure} />
      {coupons.status === 'rejected' ? <p className="site-error">{errorText(coupons.error)}</p> : null}
      {coupons.status === 'resolved' && list.length === 0 ? (
        <p className="site-muted">No coupons yet.</p>
      ) : null}
      {shown.length ? (
        <table className="site-table">
          <caption className="site-visually-hidden">Coupons of {offer.name}</caption>
          <thead>
            <tr>
              <th scope="col">Code</th>
              <th scope="col" className="site-number">
                Uses
              </th>
              <th scope="col">Sent</th>
              <th scope="col">
                <span className="site-visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((coupon) => (
              <CouponRow key={coupon.id} pluginId={pluginId} coupon={coupon} onChanged={reload} />
            ))}
          </tbody>
        </table>
      ) : null}
      {pages > 1 ? (
        <nav className="site-pagination" aria-label="Coupon pages">
          <button type="button" disabled={page === 0} onClick={() => setPage(page - 1)}>
            Previous
          </button>
          <span className="site-muted">
            {page + 1} of {pages}
          </span>
          <button type="button" disabled={page + 1 >= pages} onClick={() => setPage(page + 1)}>
            Next
          </button>
        </nav>
      ) : null}
    </section>
  );
}

export function OffersSection({ pluginId, currency }: { pluginId: number; currency: Currency }) {
  const toasts = useToasts();
  const [offers, reload] = useLoad((signal) => api.commerce.getOffers(pluginId, { signal }), [pluginId]);
  const [editing, setEditing] = useState<number | undefined>(undefined);
  const [couponsOf, setCouponsOf] = useState<number | undefined>(undefined);

  async function remove(offer: Offer) {
    if (!window.confirm(`Delete the offer “${offer.name}” and its coupons?`)) return;
    try {
      await api.commerce.deleteOffer(pluginId, offer.id);
      toasts?.show({ kind: 'success', title: 'Offer deleted' });
      if (editing === offer.id) setEditing(undefined);
      if (couponsOf === offer.id) setCouponsOf(undefined);
      reload();
    } catch (error) {
      showErrorToast(toasts, error);
    }
  }

  const list = offers.status === 'resolved' ? offers.data : [];
  const edited = list.find((offer) => offer.id === editing);
  const withCoupons = list.find((offer) => offer.id === couponsOf);
  return (
    <Section title="Offers and coupons">
      <p className="site-muted">
        An offer is a discount its coupons give from the first to the last day (UTC). Two offers for the same
        licence kind cannot overlap in time.
      </p>
      {offers.status === 'pending' ? <p className="site-muted">Loading…</p> : null}
      {offers.status === 'rejected' ? <p className="site-error">{errorText(offers.error)}</p> : null}
      {offers.status === 'resolved' && list.length === 0 ? (
        <p className="site-muted">No offers yet.</p>
      ) : null}
      {list.length ? (
        <table className="site-table">
          <caption className="site-visually-hidden">Offers</caption>
          <thead>
            <tr>
              <th scope="col">Offer</th>
              <th scope="col">Discount</th>
              <th scope="col">Valid</th>
              <th scope="col">Licences</th>
              <th scope="col" className="site-number">
                Coupons (used)
              </th>
              <th scope="col">
                <span className="site-visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((offer) => (
              <tr key={offer.id}>
                <td>
                  {offer.name}
                  <div className="site-muted">
                    {offer.maxUsesPerCoupon === null
                      ? 'Unlimited uses per coupon'
                      : `${formatNumber(offer.maxUsesPerCoupon)} ${offer.maxUsesPerCoupon === 1 ? 'use' : 'uses'} per coupon`}
                  </div>
                </td>
                <td>{discountText(offer, currency)}</td>
                <td>
                  {day(offer.validFrom)} – {day(offer.validUntil)}
                </td>
                <td>{kindsText(offer.licenseKinds)}</td>
                <td className="site-number">
                  {formatNumber(offer.couponCount)} ({formatNumber(offer.usedCount)})
                </td>
                <td>
                  <div className="site-form-actions" style={{ marginTop: 0 }}>
                    <button
                      type="button"
                      className="site-button-secondary"
                      aria-label={`Coupons of ${offer.name}`}
                      onClick={() => setCouponsOf(offer.id)}
                    >
                      Coupons
                    </button>
                    <button
                      type="button"
                      className="site-button-secondary"
                      aria-label={`Edit ${offer.name}`}
                      onClick={() => setEditing(offer.id)}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className="site-button-danger"
                      aria-label={`Delete ${offer.name}`}
                      onClick={() => void remove(offer)}
                    >
                      Delete
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {withCoupons ? (
        <Coupons key={withCoupons.id} pluginId={pluginId} offer={withCoupons} onChanged={reload} />
      ) : null}
      {edited ? (
        <OfferForm
          key={`edit-${edited.id}`}
          pluginId={pluginId}
          offer={edited}
          currency={currency}
          onDone={() => {
            setEditing(undefined);
            reload();
          }}
          onCancel={() => setEditing(undefined)}
        />
      ) : (
        <OfferForm key="new" pluginId={pluginId} offer={undefined} currency={currency} onDone={reload} />
      )}
    </Section>
  );
}
