import { useEffect, useId, useRef, useState } from 'react';
import { currentAccessToken } from '../auth/session';
import { hydrationOutcome, isSettledOutcome, reviveError, type LoadOutcome } from './page-data';
import { useServerRender } from './server-render';

export type Loaded<T> =
  { status: 'pending' } | { status: 'resolved'; data: T } | { status: 'rejected'; error: unknown };

/**
 * Names one load of a page the same way on the server and in the browser: React's id of the calling
 * component (the same on both sides of a hydration, by its place in the tree) and the load's keys.
 */
function loadKey(id: string, keys: readonly unknown[]): string {
  try {
    return `${id}${JSON.stringify(keys)}`;
  } catch {
    return id;
  }
}

function stateOf<T>(outcome: LoadOutcome | undefined): Loaded<T> {
  if (outcome === undefined) return { status: 'pending' };
  if ('error' in outcome) return { status: 'rejected', error: reviveError(outcome.error) };
  return { status: 'resolved', data: outcome.data as T };
}

function sameKeys(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((value, index) => Object.is(value, b[index]));
}

/**
 * Loads data for a page (idle, pending, then resolved or rejected; spec §4) and cancels the call when the
 * page changes or closes, so a late answer never overwrites a newer one.
 *
 * Server-rendered pages: on the server the load runs while the page renders (entry-server.tsx renders again
 * once the answers are in), and its outcome travels in the page's data; in the browser the first render
 * starts from that outcome, so hydration draws the same markup, and a guest's browser does not ask again.
 * A signed-in visitor's browser asks again after hydration (their answer may differ: their own unlisted
 * items), keeping the server's answer on screen meanwhile.
 */
export function useLoad<T>(
  load: (signal: AbortSignal) => Promise<T>,
  keys: readonly unknown[],
): [Loaded<T>, () => void] {
  const server = useServerRender();
  const key = loadKey(useId(), keys);
  const [initial] = useState(() => {
    if (!server) return hydrationOutcome(key);
    const outcome = server.loads.outcome(key);
    if (outcome === undefined) server.loads.start(key, load);
    return outcome;
  });
  const [state, setState] = useState<Loaded<T>>(() => stateOf<T>(initial));
  // The keys whose outcome came with the page: no need to ask for them again (guests).
  const fromPage = useRef(initial !== undefined && isSettledOutcome(initial) ? keys : undefined);
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    const given = fromPage.current;
    if (given && generation === 0 && sameKeys(given, keys) && !currentAccessToken()) return;
    fromPage.current = undefined;
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
