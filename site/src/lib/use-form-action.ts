import { useToasts } from '@marketplace/ui';
import { useState } from 'react';
import { errorText } from './errors';

/**
 * Runs a form's change: `busy` is true meanwhile (for the submit button to wait); success says so in a toast
 * (`success` may word it from the change's answer); a failure stays next to the form (see FormFailure) until
 * the next try. The failure is the server's sentence, or 'Internal Error' alone from status 500 up (spec §8,
 * errorText), or the form's own check thrown as an Error; `describe` may word it where a page knows better
 * (an admin page's 403). `run` resolves true when the change succeeded, for the form to clear its fields.
 */
export function useFormAction(describe: (error: unknown) => string = errorText) {
  const toasts = useToasts();
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  async function run<T>(
    success: string | ((answer: T) => string),
    change: () => Promise<T>,
  ): Promise<boolean> {
    setFailure('');
    setBusy(true);
    try {
      const answer = await change();
      toasts?.show({ kind: 'success', title: typeof success === 'string' ? success : success(answer) });
      return true;
    } catch (error) {
      setFailure(describe(error));
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { failure, setFailure, busy, run };
}
