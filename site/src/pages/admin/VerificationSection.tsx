import type { VerificationJob } from '@marketplace/api-client';
import { formatDisplayDate } from '@marketplace/core';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../lib/api';
import { useLoad } from '../../lib/use-load';
import { VerificationStatusBadge } from '../verification/VerificationPanel';
import { adminErrorText } from './SellersSection';
import { PageButtons } from '../../components/PageButtons';
import { StateFilter } from '../../components/StateFilter';

type JobState = VerificationJob['state'];

const FILTERS: readonly (readonly [JobState | '', string])[] = [
  ['', 'All'],
  ['queued', 'Waiting'],
  ['running', 'Running'],
  ['failed', 'Failed'],
  ['done', 'Done'],
];

const PAGE_SIZE = 20;

/** The administrators' view of the verification queue, and the false positives marked for every plugin. */
export function VerificationSection() {
  const headingId = useId();
  const [state, setState] = useState<JobState | ''>('');
  const [offset, setOffset] = useState(0);
  const [queue] = useLoad(
    (signal) => api.verification.queue({ ...(state ? { state } : {}), max: PAGE_SIZE, offset }, { signal }),
    [state, offset],
  );
  const [globals] = useLoad((signal) => api.verification.globalFalsePositives({ signal }), []);
  return (
    <section className="site-section site-verification" aria-labelledby={headingId}>
      <h2 id={headingId}>Verification queue</h2>
      <StateFilter
        label="Job state"
        options={FILTERS}
        value={state}
        onChange={(value) => {
          setState(value);
          setOffset(0);
        }}
      />
      {queue.status === 'rejected' ? <p className="site-error">{adminErrorText(queue.error)}</p> : null}
      {queue.status === 'pending' ? <p className="site-muted">Loading…</p> : null}
      {queue.status === 'resolved' ? (
        queue.data.jobs.length === 0 ? (
          <p className="site-muted">No jobs.</p>
        ) : (
          <table className="site-table">
            <thead>
              <tr>
                <th scope="col">Item</th>
                <th scope="col">Version</th>
                <th scope="col">Job</th>
                <th scope="col">Result</th>
                <th scope="col">Queued</th>
              </tr>
            </thead>
            <tbody>
              {queue.data.jobs.map((job) => (
                <tr key={job.id}>
                  <td>
                    <Link to={`/dashboard/plugin/${job.pluginId}`}>{job.pluginName}</Link>
                  </td>
                  <td>{job.version}</td>
                  <td>
                    {job.state} <span className="site-muted">({job.attempts} attempts)</span>
                    {job.lastError ? <p className="site-error">{job.lastError}</p> : null}
                  </td>
                  <td>
                    {job.verification ? (
                      <>
                        <VerificationStatusBadge status={job.verification.status} />{' '}
                        <span className="site-muted">
                          {job.verification.problems} problems, {job.verification.warnings} warnings
                        </span>
                      </>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td>{formatDisplayDate(job.created)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      ) : null}
      {queue.status === 'resolved' ? (
        <PageButtons
          hasPrevious={offset > 0}
          hasNext={offset + PAGE_SIZE < queue.data.total}
          onPrevious={() => setOffset(Math.max(0, offset - PAGE_SIZE))}
          onNext={() => setOffset(offset + PAGE_SIZE)}
        />
      ) : null}
      <h3>False positives for every item</h3>
      {globals.status === 'resolved' && globals.data.length === 0 ? (
        <p className="site-muted">None marked.</p>
      ) : null}
      {globals.status === 'resolved' && globals.data.length > 0 ? (
        <ul className="site-notes">
          {globals.data.map((item) => (
            <li key={item.id}>
              <span>{item.message}</span>
              <span className="site-muted">{item.fingerprint}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
