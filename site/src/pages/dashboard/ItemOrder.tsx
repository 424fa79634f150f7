import type { UserPluginSummary } from '@marketplace/api-client';
import { itemNoun, PRODUCT_FAMILIES } from '@marketplace/core';
import { useState } from 'react';
import { api } from '../../lib/api';
import { errorText } from '../../lib/errors';
import { useLoad } from '../../lib/use-load';
import { useSave } from './manage-parts';

/** The most the list answers in one page; every page is read, as the order names every item. */
const PAGE_SIZE = 100;

type Entry = Pick<UserPluginSummary, 'id' | 'name' | 'family'>;

/** Every item the user owns or develops, of every family, in their present order. */
async function allItems(userId: number, signal: AbortSignal): Promise<Entry[]> {
  const first = await api.getUserPlugins(
    userId,
    { size: PAGE_SIZE, family: [...PRODUCT_FAMILIES] },
    { signal },
  );
  const items: Entry[] = [];
  for await (const page of api.pages(first, { signal })) items.push(...page.data);
  return items;
}

/**
 * The order of the user's items on their pages (PUT /api/plugins/order, every id, first first): each moves up
 * or down, then Save order sends the whole list. The author's public page and My items follow it.
 */
export function ItemOrder({
  userId,
  onSaved,
  onClose,
}: {
  userId: number;
  onSaved: () => void;
  onClose: () => void;
}) {
  const [loaded] = useLoad((signal) => allItems(userId, signal), [userId]);
  const [order, setOrder] = useState<Entry[] | undefined>(undefined);
  const { busy, run } = useSave();
  const shown = order ?? (loaded.status === 'resolved' ? loaded.data : []);

  function move(index: number, by: -1 | 1) {
    const next = [...shown];
    const [moved] = next.splice(index, 1);
    next.splice(index + by, 0, moved!);
    setOrder(next);
  }

  async function save() {
    if (await run('Order saved', () => api.setPluginOrder(shown.map((item) => item.id)))) {
      onSaved();
      onClose();
    }
  }

  return (
    <section className="site-card-block" aria-labelledby="item-order-heading">
      <h2 id="item-order-heading">Order of my items</h2>
      <p className="site-muted">The order in which your public page and this list show them, first first.</p>
      {loaded.status === 'pending' ? <p className="site-muted">Loading your items…</p> : null}
      {loaded.status === 'rejected' ? (
        <p className="site-error" role="alert">
          {errorText(loaded.error)}
        </p>
      ) : null}
      {shown.length ? (
        <ol className="site-manage-list" aria-label="Order of my items">
          {shown.map((item, index) => (
            <li key={item.id}>
              <span className="site-manage-list__name">
                {index + 1}. <strong>{item.name}</strong>{' '}
                <span className="site-muted">{itemNoun(item.family)}</span>
              </span>
              <span className="site-manage-list__actions">
                <button
                  type="button"
                  className="site-button-secondary"
                  aria-label={`Move ${item.name} up`}
                  disabled={busy || index === 0}
                  onClick={() => move(index, -1)}
                >
                  Move up
                </button>
                <button
                  type="button"
                  className="site-button-secondary"
                  aria-label={`Move ${item.name} down`}
                  disabled={busy || index === shown.length - 1}
                  onClick={() => move(index, 1)}
                >
                  Move down
                </button>
              </span>
            </li>
          ))}
        </ol>
      ) : null}
      <div className="site-form-actions">
        <button
          type="button"
          className="mp-button"
          disabled={busy || loaded.status !== 'resolved' || order === undefined}
          onClick={() => void save()}
        >
          Save order
        </button>
        <button type="button" className="site-button-secondary" disabled={busy} onClick={onClose}>
          Cancel
        </button>
      </div>
    </section>
  );
}
