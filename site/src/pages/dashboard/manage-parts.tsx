import { useToasts } from '@marketplace/ui';
import { useState, type ReactNode } from 'react';
import { showErrorToast } from '../../lib/errors';

/**
 * Runs a change, saying how it went in a toast (a failure by spec §8's rule: 'Internal Error' alone from 500
 * up); `busy` is true meanwhile, for the buttons to wait. `save('Details', …)` says "Details saved";
 * `run('Screenshot deleted', …)` says what it is given. Both resolve true when the change succeeded.
 */
export function useSave() {
  const toasts = useToasts();
  const [busy, setBusy] = useState(false);
  const run = async (done: string, change: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    try {
      await change();
      toasts?.show({ kind: 'success', title: done });
      return true;
    } catch (error) {
      showErrorToast(toasts, error);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, run, save: (what: string, change: () => Promise<unknown>) => run(`${what} saved`, change) };
}

/** A titled section of a management page (a region named by its heading). */
export function Block({ title, children }: { title: string; children: ReactNode }) {
  const id = `block-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section className="site-card-block" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}
