import type { AdminReport, ReportState } from '@marketplace/api-client';
import { formatDisplayDate } from '@marketplace/core';
import { useToasts } from '@marketplace/ui';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { RequireSignIn } from '../../components/RequireSignIn';
import { api } from '../../lib/api';
import { errorText } from '../../lib/errors';
import { usePageTitle } from '../../lib/page-title';
import { useLoad } from '../../lib/use-load';
import { AdminNav } from './AdminNav';
import { adminErrorText } from './SellersSection';
import { PageButtons } from '../../components/PageButtons';

const PAGE_SIZE = 20;

const STATES: readonly (readonly [ReportState, string])[] = [
  ['open', 'Open'],
  ['resolved', 'Resolved'],
  ['all', 'All'],
];

/** One report: what it is about, who sent it, and the resolve form (a note is required). */
function Report({ report, onResolved }: { report: AdminReport; onResolved: () => void }) {
  const toasts = useToasts();
  const [note, setNote] = useState('');
  const [failure, setFailure] = useState('');

  async function resolve(event: FormEvent) {
    event.preventDefault();
    if (!note.trim()) return setFailure('Say how the report was resolved.');
    try {
      await api.moderation.resolveReport(report.id, note.trim());
      toasts?.show({ kind: 'success', title: 'Report resolved' });
      onResolved();
    } catch (error) {
      setFailure(errorText(error));
    }
  }

  return (
    <li className="site-admin-report" aria-label={`Report ${report.id}: ${report.reason}`}>
      <p>
        <strong>{report.reason}</strong>{' '}
        {report.reviewId !== null ? (
          <span className="site-badge">Review</span>
        ) : (
          <span className="site-badge">Item</span>
        )}{' '}
        <Link to={`/admin?plugin=${report.pluginId}`}>{report.pluginName}</Link>{' '}
        <span className="site-muted">
          #{report.pluginId} · {formatDisplayDate(report.cdate)} · by {report.reporterLogin ?? 'a visitor'}
        </span>
      </p>
      {report.message ? <p>{report.message}</p> : null}
      {report.reviewText !== null ? (
        <blockquote className="site-review__reply">
          {report.reviewText || '(a rating without text)'}
        </blockquote>
      ) : null}
      {report.resolved ? (
        <p className="site-callout site-callout--success">
          Resolved {report.resolvedAt ? formatDisplayDate(report.resolvedAt) : ''}: {report.resolution}
        </p>
      ) : (
        <form className="site-inline-form" onSubmit={resolve} aria-label={`Resolve report ${report.id}`}>
          <label className="mp-visually-hidden" htmlFor={`resolution-${report.id}`}>
            What was done
          </label>
          <input
            id={`resolution-${report.id}`}
            value={note}
            maxLength={5000}
            placeholder="What was done (required)"
            onChange={(event) => setNote(event.target.value)}
          />
          <button type="submit" className="mp-button">
            Resolve
          </button>
        </form>
      )}
      {failure ? (
        <p className="site-error" role="alert">
          {failure}
        </p>
      ) : null}
    </li>
  );
}

function Reports() {
  const [state, setState] = useState<ReportState>('open');
  const [offset, setOffset] = useState(0);
  const [reports, reload] = useLoad(
    (signal) => api.moderation.reports({ state, max: PAGE_SIZE, offset }, { signal }),
    [state, offset],
  );
  return (
    <div className="site-page site-admin">
      <h1>Reports</h1>
      <AdminNav />
      <p className="site-muted">
        What visitors reported about items and reviews. Resolve each with what was done.
      </p>
      <div className="site-inline-form">
        <label htmlFor="report-state">Show</label>
        <select
          id="report-state"
          value={state}
          onChange={(event) => {
            setOffset(0);
            setState(event.target.value as ReportState);
          }}
        >
          {STATES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {reports.status === 'pending' ? <p className="site-muted">Loading…</p> : null}
      {reports.status === 'rejected' ? <p className="site-error">{adminErrorText(reports.error)}</p> : null}
      {reports.status === 'resolved' ? (
        <>
          {reports.data.data.length === 0 ? <p className="site-muted">No reports.</p> : null}
          <ul className="site-admin-reports">
            {reports.data.data.map((report) => (
              <Report key={report.id} report={report} onResolved={reload} />
            ))}
          </ul>
          <PageButtons
            hasPrevious={Boolean(reports.data.links.prev)}
            hasNext={Boolean(reports.data.links.next)}
            onPrevious={() => setOffset(Math.max(0, offset - PAGE_SIZE))}
            onNext={() => setOffset(offset + PAGE_SIZE)}
          />
        </>
      ) : null}
    </div>
  );
}

export default function ReportsPage() {
  usePageTitle('Reports');
  return <RequireSignIn>{() => <Reports />}</RequireSignIn>;
}
