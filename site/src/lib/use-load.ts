import { useEffect, useState } from 'react';

export type Loaded<T> =
  { status: 'pending' } | { status: 'resolved'; data: T } | { status: 'rejected'; error: unknown };

/**
 * Loads data for a page (idle, pending, then resolved or rejected; spec §4) and cancels the call when the
 * page changes or closes, so a late answer never overwrites a newer one.
 */
export function useLoad<T>(
  load: (signal: AbortSignal) => Promise<T>,
  keys: readonly unknown[],
): [Loaded<T>, () => void] {
  const [state, setState] = useState<Loaded<T>>({ status: 'pending' });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    setState((previous) => (previous.status === 'resolved' ? previous : { status: 'pending' }));
    load(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ status: 'resolved', data });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'rejected', error });
      },
    );
    return () => controller.abort();
  }, [...keys, generation]);
  return [state, () => setGeneration((value) => value + 1)];
}
