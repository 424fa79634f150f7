import {
  actOnScheduledJob,
  listScheduledJobs,
  type ScheduledJob,
  type ScheduledRun,
  type SchedulerAction,
} from '@marketplace/api-client';
import { useToasts } from '@marketplace/ui';
import { useEffect, useState } from 'react';
import { RequireSignIn } from '../../components/RequireSignIn';
import { api } from '../../lib/api';
import { showErrorToast } from '../../lib/errors';
import { usePageTitle } from '../../lib/page-title';
import { useLoad } from '../../lib/use-load';
import { AdminNav } from './AdminNav';
import { adminErrorText } from './SellersSection';

/** How often the table is read again while the page is open (runs start and end on their own). */
const REFRESH_MS = 10_000;

const STATE_LABELS: Record<ScheduledJob['state'], string> = {
  waiting: 'Scheduled',
  running: 'Running',
  paused: 'Paused',
  'on-demand': 'On demand',
};

const OUTCOME_LABELS: Record<ScheduledRun['outcome'], string> = {
  running: 'Running',
  succeeded: 'Succeeded',
  failed: 'Failed',
  interrupted: 'Interrupted',
};

const OUTCOME_BADGES: Record<ScheduledRun['outcome'], string> = {
  running: 'site-badge',
  succeeded: 'site-badge site-badge--success',
  failed: 'site-badge site-badge--danger',
  interrupted: 'site-badge site-badge--warning',
};

/** An instant as `2026-01-31 14:05:09 UTC`: the same for every administrator, wherever they are. */
function instant(ms: number | null): string {
  return ms === null ? '—' : `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

function duration(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

function every(seconds: number | null): string {
  if (seconds === null) return 'only when run now';
  if (seconds % 3600 === 0) return `every ${seconds / 3600} h`;
  if (seconds % 60 === 0) return `every ${seconds / 60} min`;
  return `every ${seconds} s`;
}

function Outcome({ run }: { run: ScheduledRun | null }) {
  if (!run) return <span className="site-muted">Never run</span>;
  return (
    <>
      <span className={OUTCOME_BADGES[run.outcome]}>{OUTCOME_LABELS[run.outcome]}</span>
      {run.summary ? <span className="site-scheduler__text"> {run.summary}</span> : null}
      {run.error ? <span className="site-scheduler__text site-error"> {run.error}</span> : null}
    </>
  );
}

function JobRow({ job, onChanged }: { job: ScheduledJob; onChanged: (job: ScheduledJob) => void }) {
  const toasts = useToasts();
  const [busy, setBusy] = useState<SchedulerAction | undefined>(undefined);
  const [message, setMessage] = useState('');

  async function act(action: SchedulerAction) {
    setBusy(action);
    setMessage(action === 'run' ? 'Running…' : '');
    try {
      const after = await actOnScheduledJob(api, job.id, action);
      onChanged(after);
      if (action === 'run') {
        const run = after.lastRun;
        const outcome = run ? OUTCOME_LABELS[run.outcome] : 'Done';
        const text = `${job.title}: ${outcome.toLowerCase()}${run?.error ? ` (${run.error})` : ''}`;
        setMessage(`Run now: ${outcome.toLowerCase()} in ${duration(run?.durationMs ?? null)}`);
        toasts?.show({ kind: run?.outcome === 'failed' ? 'error' : 'success', title: text });
      } else {
        setMessage(action === 'pause' ? 'Paused.' : 'Resumed.');
      }
    } catch (error) {
      setMessage(adminErrorText(error));
      showErrorToast(toasts, error, adminErrorText);
    } finally {
      setBusy(undefined);
    }
  }

  const run = job.currentRun ?? job.lastRun;
  return (
    <tr data-job={job.id}>
      <th scope="row">
        {job.title}
        <span className="site-scheduler__text site-muted">
          {job.description} ({every(job.intervalSeconds)}
          {job.setting ? `, ${job.setting}` : ''})
        </span>
      </th>
      <td>
        <span
          className={`site-badge${job.state === 'paused' ? ' site-badge--warning' : job.state === 'running' ? ' site-badge--success' : ''}`}
        >
          {STATE_LABELS[job.state]}
        </span>
      </td>
      <td>{instant(run?.started ?? null)}</td>
      <td>{duration(job.currentRun ? null : (job.lastRun?.durationMs ?? null))}</td>
      <td>
        <Outcome run={run} />
      </td>
      <td>{instant(job.nextRun)}</td>
      <td>
        <div className="site-scheduler__actions">
          <button
            type="button"
            className="site-button-secondary"
            disabled={busy !== undefined || job.state === 'running'}
            aria-label={`Run ${job.title} now`}
            onClick={() => void act('run')}
          >
            {busy === 'run' ? 'Running…' : 'Run now'}
          </button>
          {job.paused ? (
            <button
              type="button"
              className="site-button-secondary"
              disabled={busy !== undefined}
              aria-label={`Resume ${job.title}`}
              onClick={() => void act('resume')}
            >
              Resume
            </button>
          ) : (
            <button
              type="button"
              className="site-button-secondary"
              disabled={busy !== undefined}
              aria-label={`Pause ${job.title}`}
              onClick={() => void act('pause')}
            >
              Pause
            </button>
          )}
        </div>
        <span role="status" className="site-scheduler__text">
          {message}
        </span>
      </td>
    </tr>
  );
}

function Scheduler() {
  const [loaded, reload] = useLoad((signal) => listScheduledJobs(api, { signal }), []);
  const [jobs, setJobs] = useState<ScheduledJob[] | undefined>(undefined);
  useEffect(() => {
    if (loaded.status === 'resolved') setJobs(loaded.data);
  }, [loaded]);
  useEffect(() => {
    const timer = setInterval(reload, REFRESH_MS);
    return () => clearInterval(timer);
  }, []);

  const replace = (changed: ScheduledJob) =>
    setJobs((current) => current?.map((job) => (job.id === changed.id ? changed : job)));

  return (
    <div className="site-page site-admin">
      <h1>Scheduler</h1>
      <AdminNav />
      <p className="site-muted">
        Recurring jobs. One server at a time runs each; a run whose server stopped is taken up again by
        another. Paused jobs run only when run now.
      </p>
      {loaded.status === 'rejected' ? <p className="site-error">{adminErrorText(loaded.error)}</p> : null}
      {jobs === undefined && loaded.status === 'pending' ? <p className="site-muted">Loading…</p> : null}
      {jobs ? (
        <table className="site-table site-scheduler" aria-label="Recurring jobs">
          <thead>
            <tr>
              <th scope="col">Job</th>
              <th scope="col">State</th>
              <th scope="col">Last run</th>
              <th scope="col">Duration</th>
              <th scope="col">Outcome</th>
              <th scope="col">Next run</th>
              <th scope="col">
                <span className="mp-visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {jobs.map((job) => (
              <JobRow key={job.id} job={job} onChanged={replace} />
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

export default function SchedulerPage() {
  usePageTitle('Scheduler');
  return <RequireSignIn>{() => <Scheduler />}</RequireSignIn>;
}
