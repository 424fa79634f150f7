import type { AdminNote, ApprovalQueue, NewAdminNote, Paged } from '@marketplace/api-client';
import { familyLabel, formatDisplayDate, itemNoun } from '@marketplace/core';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { RequireSignIn } from '../../components/RequireSignIn';
import { api } from '../../lib/api';
import { errorText } from '../../lib/errors';
import { usePageTitle } from '../../lib/page-title';
import { useLoad } from '../../lib/use-load';
import { InvoicesSection } from './InvoicesSection';
import { SellersSection } from './SellersSection';
import { AdminNav } from './AdminNav';
import { VerificationSection } from './VerificationSection';
import { ModerationActions } from './ModerationActions';
import { PageButtons } from '../../components/PageButtons';

/** Entries of the approval queue shown a page. */
const QUEUE_PAGE_SIZE = 20;

/** The versions an entry waits with, e.g. "1.1.0, 2.0.0-eap [eap]" (the stable channel is unnamed). */
function pendingVersionsText(entry: ApprovalQueue[number]): string {
  return entry.pendingVersions
    .map((version) => (version.channel ? `${version.version} [${version.channel}]` : version.version))
    .join(', ');
}

async function json<T>(request: Parameters<typeof api.request>[0]): Promise<T> {
  const answer = await api.request<T>(request);
  return answer.kind === 'json' ? answer.data : (undefined as T);
}

function Moderation({ pluginId, onChanged }: { pluginId: number; onChanged: () => void }) {
  const [plugin, reload] = useLoad((signal) => api.getPlugin(pluginId, {}, { signal }), [pluginId]);
  // Spec §8: admin notes calls show no notification on failure; the list says so in place.
  const [notes, reloadNotes] = useLoad(
    (signal) => json<AdminNote[]>({ method: 'GET', path: `/api/plugins/${pluginId}/admin-notes`, signal }),
    [pluginId],
  );
  const [note, setNote] = useState('');

  async function addNote(event: FormEvent) {
    event.preventDefault();
    if (!note.trim()) return;
    await api
      .request({
        method: 'POST',
        path: `/api/plugins/${pluginId}/admin-notes`,
        json: { text: note.trim() } satisfies NewAdminNote,
      })
      .then(() => setNote(''))
      .catch((error: unknown) => console.warn('Could not add the note', error));
    reloadNotes();
  }

  async function resolve(noteId: number) {
    await api
      .request({ method: 'POST', path: `/api/plugins/${pluginId}/admin-notes/${noteId}/resolve` })
      .catch((error: unknown) => console.warn('Could not resolve the note', error));
    reloadNotes();
  }

  if (plugin.status === 'pending') return <p className="site-muted">Loading item {pluginId}…</p>;
  if (plugin.status === 'rejected') return <p className="site-error">{errorText(plugin.error)}</p>;
  const info = plugin.data.info;
  return (
    <section className="site-card-block" aria-labelledby="moderation-heading">
      <h2 id="moderation-heading">
        <Link to={info.link}>{info.name}</Link> <span className="site-muted">#{pluginId}</span>
      </h2>
      <p className="site-item__meta">
        <span className="site-badge">
          {itemNoun(info.family, { capitalised: true })} · {familyLabel(info.family, { long: true })}
        </span>
        <span className={`site-badge${info.approve ? '' : ' site-badge--warning'}`}>
          {info.approve ? 'Approved' : 'Not approved'}
        </span>
        {info.hasUnapprovedUpdate ? (
          <span className="site-badge site-badge--warning">Update waiting</span>
        ) : null}
        {info.isBlocked ? <span className="site-badge site-badge--danger">Blocked</span> : null}
        <span className="site-badge">
          {info.isModificationAllowed ? 'Changes allowed' : 'Changes disallowed'}
        </span>
      </p>
      <ModerationActions
        pluginId={pluginId}
        onChanged={() => {
          reload();
          onChanged();
        }}
      />
      <h3>Admin notes</h3>
      {notes.status === 'rejected' ? <p className="site-muted">Notes are not available.</p> : null}
      {notes.status === 'resolved' && (notes.data ?? []).length === 0 ? (
        <p className="site-muted">No notes.</p>
      ) : null}
      <ul className="site-notes">
        {notes.status === 'resolved'
          ? (notes.data ?? []).map((entry) => (
              <li key={entry.id} className={entry.resolved ? 'is-resolved' : undefined}>
                <span>{entry.text}</span>
                <span className="site-muted">{formatDisplayDate(entry.cdate)}</span>
                {entry.resolved ? (
                  <span className="site-badge">Resolved</span>
                ) : (
                  <button
                    type="button"
                    className="site-button-secondary"
                    onClick={() => void resolve(entry.id)}
                  >
                    Resolve
                  </button>
                )}
              </li>
            ))
          : null}
      </ul>
      <form className="site-inline-form" onSubmit={addNote}>
        <label htmlFor="admin-note" className="mp-visually-hidden">
          New note
        </label>
        <input
          id="admin-note"
          value={note}
          maxLength={10_000}
          placeholder="Add a note"
          onChange={(event) => setNote(event.target.value)}
        />
        <button type="submit" className="mp-button">
          Add note
        </button>
      </form>
    </section>
  );
}

function Admin() {
  // The item under moderation is in the address (?plugin=), so the reports and audit screens can link to it.
  const [params, setParams] = useSearchParams();
  const selectedText = params.get('plugin') ?? '';
  const selected = /^\d{1,10}$/.test(selectedText) ? Number(selectedText) : undefined;
  const setSelected = (id: number) => setParams({ plugin: String(id) });
  const [idText, setIdText] = useState('');
  const [queueOffset, setQueueOffset] = useState(0);
  const [queue, reloadQueue] = useLoad(
    (signal): Promise<Paged<ApprovalQueue>> =>
      api.getApprovalQueue({ max: QUEUE_PAGE_SIZE, offset: queueOffset }, { signal }),
    [queueOffset],
  );
  function open(event: FormEvent) {
    event.preventDefault();
    const id = Number(idText.trim());
    if (Number.isInteger(id) && id > 0) setSelected(id);
  }

  return (
    <div className="site-page site-admin">
      <h1>Moderation</h1>
      <AdminNav />
      <nav className="site-form-actions" aria-label="Administration sections">
        <a href="#queue-heading">Waiting for approval</a>
        <Link to="/admin/reports">Reports</Link>
        <a href="#sellers">Sellers</a>
        <a href="#invoices">Invoices</a>
      </nav>
      <form className="site-inline-form" onSubmit={open}>
        <label htmlFor="plugin-id">Item id</label>
        <input
          id="plugin-id"
          inputMode="numeric"
          value={idText}
          onChange={(event) => setIdText(event.target.value)}
        />
        <button type="submit" className="site-button-secondary">
          Open
        </button>
      </form>
      {selected !== undefined ? (
        <Moderation key={selected} pluginId={selected} onChanged={reloadQueue} />
      ) : null}
      <section className="site-section" aria-labelledby="queue-heading">
        <h2 id="queue-heading">Waiting for approval</h2>
        {queue.status === 'rejected' ? <p className="site-error">{errorText(queue.error)}</p> : null}
        {queue.status === 'pending' ? <p className="site-muted">Loading…</p> : null}
        {queue.status === 'resolved' && queue.data.data.length === 0 ? (
          <p className="site-muted">Nothing is waiting.</p>
        ) : null}
        {queue.status === 'resolved' && queue.data.data.length ? (
          <>
            <p className="site-muted">
              {queue.data.totalCount ?? queue.data.data.length} waiting, oldest first
            </p>
            <table className="site-table">
              <thead>
                <tr>
                  <th scope="col">Item</th>
                  <th scope="col">Vendor</th>
                  <th scope="col">State</th>
                  <th scope="col">Waiting since</th>
                  <th scope="col">
                    <span className="mp-visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {queue.data.data.map((entry) => (
                  <tr key={entry.id}>
                    <td>
                      <Link to={`/plugin/${entry.id}`}>{entry.name}</Link>{' '}
                      <span className="site-muted">{entry.xmlId}</span>
                    </td>
                    <td>{entry.vendor ?? '—'}</td>
                    <td>
                      {entry.kind === 'new' ? `New ${itemNoun(entry.family)}` : 'Update waiting'}
                      {entry.pendingVersions.length ? (
                        <span className="site-muted"> ({pendingVersionsText(entry)})</span>
                      ) : null}
                      {(entry.flags ?? []).map((flag, index) => (
                        <p key={index} className="site-error">
                          {flag}
                        </p>
                      ))}
                    </td>
                    <td>{formatDisplayDate(entry.waitingSince)}</td>
                    <td>
                      <button
                        type="button"
                        className="site-button-secondary"
                        onClick={() => setSelected(entry.id)}
                      >
                        Review
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <PageButtons
              hasPrevious={Boolean(queue.data.links.prev)}
              hasNext={Boolean(queue.data.links.next)}
              onPrevious={() => setQueueOffset(Math.max(0, queueOffset - QUEUE_PAGE_SIZE))}
              onNext={() => setQueueOffset(queueOffset + QUEUE_PAGE_SIZE)}
            />
          </>
        ) : null}
      </section>
      <SellersSection />
      <InvoicesSection />
      <VerificationSection />
    </div>
  );
}

export default function AdminPage() {
  usePageTitle('Moderation');
  return <RequireSignIn>{() => <Admin />}</RequireSignIn>;
}
