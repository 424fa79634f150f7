export { currencyFrom } from '../../lib/money';
export { FormFailure } from '../../components/FormFailure';
export { useFormAction } from '../../lib/use-form-action';
import { formatMoney, type Currency } from '@marketplace/core';
import { useId, type ReactNode } from 'react';

/** A titled card of the selling pages; its heading names the section for screen readers. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="site-card-block" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

export function moneyText(amountMinor: number, currency: Currency): string {
  return formatMoney(amountMinor, currency);
}

/** Tomorrow (UTC) as yyyy-MM-dd: the first day a price change can be scheduled for. */
export function tomorrowDay(now: Date = new Date()): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1))
    .toISOString()
    .slice(0, 10);
}
