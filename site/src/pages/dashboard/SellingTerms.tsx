import type { ProgramApplication, SellingDetails, Subscriptions } from '@marketplace/api-client';
import {
  COMMUNITY_PROGRAM_LABELS,
  DEFAULT_TRIAL_DAYS,
  formatDisplayDate,
  MAX_TRIAL_DAYS,
  MIN_TRIAL_DAYS,
} from '@marketplace/core';
import { useToasts } from '@marketplace/ui';
import { useState, type FormEvent } from 'react';
import { api } from '../../lib/api';
import { errorText, showErrorToast } from '../../lib/errors';
import { useLoad } from '../../lib/use-load';
import { readWholeNumber } from './money-input';
import { FormFailure, Section, useFormAction } from './selling-parts';

const SOLD: readonly (readonly [keyof Omit<Subscriptions, 'trialDays'>, string])[] = [
  ['monthly', 'Sell monthly subscriptions'],
  ['yearly', 'Sell yearly subscriptions'],
  ['personal', 'Sell personal licences'],
  ['organization', 'Sell organization licences'],
];

function SubscriptionsForm({
  pluginId,
  initial,
  onSaved,
}: {
  pluginId: number;
  initial: Subscriptions;
  onSaved: () => void;
}) {
  const [trialDays, setTrialDays] = useState(String(initial.trialDays));
  const [sold, setSold] = useState(initial);
  const action = useFormAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const days = readWholeNumber(trialDays);
    if (days === undefined || days > MAX_TRIAL_DAYS)
      return action.setFailure(
        `Trial days: “${trialDays.trim()}” is not a whole number of days (0, or ${MIN_TRIAL_DAYS} to ${MAX_TRIAL_DAYS}).`,
      );
    if (
      await action.run('Subscriptions saved', () =>
        api.commerce.setSubscriptions(pluginId, { ...sold, trialDays: days }),
      )
    )
      onSaved();
  }

  return (
    <form className="site-form" onSubmit={submit} noValidate aria-label="Subscriptions and trial">
      <label className="site-field">
        <span>Free trial (days)</span>
        <input
          type="number"
          min={0}
          max={MAX_TRIAL_DAYS}
          style={{ width: '8em' }}
          value={trialDays}
          aria-describedby="trial-days-hint"
          onChange={(event) => setTrialDays(event.target.value)}
        />
        <span id="trial-days-hint" className="site-muted" style={{ fontWeight: 400 }}>
          0 for no trial, otherwise {MIN_TRIAL_DAYS} to {MAX_TRIAL_DAYS} days (the usual is{' '}
          {DEFAULT_TRIAL_DAYS}).
        </span>
      </label>
      <fieldset className="site-filter">
        <legend>What is sold</legend>
        {SOLD.map(([key, label]) => (
          <label key={key} className="site-check">
            <input
              type="checkbox"
              checked={sold[key]}
              onChange={(event) => setSold({ ...sold, [key]: event.target.checked })}
            />
            {label}
          </label>
        ))}
      </fieldset>
      <FormFailure text={action.failure} />
      <div className="site-form-actions">
        <button type="submit" className="mp-button" disabled={action.busy}>
          Save subscriptions
        </button>
      </div>
    </form>
  );
}

export function SubscriptionsSection({ pluginId, onSaved }: { pluginId: number; onSaved: () => void }) {
  const [subscriptions, reload] = useLoad(
    (signal) => api.commerce.getSubscriptions(pluginId, { signal }),
    [pluginId],
  );
  return (
    <Section title="Subscriptions and trial">
      {subscriptions.status === 'pending' ? <p className="site-muted">Loading…</p> : null}
      {subscriptions.status === 'rejected' ? (
        <p className="site-error">{errorText(subscriptions.error)}</p>
      ) : null}
      {subscriptions.status === 'resolved' ? (
        <SubscriptionsForm
          key={JSON.stringify(subscriptions.data)}
          pluginId={pluginId}
          initial={subscriptions.data}
          onSaved={() => {
            reload();
            onSaved();
          }}
        />
      ) : null}
    </Section>
  );
}

function SellingDetailsForm({
  pluginId,
  initial,
  onSaved,
}: {
  pluginId: number;
  initial: SellingDetails;
  onSaved: () => void;
}) {
  const [eulaUrl, setEulaUrl] = useState(initial.eulaUrl ?? '');
  const [supportEmail, setSupportEmail] = useState(initial.supportEmail ?? '');
  const [checked, setChecked] = useState(initial.licenseCheckDocumented);
  const action = useFormAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const details: SellingDetails = {
      eulaUrl: eulaUrl.trim() || null,
      supportEmail: supportEmail.trim() || null,
      licenseCheckDocumented: checked,
    };
    if (await action.run('Selling details saved', () => api.commerce.setSellingDetails(pluginId, details)))
      onSaved();
  }

  return (
    <form className="site-form" onSubmit={submit} noValidate aria-label="Selling details">
      <label className="site-field">
        <span>Licence agreement (EULA) address</span>
        <input
          type="url"
          maxLength={500}
          placeholder="https://"
          value={eulaUrl}
          onChange={(event) => setEulaUrl(event.target.value)}
        />
      </label>
      <label className="site-field">
        <span>Support e-mail</span>
        <input
          type="email"
          maxLength={200}
          value={supportEmail}
          onChange={(event) => setSupportEmail(event.target.value)}
        />
      </label>
      <label className="site-check">
        <input type="checkbox" checked={checked} onChange={(event) => setChecked(event.target.checked)} />
        The plugin checks its licence with the marketplace’s public key
      </label>
      <FormFailure text={action.failure} />
      <div className="site-form-actions">
        <button type="submit" className="mp-button" disabled={action.busy}>
          Save selling details
        </button>
      </div>
    </form>
  );
}

export function SellingDetailsSection({ pluginId, onSaved }: { pluginId: number; onSaved: () => void }) {
  const [details, reload] = useLoad(
    (signal) => api.commerce.getSellingDetails(pluginId, { signal }),
    [pluginId],
  );
  return (
    <Section title="Selling details">
      {details.status === 'pending' ? <p className="site-muted">Loading…</p> : null}
      {details.status === 'rejected' ? <p className="site-error">{errorText(details.error)}</p> : null}
      {details.status === 'resolved' ? (
        <SellingDetailsForm
          key={JSON.stringify(details.data)}
          pluginId={pluginId}
          initial={details.data}
          onSaved={() => {
            reload();
            onSaved();
          }}
        />
      ) : null}
    </Section>
  );
}

const STATUS_BADGE: Record<ProgramApplication['status'], string> = {
  PENDING: 'site-badge site-badge--warning',
  APPROVED: 'site-badge site-badge--success',
  REJECTED: 'site-badge site-badge--danger',
};
const STATUS_LABEL: Record<ProgramApplication['status'], string> = {
  PENDING: 'Waiting',
  APPROVED: 'Approved',
  REJECTED: 'Rejected',
};

export function ProgramApplicationsSection({ pluginId }: { pluginId: number }) {
  const toasts = useToasts();
  const [applications, reload] = useLoad(
    (signal) => api.commerce.getProgramApplications(pluginId, { signal }),
    [pluginId],
  );

  async function decide(application: ProgramApplication, approve: boolean) {
    try {
      await api.commerce.decideProgramApplication(pluginId, application.id, approve);
      toasts?.show({
        kind: 'success',
        title: `${application.applicant.name}’s application ${approve ? 'approved' : 'rejected'}`,
      });
      reload();
    } catch (error) {
      showErrorToast(toasts, error);
    }
  }

  return (
    <Section title="Program applications">
      {applications.status === 'pending' ? <p className="site-muted">Loading…</p> : null}
      {applications.status === 'rejected' ? (
        <p className="site-error">{errorText(applications.error)}</p>
      ) : null}
      {applications.status === 'resolved' && applications.data.length === 0 ? (
        <p className="site-muted">Nobody has applied to a program of this item yet.</p>
      ) : null}
      {applications.status === 'resolved' && applications.data.length ? (
        <table className="site-table">
          <caption className="site-visually-hidden">Program applications</caption>
          <thead>
            <tr>
              <th scope="col">Applicant</th>
              <th scope="col">Program</th>
              <th scope="col">Evidence</th>
              <th scope="col">Applied</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="site-visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {applications.data.map((application) => (
              <tr key={application.id}>
                <td>{application.applicant.name}</td>
                <td>{COMMUNITY_PROGRAM_LABELS[application.program]}</td>
                <td style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{application.evidence}</td>
                <td>{formatDisplayDate(application.createdAt)}</td>
                <td>
                  <span className={STATUS_BADGE[application.status]}>{STATUS_LABEL[application.status]}</span>
                </td>
                <td>
                  {application.status === 'PENDING' ? (
                    <div className="site-form-actions" style={{ marginTop: 0 }}>
                      <button
                        type="button"
                        className="mp-button"
                        aria-label={`Approve ${application.applicant.name}`}
                        onClick={() => void decide(application, true)}
                      >
                        Approve
                      </button>
                      <button
                        type="button"
                        className="site-button-danger"
                        aria-label={`Reject ${application.applicant.name}`}
                        onClick={() => void decide(application, false)}
                      >
                        Reject
                      </button>
                    </div>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </Section>
  );
}
