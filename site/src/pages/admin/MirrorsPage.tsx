import { actOnScheduledJob, type MirrorSyncRun, type MirrorUpstream } from '@marketplace/api-client';
import { useToasts } from '@marketplace/ui';
import { useId, useState } from 'react';
import { FormFailure } from '../../components/FormFailure';
import { RequiredMark } from '../../components/RequiredMark';
import { RequireSignIn } from '../../components/RequireSignIn';
import { api } from '../../lib/api';
import { showErrorToast } from '../../lib/errors';
import { usePageTitle } from '../../lib/page-title';
import { useFormAction } from '../../lib/use-form-action';
import { useLoad } from '../../lib/use-load';
import { AdminNav } from './AdminNav';
import { adminErrorText } from './SellersSection';

/** The scheduler's job that syncs the upstreams that are due. */
const MIRROR_JOB = 'trust-mirror';

/** An instant as `2026-01-31 14:05:09 UTC`, as the scheduler page shows them. */
function instant(ms: number | null): string {
  return ms === null ? '—' : `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

function every(seconds: number): string {
  if (seconds % 86_400 === 0) return `every ${seconds / 86_400} d`;
  if (seconds % 3600 === 0) return `every ${seconds / 3600} h`;
  if (seconds % 60 === 0) return `every ${seconds / 60} min`;
  return `every ${seconds} s`;
}

/** Ids or builds typed one a line or separated by commas. */
function listOf(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function RunEntry({ run }: { run: MirrorSyncRun }) {
  return (
    <li>
      <span
        className={
          run.outcome === 'failed'
            ? 'site-badge site-badge--danger'
            : run.outcome === 'succeeded'
              ? 'site-badge site-badge--success'
              : 'site-badge'
        }
      >
        {run.outcome === 'failed' ? 'Failed' : run.outcome === 'succeeded' ? 'Succeeded' : 'Running'}
      </span>{' '}
      {instant(run.startedAt)}: imported {run.imported}, {run.present} already here
      {run.failed > 0 ? `, ${run.failed} failed` : ''}
      {run.problems.length || run.notes.length ? (
        <ul>
          {run.problems.map((problem, index) => (
            <li key={`p${index}`} className="site-error">
              {problem}
            </li>
          ))}
          {run.notes.map((note, index) => (
            <li key={`n${index}`} className="site-muted">
              {note}
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}

function UpstreamRow({ upstream, onChanged }: { upstream: MirrorUpstream; onChanged: () => void }) {
  const toasts = useToasts();
  const [busy, setBusy] = useState(false);
  const [confirmingRemoval, setConfirmingRemoval] = useState(false);

  async function act(work: () => Promise<string>) {
    setBusy(true);
    try {
      const title = await work();
      toasts?.show({ kind: 'success', title });
      onChanged();
    } catch (error) {
      showErrorToast(toasts, error, adminErrorText);
    } finally {
      setBusy(false);
    }
  }

  const syncNow = () =>
    act(async () => {
      await api.mirrors.sync(upstream.id);
      const job = await actOnScheduledJob(api, MIRROR_JOB, 'run');
      const run = job.lastRun;
      if (run?.outcome === 'failed') throw new Error(run.error ?? 'The sync failed.');
      return `${upstream.host}: ${run?.summary ?? 'synced'}`;
    });
  const setEnabled = (enabled: boolean) =>
    act(async () => {
      await api.mirrors.update(upstream.id, { enabled });
      return enabled ? `${upstream.host} is mirrored again.` : `${upstream.host} is paused.`;
    });
  const remove = () =>
    act(async () => {
      await api.mirrors.remove(upstream.id);
      return `${upstream.host} is no longer mirrored; its items stay.`;
    });

  return (
    <tr>
      <th scope="row">
        <a href={upstream.baseUrl} rel="noopener noreferrer nofollow" target="_blank">
          {upstream.host}
        </a>
        <div className="site-muted">
          {upstream.allPlugins ? 'Every plugin' : upstream.pluginIds.join(', ')} · builds{' '}
          {upstream.builds.join(', ')} · {every(upstream.intervalSeconds)}
        </div>
      </th>
      <td>
        {upstream.enabled ? (
          <span className="site-badge site-badge--success">On</span>
        ) : (
          <span className="site-badge site-badge--warning">Paused</span>
        )}
      </td>
      <td>{upstream.mirroredItems}</td>
      <td>
        {upstream.lastOutcome === null ? (
          <span className="site-muted">Not synced yet</span>
        ) : (
          <>
            <span
              className={
                upstream.lastOutcome === 'failed'
                  ? 'site-badge site-badge--danger'
                  : 'site-badge site-badge--success'
              }
            >
              {upstream.lastOutcome === 'failed' ? 'Failed' : 'Succeeded'}
            </span>{' '}
            {instant(upstream.lastSyncAt)}: {upstream.lastSummary}
            {upstream.lastError ? <div className="site-error">{upstream.lastError}</div> : null}
          </>
        )}
        {upstream.recentRuns.length ? (
          <details>
            <summary>Recent runs</summary>
            <ul>
              {upstream.recentRuns.map((run) => (
                <RunEntry key={run.id} run={run} />
              ))}
            </ul>
          </details>
        ) : null}
      </td>
      <td>{upstream.enabled ? instant(upstream.nextSyncAt) : '—'}</td>
      <td>
        <div className="site-actions">
          <button
            type="button"
            className="site-button-secondary"
            disabled={busy || !upstream.enabled}
            aria-label={`Sync ${upstream.host} now`}
            onClick={() => void syncNow()}
          >
            {busy ? 'Working…' : 'Sync now'}
          </button>
          <button
            type="button"
            className="site-button-secondary"
            disabled={busy}
            aria-label={`${upstream.enabled ? 'Pause' : 'Resume'} ${upstream.host}`}
            onClick={() => void setEnabled(!upstream.enabled)}
          >
            {upstream.enabled ? 'Pause' : 'Resume'}
          </button>
          {confirmingRemoval ? (
            <>
              <button
                type="button"
                className="site-button"
                disabled={busy}
                aria-label={`Confirm: stop mirroring ${upstream.host}`}
                onClick={() => void remove()}
              >
                Stop mirroring
              </button>
              <button
                type="button"
                className="site-button-secondary"
                onClick={() => setConfirmingRemoval(false)}
              >
                Cancel
              </button>
            </>
          ) : (
            <button
              type="button"
              className="site-button-secondary"
              disabled={busy}
              aria-label={`Remove ${upstream.host}`}
              onClick={() => setConfirmingRemoval(true)}
            >
              Remove
            </button>
          )}
        </div>
      </td>
    </tr>
  );
}

function AddUpstreamForm({ defaultBuilds, onAdded }: { defaultBuilds: string[]; onAdded: () => void }) {
  const addressId = useId();
  const pluginsId = useId();
  const buildsId = useId();
  const intervalId = useId();
  const [address, setAddress] = useState('');
  const [pluginIds, setPluginIds] = useState('');
  const [builds, setBuilds] = useState('');
  const [minutes, setMinutes] = useState('60');
  const { busy, failure, run } = useFormAction(adminErrorText);

  async function add(event: React.FormEvent) {
    event.preventDefault();
    const interval = Number(minutes);
    const added = await run(
      (upstream) => `${upstream.host} is mirrored: the next run of the mirror job syncs it.`,
      () =>
        api.mirrors.add({
          baseUrl: address.trim(),
          pluginIds: listOf(pluginIds),
          builds: listOf(builds),
          // Not a whole number of minutes: the server's sentence explains the allowed range.
          intervalSeconds: Number.isFinite(interval) ? Math.round(interval * 60) : 0,
        }),
    );
    if (!added) return;
    setAddress('');
    setPluginIds('');
    setBuilds('');
    onAdded();
  }

  return (
    <form className="site-form" aria-labelledby="add-mirror-heading" onSubmit={(event) => void add(event)}>
      <h2 id="add-mirror-heading">Mirror a marketplace</h2>
      <label htmlFor={addressId}>
        Address <RequiredMark />
      </label>
      <input
        id={addressId}
        className="site-input"
        required
        type="url"
        placeholder="https://plugins.jetbrains.com"
        value={address}
        onChange={(event) => setAddress(event.target.value)}
      />
      <label htmlFor={pluginsId}>Plugin ids (empty: every plugin)</label>
      <textarea
        id={pluginsId}
        className="site-input"
        rows={3}
        placeholder="com.example.tool, org.example.other"
        value={pluginIds}
        onChange={(event) => setPluginIds(event.target.value)}
      />
      <label htmlFor={buildsId}>IDE builds the feed is asked for</label>
      <input
        id={buildsId}
        className="site-input"
        placeholder={defaultBuilds.join(', ')}
        value={builds}
        onChange={(event) => setBuilds(event.target.value)}
      />
      <label htmlFor={intervalId}>Sync every (minutes)</label>
      <input
        id={intervalId}
        className="site-input"
        type="number"
        min={1}
        value={minutes}
        onChange={(event) => setMinutes(event.target.value)}
      />
      <FormFailure text={failure} />
      <button type="submit" className="site-button" disabled={busy}>
        Mirror it
      </button>
    </form>
  );
}

function Mirrors() {
  const [list, reload] = useLoad((signal) => api.mirrors.list({ signal }), []);
  return (
    <div className="site-page site-admin">
      <h1>Mirrors</h1>
      <AdminNav />
      <p className="site-muted">
        Copy the plugins of another marketplace that speaks the IDE&apos;s feed (the vendor&apos;s public one,
        or another instance of this one). The mirror job reads each feed when it is due, downloads new
        versions, checks their size, hash, plugin.xml and signatures, and imports them byte for byte; they are
        scanned like uploads before they are offered, and their pages say where they came from. For sites
        without a network, use <code>pnpm mp mirror export</code> and <code>import</code>.
      </p>
      {list.status === 'rejected' ? <p className="site-error">{adminErrorText(list.error)}</p> : null}
      {list.status === 'pending' ? <p className="site-muted">Loading…</p> : null}
      {list.status === 'resolved' ? (
        <>
          <section className="site-section" aria-labelledby="upstreams-heading">
            <h2 id="upstreams-heading">Mirrored marketplaces</h2>
            {list.data.upstreams.length === 0 ? (
              <p className="site-muted">No marketplace is mirrored yet.</p>
            ) : (
              <table className="site-table" aria-labelledby="upstreams-heading">
                <thead>
                  <tr>
                    <th scope="col">Marketplace</th>
                    <th scope="col">State</th>
                    <th scope="col">Items</th>
                    <th scope="col">Last sync</th>
                    <th scope="col">Next sync</th>
                    <th scope="col">
                      <span className="mp-visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.data.upstreams.map((upstream) => (
                    <UpstreamRow key={upstream.id} upstream={upstream} onChanged={reload} />
                  ))}
                </tbody>
              </table>
            )}
          </section>
          <AddUpstreamForm defaultBuilds={list.data.defaultBuilds} onAdded={reload} />
        </>
      ) : null}
    </div>
  );
}

export default function MirrorsPage() {
  usePageTitle('Mirrors');
  return <RequireSignIn>{() => <Mirrors />}</RequireSignIn>;
}
