import type { ScanAction, ScanFinding, ScanQueueEntry, ScanQueueFilter } from '@marketplace/api-client';
import { formatDisplayDate } from '@marketplace/core';
import { useToasts } from '@marketplace/ui';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { PageButtons } from '../../components/PageButtons';
import { api } from '../../lib/api';
import { showErrorToast } from '../../lib/errors';
import { useLoad } from '../../lib/use-load';
import { adminErrorText } from './SellersSection';
import { StateFilter } from '../../components/StateFilter';

const FILTERS: readonly (readonly [ScanQueueFilter, string])[] = [
  ['quarantined', 'Quarantined'],
  ['pending', 'Waiting'],
  ['passed', 'Passed with findings'],
  ['released', 'Released'],
  ['rejected', 'Rejected'],
];

const STATE_WORDS: Record<ScanQueueEntry['state'], string> = {
  unscanned: 'Not scanned',
  pending: 'Waiting for its scan',
  passed: 'Passed',
  quarantined: 'Quarantined',
  released: 'Released',
  rejected: 'Rejected',
};

const DONE: Record<ScanAction, string> = {
  release: 'released: it is offered again',
  reject: 'rejected',
  rescan: 'queued for a new scan',
};

const ACTIONS: Record<ScanAction, { label: string; className: string }> = {
  release: { label: 'Release', className: 'mp-button' },
  reject: { label: 'Reject', className: 'site-button-danger' },
  rescan: { label: 'Scan again', className: 'site-button-secondary' },
};

const PAGE_SIZE = 20;

function FindingList({ findings }: { findings: readonly ScanFinding[] }) {
  if (findings.length === 0) return <p className="site-muted">Nothing found.</p>;
  return (
    <ul className="site-scan-findings">
      {findings.map((finding, index) => (
        <li key={index}>
          <strong>{finding.severity}</strong> <code>{finding.path}</code> {finding.message}
        </li>
      ))}
    </ul>
  );
}

function ScanRow({ entry, onChanged }: { entry: ScanQueueEntry; onChanged: () => void }) {
  const toasts = useToasts();
  const reasonId = useId();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const label = `${entry.version} of ${entry.plugin.name}`;

  async function act(action: ScanAction) {
    setBusy(true);
    try {
      await api.scanning.act(entry.versionId, action, reason.trim() || undefined);
      toasts?.show({ kind: 'success', title: `Version ${label} is ${DONE[action]}.` });
      onChanged();
    } catch (error) {
      showErrorToast(toasts, error, adminErrorText);
    } finally {
      setBusy(false);
    }
  }

  const decisions: ScanAction[] = entry.state === 'quarantined' ? ['release', 'reject'] : ['rescan'];
  return (
    <tr>
      <td>
        <Link to={`/plugin/${entry.plugin.id}`}>{entry.plugin.name}</Link>
        <div className="site-muted">
          <code>{entry.plugin.xmlId}</code>
          {entry.plugin.vendor ? ` · ${entry.plugin.vendor}` : ''}
        </div>
      </td>
      <td>
        {entry.version}
        {entry.channel ? <span className="site-muted"> ({entry.channel})</span> : null}
        <div className="site-muted">Uploaded {formatDisplayDate(entry.uploaded)}</div>
      </td>
      <td>
        {STATE_WORDS[entry.state]}
        {entry.scan?.decision ? (
          <div className="site-muted">
            {entry.scan.decision.action === 'release' ? 'Released' : 'Rejected'}
            {entry.scan.decision.by ? ` by ${entry.scan.decision.by}` : ''}
            {entry.scan.decision.reason ? `: ${entry.scan.decision.reason}` : ''}
          </div>
        ) : null}
        {entry.job && entry.job.state !== 'done' ? (
          <div className="site-muted">
            Job {entry.job.state} ({entry.job.attempts} of {entry.job.maxAttempts} attempts)
            {entry.job.lastError ? <p className="site-error">{entry.job.lastError}</p> : null}
          </div>
        ) : null}
      </td>
      <td>
        {entry.scan ? (
          <>
            <FindingList findings={entry.scan.findings} />
            <div className="site-muted">
              {entry.scan.entriesScanned} files scanned with {entry.scan.engines.join(', ')},{' '}
              {formatDisplayDate(entry.scan.scannedAt)}
            </div>
          </>
        ) : (
          <p className="site-muted">Not scanned yet.</p>
        )}
      </td>
      <td>
        <label htmlFor={reasonId}>Reason (optional)</label>
        <input
          id={reasonId}
          className="site-input"
          value={reason}
          maxLength={2000}
          onChange={(event) => setReason(event.target.value)}
        />
        <div className="site-actions">
          {decisions.map((action) => (
            <button
              key={action}
              type="button"
              className={ACTIONS[action].className}
              disabled={busy}
              aria-label={`${ACTIONS[action].label} ${label}`}
              onClick={() => void act(action)}
            >
              {ACTIONS[action].label}
            </button>
          ))}
        </div>
      </td>
    </tr>
  );
}

/**
 * The administrators' view of scanning: versions held back by their scans (quarantined first), each with
 * what was found, to release (offered again) or reject (held for good); other states for a look back.
 */
export function ScanQueueSection() {
  const headingId = useId();
  const [state, setState] = useState<ScanQueueFilter>('quarantined');
  const [offset, setOffset] = useState(0);
  const [queue, reload] = useLoad(
    (signal) => api.scanning.queue({ state, max: PAGE_SIZE, offset }, { signal }),
    [state, offset],
  );
  return (
    <section className="site-section" aria-labelledby={headingId}>
      <h2 id={headingId}>Scanned versions</h2>
      <p className="site-muted">
        Every uploaded version is scanned before it is offered: known-malware hashes, secrets such as private
        keys and tokens, native code and scripts out of place, look-alike ids and names
        {queue.status === 'resolved' && queue.data.engines.includes('clamav') ? ', and ClamAV' : ''}. A
        quarantined version is offered to nobody but its developers and administrators until you release or
        reject it
        {queue.status === 'resolved'
          ? ` (findings of severity ${queue.data.quarantineSeverity} or above quarantine)`
          : ''}
        .
      </p>
      <StateFilter
        label="Scan state"
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
        queue.data.entries.length === 0 ? (
          <p className="site-muted">No versions.</p>
        ) : (
          <>
            <table className="site-table" aria-labelledby={headingId}>
              <thead>
                <tr>
                  <th scope="col">Item</th>
                  <th scope="col">Version</th>
                  <th scope="col">State</th>
                  <th scope="col">Findings</th>
                  <th scope="col">
                    <span className="mp-visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {queue.data.entries.map((entry) => (
                  <ScanRow key={`${entry.versionId}-${entry.state}`} entry={entry} onChanged={reload} />
                ))}
              </tbody>
            </table>
            <PageButtons
              hasPrevious={offset > 0}
              hasNext={offset + PAGE_SIZE < queue.data.total}
              onPrevious={() => setOffset(Math.max(0, offset - PAGE_SIZE))}
              onNext={() => setOffset(offset + PAGE_SIZE)}
            />
          </>
        )
      ) : null}
    </section>
  );
}
