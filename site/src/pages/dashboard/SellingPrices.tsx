import type { Pricing } from '@marketplace/api-client';
import { formatDisplayDate, type Currency } from '@marketplace/core';
import { useToasts } from '@marketplace/ui';
import { useState, type FormEvent } from 'react';
import { api } from '../../lib/api';
import { showErrorToast } from '../../lib/errors';
import {
  PRICE_SLOTS,
  priceTextsOf,
  readPriceTexts,
  slotKey,
  slotLabel,
  type PriceTexts,
} from './money-input';
import { FormFailure, moneyText, Section, tomorrowDay, useFormAction } from './selling-parts';

/** The four price fields, typed as decimals of the currency; an empty one is a licence not sold. */
function PriceFields({
  texts,
  currency,
  onChange,
  idPrefix,
}: {
  texts: PriceTexts;
  currency: Currency;
  onChange: (texts: PriceTexts) => void;
  idPrefix: string;
}) {
  return (
    <div
      style={{
        display: 'grid',
        gridTemplateColumns: 'repeat(auto-fit, minmax(160px, 1fr))',
        alignItems: 'end',
        gap: 12,
      }}
    >
      {PRICE_SLOTS.map((slot) => {
        const key = slotKey(slot);
        return (
          <label key={key} className="site-field" htmlFor={`${idPrefix}-${key}`}>
            <span>
              {slotLabel(slot)} ({currency.code})
            </span>
            <input
              id={`${idPrefix}-${key}`}
              inputMode="decimal"
              autoComplete="off"
              placeholder="not sold"
              value={texts[key]}
              onChange={(event) => onChange({ ...texts, [key]: event.target.value })}
            />
          </label>
        );
      })}
    </div>
  );
}

function priceListText(prices: Pricing['prices'], currency: Currency): string {
  return prices.map((price) => `${slotLabel(price)} ${moneyText(price.amountMinor, currency)}`).join('; ');
}

export function PricesSection({
  pricing,
  currency,
  onSaved,
}: {
  pricing: Pricing;
  currency: Currency;
  onSaved: () => void;
}) {
  const [texts, setTexts] = useState(() => priceTextsOf(pricing.prices, currency));
  const action = useFormAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const reading = readPriceTexts(texts, currency);
    if (!reading.ok) return action.setFailure(reading.error);
    if (await action.run('Prices saved', () => api.commerce.setPrices(pricing.pluginId, reading.value)))
      onSaved();
  }

  return (
    <Section title="Prices">
      <p className="site-muted">
        The price of one licence for each billing period, in {currency.code} (for example 12.50). Leave a
        price empty to not sell that licence. New prices apply at once; orders already placed keep theirs.
      </p>
      <form className="site-form" onSubmit={submit} noValidate aria-label="Prices">
        <PriceFields texts={texts} currency={currency} onChange={setTexts} idPrefix="price-now" />
        <FormFailure text={action.failure} />
        <div className="site-form-actions">
          <button type="submit" className="mp-button" disabled={action.busy}>
            Save prices
          </button>
        </div>
      </form>
    </Section>
  );
}

export function PriceChangesSection({
  pricing,
  currency,
  onSaved,
}: {
  pricing: Pricing;
  currency: Currency;
  onSaved: () => void;
}) {
  const toasts = useToasts();
  const firstDay = tomorrowDay();
  const [day, setDay] = useState(firstDay);
  const [texts, setTexts] = useState(() => priceTextsOf(pricing.prices, currency));
  const action = useFormAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return action.setFailure('Choose the day the new prices start.');
    const reading = readPriceTexts(texts, currency);
    if (!reading.ok) return action.setFailure(reading.error);
    if (
      await action.run('Price change scheduled', () =>
        api.commerce.schedulePriceChange(pricing.pluginId, day, reading.value),
      )
    )
      onSaved();
  }

  async function cancel(changeId: number, effectiveDate: string) {
    const shown = formatDisplayDate(new Date(`${effectiveDate}T00:00:00Z`));
    if (!window.confirm(`Cancel the price change of ${shown}?`)) return;
    try {
      await api.commerce.cancelPriceChange(pricing.pluginId, changeId);
      toasts?.show({ kind: 'success', title: 'Price change cancelled' });
      onSaved();
    } catch (error) {
      showErrorToast(toasts, error);
    }
  }

  return (
    <Section title="Scheduled price changes">
      {pricing.scheduledChanges.length === 0 ? (
        <p className="site-muted">No price change is scheduled.</p>
      ) : (
        <table className="site-table">
          <caption className="site-visually-hidden">Scheduled price changes</caption>
          <thead>
            <tr>
              <th scope="col">From</th>
              <th scope="col">Prices</th>
              <th scope="col">
                <span className="site-visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {pricing.scheduledChanges.map((change) => {
              const shown = formatDisplayDate(new Date(`${change.effectiveDate}T00:00:00Z`));
              return (
                <tr key={change.id}>
                  <td>{shown}</td>
                  <td>{priceListText(change.prices, currency)}</td>
                  <td>
                    <button
                      type="button"
                      className="site-button-danger"
                      onClick={() => void cancel(change.id, change.effectiveDate)}
                    >
                      Cancel the change of {shown}
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <form className="site-form" onSubmit={submit} noValidate aria-label="Schedule a price change">
        <h3 style={{ margin: '8px 0 0' }}>Schedule a price change</h3>
        <p className="site-muted" style={{ margin: 0 }}>
          The whole price list from the start of a day (UTC); scheduling the same day again replaces it.
        </p>
        <label className="site-field">
          <span>From</span>
          <input
            type="date"
            min={firstDay}
            style={{ maxWidth: '14em' }}
            value={day}
            onChange={(event) => setDay(event.target.value)}
          />
        </label>
        <PriceFields texts={texts} currency={currency} onChange={setTexts} idPrefix="price-later" />
        <FormFailure text={action.failure} />
        <div className="site-form-actions">
          <button type="submit" className="mp-button" disabled={action.busy}>
            Schedule price change
          </button>
        </div>
      </form>
    </Section>
  );
}
