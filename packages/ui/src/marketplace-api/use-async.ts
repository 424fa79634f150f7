import { useEffect, useState } from 'react';

export type AsyncState<T> =
  { status: 'pending' } | { status: 'resolved'; data: T } | { status: 'rejected'; error: Error };

/** Runs `load` when a key changes, aborting the previous run; stale answers never overwrite newer ones. */
export function useAsync<T>(
  load: (signal: AbortSignal) => Promise<T>,
  keys: readonly unknown[],
): AsyncState<T> {
  const [state, setState] = useState<AsyncState<T>>({ status: 'pending' });
  useEffect(() => {
    const controller = new AbortController();
    setState({ status: 'pending' });
    load(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ status: 'resolved', data });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) {
          setState({ status: 'rejected', error: error instanceof Error ? error : new Error(String(error)) });
        }
      },
    );
    return () => controller.abort();
    // The caller lists what `load` depends on, like an effect's dependency list.
  }, keys);
  return state;
}
