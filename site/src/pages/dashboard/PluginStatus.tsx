import type { Plugin, PluginLifecycle } from '@marketplace/api-client';
import {
  DEVELOPER_ACTION_LABELS,
  developerStatus,
  type DeveloperAction,
  type DeveloperStatus,
} from '@marketplace/core';
import { useToasts } from '@marketplace/ui';
import { useState } from 'react';
import { api } from '../../lib/api';
import { showErrorToast } from '../../lib/errors';

const TONE_CLASSES: Readonly<Record<DeveloperStatus['tone'], string>> = {
  neutral: 'site-badge',
  warning: 'site-badge site-badge--warning',
  success: 'site-badge site-badge--success',
  danger: 'site-badge site-badge--danger',
};

/** What the toast says once an action is taken. */
const DONE: Readonly<Record<DeveloperAction, string>> = {
  publish: 'Published: it now waits for the administrators’ approval',
  restore: 'Removal request withdrawn',
  'request-removal': 'Removal requested',
};

/** An item's status label as a badge (its explanation on hover), the same words as on its manage page. */
export function StatusBadge({ lifecycle }: { lifecycle: PluginLifecycle }) {
  const status = developerStatus(lifecycle);
  return (
    <span className={`${TONE_CLASSES[status.tone]} site-status-badge`} title={status.explanation}>
      {status.label}
    </span>
  );
}

/**
 * An item's status for its developers (core's developerStatus: label, explanation) and the lifecycle actions
 * that apply now, `offer` narrowing them (the upload page offers Publish only). Renders nothing for an answer
 * without the lifecycle (the viewer does not develop the item).
 */
export function PluginStatusBlock({
  plugin,
  onChanged,
  offer,
}: {
  plugin: Plugin;
  onChanged: () => void;
  offer?: readonly DeveloperAction[];
}) {
  const toasts = useToasts();
  const [busy, setBusy] = useState(false);
  if (!plugin.lifecycle) return null;
  const status = developerStatus(plugin.lifecycle);
  const actions = status.actions.filter((action) => !offer || offer.includes(action));

  async function act(action: DeveloperAction) {
    setBusy(true);
    try {
      await api.request({ method: 'POST', path: `/api/plugins/${plugin.id}/${action}`, json: {} });
      toasts?.show({ kind: 'success', title: DONE[action] });
      onChanged();
    } catch (error) {
      showErrorToast(toasts, error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="site-card-block site-status" aria-labelledby="plugin-status-heading">
      <h2 id="plugin-status-heading">Status</h2>
      <p className="site-status__label">
        <span className={TONE_CLASSES[status.tone]}>{status.label}</span>
      </p>
      <p className="site-status__explanation">{status.explanation}</p>
      {status.restriction ? <p className="site-callout site-callout--warning">{status.restriction}</p> : null}
      {actions.length ? (
        <div className="site-form-actions">
          {actions.map((action) => (
            <button
              key={action}
              type="button"
              className={action === 'publish' ? 'mp-button' : 'site-button-secondary'}
              disabled={busy}
              onClick={() => void act(action)}
            >
              {DEVELOPER_ACTION_LABELS[action]}
            </button>
          ))}
        </div>
      ) : null}
    </section>
  );
}
