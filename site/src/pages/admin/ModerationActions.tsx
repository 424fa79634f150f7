import { ApiError, type AdminPluginState, type DsaStatement } from '@marketplace/api-client';
import { DSA_DECISION_GROUNDS, type DsaDecisionGround } from '@marketplace/api-contract';
import {
  adminLifecycleActions,
  formatDisplayDate,
  type BlockState,
  type LifecycleAction,
  type LifecycleState,
} from '@marketplace/core';
import { useToasts } from '@marketplace/ui';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { currentAccessToken } from '../../auth/session';
import { api } from '../../lib/api';
import { errorText, showErrorToast } from '../../lib/errors';
import { useLoad } from '../../lib/use-load';
import { adminErrorText } from './SellersSection';

/** Actions taken at once (no statement of reasons), with their button labels, in the order shown. */
const SIMPLE_ACTIONS: readonly (readonly [LifecycleAction, string])[] = [
  ['approve', 'Approve'],
  ['unapprove', 'Unapprove'],
  ['unapprove-updates', 'Unapprove updates'],
  ['restore', 'Restore'],
  ['unblock', 'Unblock'],
  ['allow-access', 'Allow access'],
  ['disallow-access', 'Disallow access'],
];

/** Actions that restrict content: each takes a DSA statement of reasons (spec §4, §7). */
type RestrictingAction = 'block' | 'partial-block' | 'delete';
const RESTRICTING_LABELS: Readonly<Record<RestrictingAction, string>> = {
  block: 'Block',
  'partial-block': 'Block versions',
  delete: 'Delete',
};

const GROUND_LABELS: Readonly<Record<DsaDecisionGround, string>> = {
  ILLEGAL_CONTENT: 'Illegal content',
  INCOMPATIBLE_WITH_TERMS: 'Against the marketplace terms',
};

const APPROVAL_LABELS: Readonly<Record<string, string>> = {
  pending: 'Waiting for approval',
  approved: 'Approved',
  rejected: 'Rejected',
  blocked: 'Blocked',
};

/**
 * The actions that apply to the item now, by core's state machine: the one the server enforces (and answers
 * as `actions`), so no button is offered that the server would refuse with a 409.
 */
export function applicableActions({ state, versions }: AdminPluginState): ReadonlySet<LifecycleAction> {
  const count = (approvalState: string) =>
    versions.filter((version) => version.approvalState === approvalState).length;
  const actions = adminLifecycleActions(
    {
      lifecycleState: state.lifecycleState as LifecycleState,
      approved: state.approved,
      blockState: state.blockState as BlockState,
      modificationAllowed: state.modificationAllowed,
      // Decides no administrator's action (only where a restored item goes back to).
      publishedAt: null,
      pendingVersions: count('pending'),
      versions: versions.length,
    },
    count('approved'),
  );
  return new Set(actions);
}

/** The admin install URL needs the administrator's token: the file is fetched and handed to the browser. */
async function downloadAsAdmin(pluginId: number, updateId: number, name: string) {
  const token = currentAccessToken();
  const url = api.url(`/api/admin/install`, { pluginId, updateId });
  const response = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!response.ok) {
    // Read like any failed call, so its notification follows spec §8 (a server fault shows no body).
    throw ApiError.fromAnswer(
      { method: 'GET', url },
      {
        status: response.status,
        statusText: response.statusText,
        bodyText: await response.text().catch(() => ''),
        contentType: response.headers.get('content-type'),
      },
    );
  }
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await response.blob());
  link.download = name;
  link.click();
  URL.revokeObjectURL(link.href);
}

/** The DSA statement of reasons form, and the versions to block for a partial block. */
function RestrictionForm({
  action,
  state,
  onDone,
  onCancel,
}: {
  action: RestrictingAction;
  state: AdminPluginState;
  onDone: () => void;
  onCancel: () => void;
}) {
  const toasts = useToasts();
  const [ground, setGround] = useState<DsaDecisionGround>('INCOMPATIBLE_WITH_TERMS');
  const [legalGround, setLegalGround] = useState('');
  const [termsGround, setTermsGround] = useState('');
  const [facts, setFacts] = useState('');
  const [automated, setAutomated] = useState(false);
  const [territorialScope, setTerritorialScope] = useState('');
  const [redress, setRedress] = useState('');
  const [versions, setVersions] = useState<readonly number[]>([]);
  const [failure, setFailure] = useState('');
  const blockable = state.versions.filter((version) => version.approvalState === 'approved');

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (action === 'partial-block' && versions.length === 0)
      return setFailure('Choose the versions to block.');
    if (!facts.trim()) return setFailure('State the facts and circumstances the decision rests on.');
    const statement: DsaStatement = {
      decisionGround: ground,
      facts: facts.trim(),
      automatedDetection: automated ? 'yes' : 'no',
      ...(legalGround.trim() ? { legalGround: legalGround.trim() } : {}),
      ...(termsGround.trim() ? { termsGround: termsGround.trim() } : {}),
      ...(territorialScope.trim() ? { territorialScope: territorialScope.trim() } : {}),
      ...(redress.trim() ? { redress: redress.trim() } : {}),
    };
    try {
      const id = state.state.id;
      if (action === 'block') await api.moderation.block(id, statement);
      else if (action === 'partial-block') await api.moderation.partialBlock(id, versions, statement);
      else await api.moderation.delete(id, statement);
      toasts?.show({ kind: 'success', title: `${RESTRICTING_LABELS[action]}: done` });
      onDone();
    } catch (error) {
      setFailure(errorText(error));
    }
  }

  return (
    <form
      className="site-form site-dsa-form"
      onSubmit={submit}
      aria-label={`${RESTRICTING_LABELS[action]} with a statement of reasons`}
    >
      <h3>{RESTRICTING_LABELS[action]}: statement of reasons</h3>
      {action === 'partial-block' ? (
        <fieldset className="site-dsa-form__versions">
          <legend>Versions to block</legend>
          {blockable.map((version) => (
            <label key={version.id}>
              <input
                type="checkbox"
                checked={versions.includes(version.id)}
                onChange={(event) =>
                  setVersions(
                    event.target.checked
                      ? [...versions, version.id]
                      : versions.filter((id) => id !== version.id),
                  )
                }
              />{' '}
              {version.version}
              {version.channel ? ` [${version.channel}]` : ''}
            </label>
          ))}
        </fieldset>
      ) : null}
      <label className="site-field">
        <span>Ground of the decision</span>
        <select value={ground} onChange={(event) => setGround(event.target.value as DsaDecisionGround)}>
          {DSA_DECISION_GROUNDS.map((value) => (
            <option key={value} value={value}>
              {GROUND_LABELS[value]}
            </option>
          ))}
        </select>
      </label>
      {ground === 'ILLEGAL_CONTENT' ? (
        <label className="site-field">
          <span>Legal ground (the law broken)</span>
          <input
            value={legalGround}
            maxLength={2000}
            onChange={(event) => setLegalGround(event.target.value)}
          />
        </label>
      ) : (
        <label className="site-field">
          <span>Terms ground (the clause broken)</span>
          <input
            value={termsGround}
            maxLength={2000}
            onChange={(event) => setTermsGround(event.target.value)}
          />
        </label>
      )}
      <label className="site-field">
        <span>Facts and circumstances</span>
        <textarea
          rows={3}
          value={facts}
          maxLength={10_000}
          onChange={(event) => setFacts(event.target.value)}
        />
      </label>
      <label>
        <input type="checkbox" checked={automated} onChange={(event) => setAutomated(event.target.checked)} />{' '}
        Detected or decided by automated means
      </label>
      <label className="site-field">
        <span>Territorial scope</span>
        <input
          value={territorialScope}
          maxLength={500}
          placeholder="Worldwide"
          onChange={(event) => setTerritorialScope(event.target.value)}
        />
      </label>
      <label className="site-field">
        <span>Redress (how the developer can contest it)</span>
        <input value={redress} maxLength={2000} onChange={(event) => setRedress(event.target.value)} />
      </label>
      {failure ? (
        <p className="site-error" role="alert">
          {failure}
        </p>
      ) : null}
      <div className="site-form-actions">
        <button type="submit" className="site-button-danger">
          Confirm {RESTRICTING_LABELS[action].toLowerCase()}
        </button>
        <button type="button" className="site-button-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/**
 * The moderation of one item: its state, only the actions that apply to it now (restricting ones with a DSA
 * statement of reasons), its versions with their states and the administrators' download, and its last upload.
 */
export function ModerationActions({ pluginId, onChanged }: { pluginId: number; onChanged: () => void }) {
  const toasts = useToasts();
  const [state, reload] = useLoad((signal) => api.moderation.state(pluginId, { signal }), [pluginId]);
  const [upload] = useLoad((signal) => api.moderation.uploadDetails(pluginId, { signal }), [pluginId]);
  const [restricting, setRestricting] = useState<RestrictingAction | undefined>(undefined);

  function changed() {
    setRestricting(undefined);
    reload();
    onChanged();
  }

  async function act(action: string, label: string) {
    try {
      await api.moderation.act(pluginId, action);
      toasts?.show({ kind: 'success', title: `${label}: done` });
      changed();
    } catch (error) {
      showErrorToast(toasts, error, adminErrorText);
    }
  }

  if (state.status === 'pending') return <p className="site-muted">Loading the item’s state…</p>;
  if (state.status === 'rejected') return <p className="site-error">{adminErrorText(state.error)}</p>;
  const data = state.data;
  const { lifecycleState, blockState } = data.state;
  const applicable = applicableActions(data);
  return (
    <div className="site-moderation">
      <p className="site-item__meta" aria-label="State">
        <span className="site-badge">{lifecycleState.replace('_', ' ')}</span>
        {blockState !== 'none' ? (
          <span className="site-badge site-badge--danger">
            {blockState === 'partial' ? 'Versions blocked' : 'Blocked'}
          </span>
        ) : null}
        <span className="site-badge">
          {data.state.listed ? 'Visible to visitors' : 'Hidden from visitors'}
        </span>
        {data.openReports > 0 ? (
          <Link to="/admin/reports">
            {data.openReports} open report{data.openReports === 1 ? '' : 's'}
          </Link>
        ) : null}
      </p>
      <div className="site-form-actions" aria-label="Moderation actions">
        {SIMPLE_ACTIONS.filter(([action]) => applicable.has(action)).map(([action, label]) => (
          <button
            key={action}
            type="button"
            className="site-button-secondary"
            onClick={() => void act(action, label)}
          >
            {label}
          </button>
        ))}
        {(['partial-block', 'block', 'delete'] as const)
          .filter((action) => applicable.has(action))
          .map((action) => (
            <button
              key={action}
              type="button"
              className="site-button-danger"
              onClick={() => setRestricting(action)}
            >
              {RESTRICTING_LABELS[action]}
            </button>
          ))}
      </div>
      {restricting ? (
        <RestrictionForm
          key={restricting}
          action={restricting}
          state={data}
          onDone={changed}
          onCancel={() => setRestricting(undefined)}
        />
      ) : null}
      <h3>Versions</h3>
      <table className="site-table">
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">State</th>
            <th scope="col">Uploaded</th>
            <th scope="col">
              <span className="mp-visually-hidden">Download</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {data.versions.map((version) => (
            <tr key={version.id} aria-label={`Version ${version.version}`}>
              <td>
                {version.version}
                {version.channel ? <span className="site-muted"> [{version.channel}]</span> : null}
              </td>
              <td>
                {APPROVAL_LABELS[version.approvalState] ?? version.approvalState}
                {version.hidden ? ' (hidden)' : ''}
              </td>
              <td>{formatDisplayDate(version.uploaded)}</td>
              <td>
                <button
                  type="button"
                  className="site-button-secondary"
                  onClick={() =>
                    void downloadAsAdmin(pluginId, version.id, `${data.xmlId}-${version.version}.zip`).catch(
                      (error: unknown) => showErrorToast(toasts, error, adminErrorText),
                    )
                  }
                >
                  Download
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {upload.status === 'resolved' ? (
        <p className="site-muted" aria-label="Last upload">
          Last upload: {upload.data.fileName} ({upload.data.version}
          {upload.data.channel ? `, ${upload.data.channel}` : ''}, builds {upload.data.since}–
          {upload.data.until ?? 'any'}) by {upload.data.uploaderLogin ?? 'a removed account'} on{' '}
          {formatDisplayDate(upload.data.uploaded)}
          {upload.data.warnings.length ? `; warnings: ${upload.data.warnings.join(' ')}` : ''}
        </p>
      ) : null}
    </div>
  );
}
