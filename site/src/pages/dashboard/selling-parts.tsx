export { currencyFrom } from '../../lib/money';
import { formatMoney, type Currency } from '@marketplace/core';
import { useToasts } from '@marketplace/ui';
import { useId, useState, type ReactNode } from 'react';
import { errorText } from '../../lib/errors';

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

/** The failure of a form, in place, as the server (or the form's own check) worded it. */
export function FormFailure({ text }: { text: string }) {
  if (!text) return null;
  return (
    <p className="site-error" role="alert">
      {text}
    </p>
  );
}

/**
 * Runs a form's change: success says so in a toast; a failure (the server's 400 message, or the form's own
 * check thrown as an Error) stays next to the form until the next try.
 */
export function useFormAction() {
  const toasts = useToasts();
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  async function run(success: string, change: () => Promise<unknown>): Promise<boolean> {
    setFailure('');
    setBusy(true);
    try {
      await change();
      toasts?.show({ kind: 'success', title: success });
      return true;
    } catch (error) {
      setFailure(errorText(error));
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { failure, setFailure, busy, run };
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
