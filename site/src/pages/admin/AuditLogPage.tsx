import type { AuditEntry, AuditLogInput } from '@marketplace/api-client';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { RequireSignIn } from '../../components/RequireSignIn';
import { api } from '../../lib/api';
import { usePageTitle } from '../../lib/page-title';
import { useLoad } from '../../lib/use-load';
import { AdminNav } from './AdminNav';
import { adminErrorText } from './SellersSection';
import { PageButtons } from '../../components/PageButtons';

const PAGE_SIZE = 50;

/** What an entry acted on: the item (with a link to its moderation) or the subject of an admin action. */
function Target({ entry }: { entry: AuditEntry }) {
  if (entry.pluginId !== null) {
    return (
      <Link to={`/admin?plugin=${entry.pluginId}`}>
        {entry.pluginName ?? 'Item'} #{entry.pluginId}
      </Link>
    );
  }
  return <span>{entry.subject ?? '—'}</span>;
}

function AuditLog() {
  const [form, setForm] = useState({ pluginId: '', actor: '', action: '' });
  const [filter, setFilter] = useState<AuditLogInput>({});
  const [offset, setOffset] = useState(0);
  const [entries] = useLoad(
    (signal) => api.moderation.audit({ ...filter, max: PAGE_SIZE, offset }, { signal }),
    [filter, offset],
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    const pluginId = Number(form.pluginId.trim());
    setOffset(0);
    setFilter({
      ...(Number.isInteger(pluginId) && pluginId > 0 ? { pluginId } : {}),
      ...(form.actor.trim() ? { actor: form.actor.trim() } : {}),
      ...(form.action.trim() ? { action: form.action.trim() } : {}),
    });
  }

  const field = (key: keyof typeof form, label: string) => (
    <label className="site-field">
      <span>{label}</span>
      <input value={form[key]} onChange={(event) => setForm({ ...form, [key]: event.target.value })} />
    </label>
  );

  return (
    <div className="site-page site-admin">
      <h1>Audit log</h1>
      <AdminNav />
      <form className="site-admin-audit__filters" onSubmit={submit} aria-label="Filter the audit log">
        {field('pluginId', 'Item id')}
        {field('actor', 'Actor (login)')}
        {field('action', 'Action')}
        <button type="submit" className="mp-button">
          Filter
        </button>
      </form>
      {entries.status === 'pending' ? <p className="site-muted">Loading…</p> : null}
      {entries.status === 'rejected' ? <p className="site-error">{adminErrorText(entries.error)}</p> : null}
      {entries.status === 'resolved' ? (
        <>
          <p className="site-muted">
            {entries.data.totalCount ?? entries.data.data.length} entries, newest first
          </p>
          <table className="site-table site-admin-audit">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Action</th>
                <th scope="col">On</th>
                <th scope="col">Reason</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {entries.data.data.map((entry) => (
                <tr key={entry.id}>
                  <td>{new Date(entry.date).toLocaleString()}</td>
                  <td>
                    {entry.actorLogin ??
                      (entry.actorId === null ? 'Command line / system' : `#${entry.actorId}`)}
                  </td>
                  <td>
                    <code>{entry.action}</code>
                  </td>
                  <td>
                    <Target entry={entry} />
                  </td>
                  <td>{entry.reason ?? ''}</td>
                  <td>
                    <details>
                      <summary>Show</summary>
                      <pre className="site-admin-audit__details">
                        {JSON.stringify(entry.details, null, 2)}
                      </pre>
                    </details>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <PageButtons
            hasPrevious={Boolean(entries.data.links.prev)}
            hasNext={Boolean(entries.data.links.next)}
            onPrevious={() => setOffset(Math.max(0, offset - PAGE_SIZE))}
            onNext={() => setOffset(offset + PAGE_SIZE)}
            labels={['Newer', 'Older']}
          />
        </>
      ) : null}
    </div>
  );
}

export default function AuditLogPage() {
  usePageTitle('Audit log');
  return <RequireSignIn>{() => <AuditLog />}</RequireSignIn>;
}
