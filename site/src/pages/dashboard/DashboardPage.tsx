import { itemNoun, PRODUCT_FAMILIES, USER_PLUGINS_PAGE_SIZE } from '@marketplace/core';
import { useState } from 'react';
import { Link } from 'react-router';
import type { SignedInUser } from '../../auth/AuthProvider';
import { ItemGrid } from '../../components/ItemGrid';
import { RequireSignIn } from '../../components/RequireSignIn';
import { api } from '../../lib/api';
import { errorText } from '../../lib/errors';
import { usePageTitle } from '../../lib/page-title';
import { useLoad } from '../../lib/use-load';
import { ItemOrder } from './ItemOrder';
import { StatusBadge } from './PluginStatus';

function MyItems({ user }: { user: SignedInUser }) {
  const [page, setPage] = useState(1);
  const [ordering, setOrdering] = useState(false);
  // Every family, courses too: the route's default (spec §7) leaves edu out, but these are the developer's own.
  const [items, reload] = useLoad(
    (signal) =>
      api.getUserPlugins(
        user.id,
        { page, size: USER_PLUGINS_PAGE_SIZE, family: [...PRODUCT_FAMILIES] },
        { signal },
      ),
    [user.id, page],
  );
  return (
    <div className="site-page">
      <div className="site-results__head">
        <h1>My items</h1>
        <div className="site-form-actions">
          {items.status === 'resolved' && items.data.data.length > 1 && !ordering ? (
            <button type="button" className="site-button-secondary" onClick={() => setOrdering(true)}>
              Change the order
            </button>
          ) : null}
          <Link className="site-button-secondary" to="/dashboard/tokens">
            API tokens
          </Link>
          <Link className="site-button-secondary" to="/dashboard/namespaces">
            Id prefixes
          </Link>
          <Link className="mp-button" to="/dashboard/new">
            Add a new item
          </Link>
        </div>
      </div>
      {ordering ? (
        <ItemOrder
          userId={user.id}
          onSaved={() => {
            setPage(1);
            reload();
          }}
          onClose={() => setOrdering(false)}
        />
      ) : null}
      {items.status === 'rejected' ? <p className="site-error">{errorText(items.error)}</p> : null}
      {items.status === 'pending' ? <p className="site-muted">Loading your items…</p> : null}
      {items.status === 'resolved' && items.data.data.length === 0 ? (
        <div className="site-empty">
          <p>You have not published anything yet.</p>
          <Link className="mp-button" to="/dashboard/new">
            Upload your first item
          </Link>
        </div>
      ) : null}
      {items.status === 'resolved' && items.data.data.length ? (
        <ItemGrid
          label="My items"
          items={items.data.data}
          actions={(item) => (
            <>
              <span className="site-muted">{itemNoun(item.family, { capitalised: true })}</span>
              {item.lifecycle ? <StatusBadge lifecycle={item.lifecycle} /> : null}
              <Link to={`/dashboard/plugin/${item.id}`} aria-label={`Manage ${item.name}`}>
                Manage
              </Link>
              <Link to={`/dashboard/plugin/${item.id}/selling`} aria-label={`Selling ${item.name}`}>
                Selling
              </Link>
              <span className="site-muted">{item.xmlId}</span>
            </>
          )}
        />
      ) : null}
      {items.status === 'resolved' && (page > 1 || items.data.links.next) ? (
        <nav className="site-pagination" aria-label="Pages">
          <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </button>
          <button type="button" disabled={!items.data.links.next} onClick={() => setPage(page + 1)}>
            Next
          </button>
        </nav>
      ) : null}
    </div>
  );
}

export default function DashboardPage() {
  usePageTitle('My items');
  return <RequireSignIn>{(user) => <MyItems user={user} />}</RequireSignIn>;
}
