import type {
  UpdateVerification,
  Verification,
  VerificationComparison,
  VerificationSummary,
} from '@marketplace/api-client';
import {
  formatDisplayDate,
  VERIFICATION_STATUS_LABELS,
  VERIFICATION_TYPE_LABELS,
  type VerificationStatus,
} from '@marketplace/core';
import { useToasts } from '@marketplace/ui';
import { useId, useState } from 'react';
import { api } from '../../lib/api';
import { errorText } from '../../lib/errors';
import { useLoad } from '../../lib/use-load';
import { useManagement } from '../plugin/use-management';

const STATUS_BADGE: Readonly<Record<VerificationStatus, string>> = {
  compatible: 'site-badge site-badge--success',
  warnings: 'site-badge site-badge--warning',
  problems: 'site-badge site-badge--danger',
};

export function VerificationStatusBadge({ status }: { status: VerificationStatus }) {
  return <span className={STATUS_BADGE[status]}>{VERIFICATION_STATUS_LABELS[status]}</span>;
}

type Finding = Verification['findings'][number];

function FindingItem({ finding, onChanged }: { finding: Finding; onChanged: () => void }) {
  const toasts = useToasts();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');
  const marked = finding.falsePositive;

  async function act(run: () => Promise<unknown>, done: string) {
    setBusy(true);
    setFailure('');
    try {
      await run();
      toasts?.show({ kind: 'success', title: done });
      onChanged();
    } catch (error) {
      setFailure(errorText(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <li
      className={`site-verification__finding site-verification__finding--${finding.severity}${marked ? ' is-false-positive' : ''}`}
    >
      <span
        className={
          finding.severity === 'problem' ? 'site-badge site-badge--danger' : 'site-badge site-badge--warning'
        }
      >
        {finding.severity === 'problem' ? 'Problem' : 'Warning'}
      </span>
      <span className="site-badge">{VERIFICATION_TYPE_LABELS[finding.type]}</span>
      {marked ? (
        <span className="site-badge">False positive{marked.scope === 'global' ? ' (every item)' : ''}</span>
      ) : null}
      <p>{finding.message}</p>
      <p className="site-muted">{finding.builds.length === 0 ? 'Every build' : finding.builds.join(', ')}</p>
      <div className="site-form-actions">
        {marked === null ? (
          <button
            type="button"
            className="site-button-secondary"
            disabled={busy}
            onClick={() =>
              act(
                () => api.verification.markFalsePositive({ problemId: finding.id }),
                'Marked a false positive',
              )
            }
          >
            Mark false positive
          </button>
        ) : marked.scope === 'plugin' ? (
          <button
            type="button"
            className="site-button-secondary"
            disabled={busy}
            onClick={() =>
              act(() => api.verification.unmarkFalsePositive(marked.id), 'No longer a false positive')
            }
          >
            Not a false positive
          </button>
        ) : null}
      </div>
      {failure ? <p className="site-error">{failure}</p> : null}
    </li>
  );
}

function Comparison({ comparison }: { comparison: VerificationComparison }) {
  if (comparison.previous === null) {
    return (
      <p className="site-muted">There is no earlier verified version in this channel to compare with.</p>
    );
  }
  const list = (title: string, findings: readonly Finding[]) => (
    <>
      <h4>
        {title} ({findings.length})
      </h4>
      {findings.length > 0 ? (
        <ul>
          {findings.map((finding) => (
            <li key={finding.id}>{finding.message}</li>
          ))}
        </ul>
      ) : null}
    </>
  );
  return (
    <div className="site-verification__comparison" aria-label="Compared with the previous version">
      <p>
        Compared with version <strong>{comparison.previous.version}</strong>:{' '}
        <VerificationStatusBadge status={comparison.previous.status} /> →{' '}
        <VerificationStatusBadge status={comparison.current.status} />
      </p>
      {list('New findings', comparison.newFindings)}
      {list('Resolved findings', comparison.resolvedFindings)}
    </div>
  );
}

function VersionVerification({ updateId, onChanged }: { updateId: number; onChanged: () => void }) {
  const toasts = useToasts();
  const [answer, reload] = useLoad<UpdateVerification>(
    (signal) => api.verification.ofUpdate(updateId, undefined, { signal }),
    [updateId],
  );
  const [comparison, setComparison] = useState<VerificationComparison | undefined>();
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const changed = () => {
    reload();
    onChanged();
  };

  async function act(run: () => Promise<unknown>, done: string) {
    setBusy(true);
    setFailure('');
    try {
      await run();
      toasts?.show({ kind: 'success', title: done });
      changed();
    } catch (error) {
      setFailure(errorText(error));
    } finally {
      setBusy(false);
    }
  }

  if (answer.status === 'pending') return <p className="site-muted">Loading the verification…</p>;
  if (answer.status === 'rejected') return <p className="site-error">{errorText(answer.error)}</p>;
  const { job, verification } = answer.data;
  const waiting = job !== null && (job.state === 'queued' || job.state === 'running');
  return (
    <div className="site-verification__detail">
      {job ? (
        <p className="site-muted">
          {job.state === 'queued' ? 'Waiting to be verified.' : null}
          {job.state === 'running' ? 'Being verified now.' : null}
          {job.state === 'failed' ? `The verification failed: ${job.lastError ?? 'unknown reason'}` : null}
          {job.state === 'done' && job.finished ? `Verified on ${formatDisplayDate(job.finished)}.` : null}
        </p>
      ) : null}
      {verification ? (
        <>
          <table className="site-table">
            <caption>Result per IDE build</caption>
            <thead>
              <tr>
                <th scope="col">Build</th>
                <th scope="col">Java</th>
                <th scope="col">Status</th>
                <th scope="col" className="site-number">
                  Problems
                </th>
                <th scope="col" className="site-number">
                  Warnings
                </th>
              </tr>
            </thead>
            <tbody>
              {verification.results.map((result) => (
                <tr key={result.productBuild}>
                  <td>
                    {result.productName} {result.release}{' '}
                    <span className="site-muted">{result.productBuild}</span>
                  </td>
                  <td>{result.javaLevel || '—'}</td>
                  <td>
                    <VerificationStatusBadge status={result.status} />
                  </td>
                  <td className="site-number">{result.problems}</td>
                  <td className="site-number">{result.warnings}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {verification.findings.length === 0 ? (
            <p className="site-muted">Nothing found.</p>
          ) : (
            <ul className="site-verification__findings" aria-label="Findings">
              {verification.findings.map((finding) => (
                <FindingItem key={finding.id} finding={finding} onChanged={changed} />
              ))}
            </ul>
          )}
          {comparison && comparison.current.id === verification.id ? (
            <Comparison comparison={comparison} />
          ) : null}
        </>
      ) : waiting ? null : (
        <p className="site-muted">This version has no verification yet.</p>
      )}
      <div className="site-form-actions">
        {verification ? (
          <button
            type="button"
            className="site-button-secondary"
            disabled={busy}
            onClick={() =>
              act(
                async () => setComparison(await api.verification.compareWithPrevious(verification.id)),
                'Compared',
              )
            }
          >
            Compare with previous
          </button>
        ) : null}
        <button
          type="button"
          className="site-button-secondary"
          disabled={busy || waiting}
          onClick={() => act(() => api.verification.requestVerification(updateId), 'Queued for verification')}
        >
          Verify again
        </button>
        {verification ? (
          <button
            type="button"
            className="site-button-secondary"
            disabled={busy}
            onClick={() => act(() => api.verification.discard(verification.id), 'Verification discarded')}
          >
            Discard result
          </button>
        ) : null}
      </div>
      {failure ? <p className="site-error">{failure}</p> : null}
    </div>
  );
}

/**
 * The verification of every version of a plugin against the IDE builds it claims: a line per version,
 * opened to show the status per build, the findings (to be marked false positives), a comparison with
 * the version before, and actions. For the item's people and administrators (the server refuses others).
 */
export function PluginVerification({ pluginId }: { pluginId: number }) {
  const headingId = useId();
  const [list, reload] = useLoad<VerificationSummary[]>(
    (signal) => api.verification.ofPlugin(pluginId, { signal }),
    [pluginId],
  );
  const [open, setOpen] = useState<number | undefined>();
  return (
    <section className="site-card-block site-verification" aria-labelledby={headingId}>
      <h2 id={headingId}>Verification</h2>
      <p className="site-muted">
        Every uploaded version is checked against the newest build of each IDE release it claims: its
        plugin.xml, dependencies, bytecode level, installation without restart and archive contents.
      </p>
      {list.status === 'pending' ? <p className="site-muted">Loading…</p> : null}
      {list.status === 'rejected' ? <p className="site-error">{errorText(list.error)}</p> : null}
      {list.status === 'resolved' && list.data.length === 0 ? (
        <p className="site-muted">No version has been verified yet.</p>
      ) : null}
      {list.status === 'resolved' && list.data.length > 0 ? (
        <ul className="site-verification__versions">
          {list.data.map((summary) => (
            <li key={summary.id}>
              <button
                type="button"
                className="site-verification__toggle"
                aria-expanded={open === summary.updateId}
                onClick={() => setOpen(open === summary.updateId ? undefined : summary.updateId)}
              >
                <strong>{summary.version}</strong>
                {summary.channel ? <span className="site-badge">{summary.channel}</span> : null}
                <VerificationStatusBadge status={summary.status} />
                <span className="site-muted">
                  {summary.problems} problems, {summary.warnings} warnings ·{' '}
                  {formatDisplayDate(summary.created)}
                </span>
              </button>
              {open === summary.updateId ? (
                <VersionVerification updateId={summary.updateId} onChanged={reload} />
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** The verification section, shown only to the item's people and administrators. */
export function VerificationForManagers({ pluginId }: { pluginId: number }) {
  const management = useManagement(pluginId);
  return management.status === 'yes' ? <PluginVerification pluginId={pluginId} /> : null;
}
