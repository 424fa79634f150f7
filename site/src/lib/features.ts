import { useEffect, useState } from 'react';
import { useAuth } from '../auth/AuthProvider';
import { api } from './api';
import { browserId, useConsent } from './consent';

/**
 * The feature flags as they apply to this visitor, asked once per page load and person (the server answers
 * `GET /api/features/mine` uncached, so a flag an administrator flips shows on the next load).
 */
let asked: { key: string; flags: Promise<Record<string, boolean>> } | undefined;

function flagsFor(key: string): Promise<Record<string, boolean>> {
  if (asked?.key !== key) {
    const flags = api.features.mine(browserId()).then(
      (answer) => answer.flags,
      (error: unknown) => {
        // Flags only add to pages: without them every flag is off and the page works as before.
        console.warn('Could not read the feature flags', error);
        return {};
      },
    );
    asked = { key, flags };
  }
  return asked.flags;
}

/** Whether a flag is on for this visitor: undefined while unknown (render nothing flag-dependent yet). */
export function useFeature(name: string): boolean | undefined {
  const { user } = useAuth();
  const consent = useConsent();
  const key = user === undefined ? undefined : `${user?.id ?? 'guest'}/${consent ?? ''}`;
  const [known, setKnown] = useState<{ key: string; flags: Record<string, boolean> }>();
  useEffect(() => {
    if (key === undefined) return;
    let live = true;
    void flagsFor(key).then((flags) => {
      if (live) setKnown({ key, flags });
    });
    return () => {
      live = false;
    };
  }, [key]);
  return known && known.key === key ? known.flags[name] === true : undefined;
}
