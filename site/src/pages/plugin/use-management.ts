import type { Monetization } from '@marketplace/api-client';
import { useAuth } from '../../auth/AuthProvider';
import { api } from '../../lib/api';
import { useLoad } from '../../lib/use-load';

export type Management =
  | { status: 'pending' }
  | { status: 'guest' }
  | { status: 'no' }
  | { status: 'yes'; monetization: Monetization; reload: () => void };

/**
 * Whether the signed-in viewer manages an item (one of its people, or an administrator), which the sales
 * and monetization tabs are for. Neither the item's answer nor the auth user says so (the site does not
 * know who administers), so the page asks the server the question it can answer: the monetization call
 * is for the item's people and administrators only, so a 200 means "manages" (and its answer is the
 * monetization tab's data), anything else (403, 404) means "does not". Guests never ask.
 */
export function useManagement(pluginId: number | undefined): Management {
  const { user } = useAuth();
  const userId = user ? user.id : user;
  const [answer, reload] = useLoad(
    async (signal) => ({
      pluginId,
      userId,
      monetization:
        pluginId === undefined || !userId ? null : await api.commerce.getMonetization(pluginId, { signal }),
    }),
    [pluginId, userId],
  );
  if (userId === null) return { status: 'guest' };
  if (userId === undefined || answer.status === 'pending') return { status: 'pending' };
  if (answer.status === 'rejected') return { status: 'no' };
  // useLoad keeps the last answer while the next loads: one for another item or viewer is not an answer yet.
  if (answer.data.pluginId !== pluginId || answer.data.userId !== userId) return { status: 'pending' };
  if (answer.data.monetization === null) return { status: 'no' };
  return { status: 'yes', monetization: answer.data.monetization, reload };
}
