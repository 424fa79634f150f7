import type { AdminUser, UserAction, UserRoleFilter } from '@marketplace/api-client';
import { formatDisplayDate } from '@marketplace/core';
import { useToasts } from '@marketplace/ui';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useAuth } from '../../auth/AuthProvider';
import { RequireSignIn } from '../../components/RequireSignIn';
import { api } from '../../lib/api';
import { errorText } from '../../lib/errors';
import { usePageTitle } from '../../lib/page-title';
import { useLoad } from '../../lib/use-load';
import { AdminNav } from './AdminNav';
import { adminErrorText } from './SellersSection';
import { PageButtons } from '../../components/PageButtons';

const PAGE_SIZE = 20;

const FILTERS: readonly (readonly [UserRoleFilter, string])[] = [
  ['all', 'Everyone'],
  ['admin', 'Administrators'],
  ['banned', 'Banned'],
];

/** One user's row: roles, ban state with its reason, and the actions that apply (never on oneself). */
function UserRow({ user, self, onChanged }: { user: AdminUser; self: boolean; onChanged: () => void }) {
  const toasts = useToasts();
  const [banning, setBanning] = useState(false);
  const [reason, setReason] = useState('');
  const [failure, setFailure] = useState('');

  async function act(action: UserAction, actionReason?: string) {
    setFailure('');
    try {
      await api.users.act(user.id, action, actionReason);
      toasts?.show({ kind: 'success', title: `${user.login}: done` });
      setBanning(false);
      setReason('');
      onChanged();
    } catch (error) {
      setFailure(errorText(error));
    }
  }

  function ban(event: FormEvent) {
    event.preventDefault();
    if (!reason.trim()) return setFailure('Say why the user is banned: the reason is required.');
    void act('ban', reason.trim());
  }

  return (
    <tr aria-label={`User ${user.login}`}>
      <td>
        <Link to={`/author/${user.id}`}>{user.login}</Link>
        <div className="site-muted">{user.name}</div>
      </td>
      <td>{user.email ?? '—'}</td>
      <td>
        {user.isAdmin ? <span className="site-badge">Administrator</span> : 'Developer'}
        {user.banned ? (
          <div>
            <span className="site-badge site-badge--danger">Banned</span>{' '}
            <span className="site-admin-users__reason">{user.banReason}</span>
            {user.bannedAt ? <span className="site-muted"> · {formatDisplayDate(user.bannedAt)}</span> : null}
          </div>
        ) : null}
      </td>
      <td className="site-number">{user.itemCount}</td>
      <td>{formatDisplayDate(user.cdate)}</td>
      <td>
        {self ? (
          <span className="site-muted">You</span>
        ) : (
          <div className="site-admin-users__actions">
            {user.banned ? (
              <button type="button" className="site-button-secondary" onClick={() => void act('unban')}>
                Unban
              </button>
            ) : banning ? (
              <form className="site-inline-form" onSubmit={ban} aria-label={`Ban ${user.login}`}>
                <label className="mp-visually-hidden" htmlFor={`ban-reason-${user.id}`}>
                  Reason for banning {user.login}
                </label>
                <input
                  id={`ban-reason-${user.id}`}
                  value={reason}
                  maxLength={2000}
                  placeholder="Reason (required)"
                  onChange={(event) => setReason(event.target.value)}
                />
                <button type="submit" className="site-button-danger">
                  Confirm ban
                </button>
                <button type="button" className="site-button-secondary" onClick={() => setBanning(false)}>
                  Cancel
                </button>
              </form>
            ) : (
              <button type="button" className="site-button-danger" onClick={() => setBanning(true)}>
                Ban
              </button>
            )}
            <button
              type="button"
              className="site-button-secondary"
              onClick={() => void act(user.isAdmin ? 'revoke-admin' : 'grant-admin')}
            >
              {user.isAdmin ? 'Revoke administrator' : 'Make administrator'}
            </button>
          </div>
        )}
        {failure ? (
          <p className="site-error" role="alert">
            {failure}
          </p>
        ) : null}
      </td>
    </tr>
  );
}

function Users() {
  const { user: me } = useAuth();
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<UserRoleFilter>('all');
  const [page, setPage] = useState(1);
  const [users, reload] = useLoad(
    (signal) => api.users.list({ search, filter, page, size: PAGE_SIZE }, { signal }),
    [search, filter, page],
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    setPage(1);
    setSearch(searchText.trim());
  }

  const lastPage = users.status === 'resolved' ? Math.max(1, Math.ceil(users.data.total / PAGE_SIZE)) : 1;
  return (
    <div className="site-page site-admin">
      <h1>Users</h1>
      <AdminNav />
      <form className="site-inline-form" onSubmit={submit} role="search">
        <label htmlFor="user-search">Login, name or email</label>
        <input id="user-search" value={searchText} onChange={(event) => setSearchText(event.target.value)} />
        <label htmlFor="user-filter" className="mp-visually-hidden">
          Show
        </label>
        <select
          id="user-filter"
          value={filter}
          onChange={(event) => {
            setPage(1);
            setFilter(event.target.value as UserRoleFilter);
          }}
        >
          {FILTERS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <button type="submit" className="mp-button">
          Search
        </button>
      </form>
      {users.status === 'pending' ? <p className="site-muted">Loading…</p> : null}
      {users.status === 'rejected' ? <p className="site-error">{adminErrorText(users.error)}</p> : null}
      {users.status === 'resolved' ? (
        <>
          <p className="site-muted">{users.data.total} users</p>
          <table className="site-table site-admin-users">
            <thead>
              <tr>
                <th scope="col">User</th>
                <th scope="col">Email</th>
                <th scope="col">Roles</th>
                <th scope="col">Items</th>
                <th scope="col">Since</th>
                <th scope="col">
                  <span className="mp-visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.data.data.map((user) => (
                <UserRow key={user.id} user={user} self={me?.id === user.id} onChanged={reload} />
              ))}
            </tbody>
          </table>
          <PageButtons
            hasPrevious={page > 1}
            hasNext={page < lastPage}
            onPrevious={() => setPage(page - 1)}
            onNext={() => setPage(page + 1)}
          >
            <span className="site-muted">
              Page {page} of {lastPage}
            </span>
          </PageButtons>
        </>
      ) : null}
    </div>
  );
}

export default function UsersPage() {
  usePageTitle('Users');
  return <RequireSignIn>{() => <Users />}</RequireSignIn>;
}
