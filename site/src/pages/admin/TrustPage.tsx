import type {
  NamespaceClaimBody,
  NamespaceDecisionAction,
  NamespaceDnsCheckBody,
} from '@marketplace/api-contract';
import { useToasts } from '@marketplace/ui';
import { useId, useState } from 'react';
import { FormFailure } from '../../components/FormFailure';
import { NamespaceClaimCells } from '../../components/NamespaceClaimCells';
import { RequiredMark } from '../../components/RequiredMark';
import { RequireSignIn } from '../../components/RequireSignIn';
import { api } from '../../lib/api';
import { showErrorToast } from '../../lib/errors';
import { usePageTitle } from '../../lib/page-title';
import { useFormAction } from '../../lib/use-form-action';
import { useLoad } from '../../lib/use-load';
import { AdminNav } from './AdminNav';
import { SignatureRequirementSection } from './SignatureRequirementSection';
import { ScanQueueSection } from './ScanQueueSection';
import { adminErrorText } from './SellersSection';

const DECISION_LABELS: Record<NamespaceDecisionAction, { label: string; done: string }> = {
  approve: { label: 'Approve', done: 'approved' },
  refuse: { label: 'Refuse', done: 'refused' },
  revoke: { label: 'Revoke', done: 'revoked' },
};

function DnsResult({ check }: { check: NamespaceDnsCheckBody }) {
  if (check.error !== null) return <p className="site-muted">{check.error}</p>;
  return (
    <div>
      <p className={check.found ? undefined : 'site-error'}>
        {check.found
          ? 'The expected record is published.'
          : 'The expected record is not among the records found.'}{' '}
        <span className="site-muted">(DNS can lie or lag: decide with what you know of the vendor.)</span>
      </p>
      {check.records.length ? (
        <ul aria-label={`TXT records at ${check.name}`}>
          {check.records.map((record, index) => (
            <li key={index}>
              <code>{record}</code>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function ClaimRow({ claim, onChanged }: { claim: NamespaceClaimBody; onChanged: () => void }) {
  const toasts = useToasts();
  const reasonId = useId();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [dns, setDns] = useState<NamespaceDnsCheckBody | undefined>(undefined);

  async function decide(decision: NamespaceDecisionAction) {
    setBusy(true);
    try {
      await api.namespaces.decide(claim.id, decision, reason.trim() || undefined);
      toasts?.show({
        kind: 'success',
        title: `The namespace ${claim.prefix} of ${claim.vendor.name} is ${DECISION_LABELS[decision].done}.`,
      });
      onChanged();
    } catch (error) {
      showErrorToast(toasts, error, adminErrorText);
    } finally {
      setBusy(false);
    }
  }

  async function checkDns() {
    setBusy(true);
    try {
      setDns(await api.namespaces.dns(claim.id));
    } catch (error) {
      showErrorToast(toasts, error, adminErrorText);
    } finally {
      setBusy(false);
    }
  }

  const decisions: NamespaceDecisionAction[] =
    claim.state === 'pending' ? ['approve', 'refuse'] : claim.state === 'approved' ? ['revoke'] : [];
  return (
    <tr>
      <NamespaceClaimCells claim={claim} showDecidedBy />
      <td>
        <div>
          TXT <code>{claim.dnsRecord.name}</code>
        </div>
        <div>
          <code>{claim.dnsRecord.value}</code>
        </div>
        {dns ? <DnsResult check={dns} /> : null}
      </td>
      <td>
        {decisions.length ? (
          <>
            <label htmlFor={reasonId}>Reason (optional)</label>
            <input
              id={reasonId}
              className="site-input"
              value={reason}
              maxLength={2000}
              onChange={(event) => setReason(event.target.value)}
            />
          </>
        ) : null}
        <div className="site-actions">
          {claim.state === 'pending' ? (
            <button
              type="button"
              className="site-button-secondary"
              disabled={busy}
              aria-label={`Check the DNS record of ${claim.prefix}`}
              onClick={() => void checkDns()}
            >
              Check DNS
            </button>
          ) : null}
          {decisions.map((decision) => (
            <button
              key={decision}
              type="button"
              className={decision === 'approve' ? 'site-button' : 'site-button-secondary'}
              disabled={busy}
              aria-label={`${DECISION_LABELS[decision].label} ${claim.prefix} for ${claim.vendor.name}`}
              onClick={() => void decide(decision)}
            >
              {DECISION_LABELS[decision].label}
            </button>
          ))}
        </div>
      </td>
    </tr>
  );
}

function GrantForm({ onGranted }: { onGranted: () => void }) {
  const prefixId = useId();
  const vendorId = useId();
  const [prefix, setPrefix] = useState('');
  const [vendor, setVendor] = useState('');
  const { busy, failure, run } = useFormAction(adminErrorText);

  async function grant(event: React.FormEvent) {
    event.preventDefault();
    const granted = await run(
      (claim) => `The namespace ${claim.prefix} now belongs to ${claim.vendor.name}.`,
      () => api.namespaces.grant({ prefix: prefix.trim(), vendor: vendor.trim() }),
    );
    if (!granted) return;
    setPrefix('');
    setVendor('');
    onGranted();
  }

  return (
    <form className="site-form" aria-labelledby="grant-heading" onSubmit={(event) => void grant(event)}>
      <h2 id="grant-heading">Grant a namespace</h2>
      <p className="site-muted">
        Give a prefix to a vendor at once, reserved ones too (for the vendor that owns the IDEs themselves).
      </p>
      <label htmlFor={prefixId}>
        Prefix <RequiredMark />
      </label>
      <input
        id={prefixId}
        className="site-input"
        required
        placeholder="com.acme."
        value={prefix}
        onChange={(event) => setPrefix(event.target.value)}
      />
      <label htmlFor={vendorId}>
        Vendor <RequiredMark />
      </label>
      <input
        id={vendorId}
        className="site-input"
        required
        value={vendor}
        onChange={(event) => setVendor(event.target.value)}
      />
      <FormFailure text={failure} />
      <button type="submit" className="site-button" disabled={busy}>
        Grant
      </button>
    </form>
  );
}

function Trust() {
  const [list, reload] = useLoad((signal) => api.namespaces.list(undefined, { signal }), []);
  return (
    <div className="site-page site-admin">
      <h1>Trust</h1>
      <AdminNav />
      <p className="site-muted">
        Namespaces: a new plugin whose id starts with an approved prefix is refused to everyone but the people
        of the vendor that owns it (items already there stay). Vendors prove a claim with the DNS TXT record
        shown; check it before you approve. Ids and names that look like an existing item&apos;s are refused
        on upload; names close to a popular item&apos;s are flagged in the approval queue.
      </p>
      {list.status === 'rejected' ? <p className="site-error">{adminErrorText(list.error)}</p> : null}
      {list.status === 'pending' ? <p className="site-muted">Loading…</p> : null}
      {list.status === 'resolved' ? (
        <>
          <p>
            Reserved by the marketplace (granted only):{' '}
            {list.data.reservedPrefixes.map((prefix, index) => (
              <span key={prefix}>
                {index > 0 ? ', ' : ''}
                <code>{prefix}</code>
              </span>
            ))}
          </p>
          <section className="site-section" aria-labelledby="claims-heading">
            <h2 id="claims-heading">Claims and grants</h2>
            {list.data.claims.length === 0 ? (
              <p className="site-muted">No vendor has claimed a namespace yet.</p>
            ) : (
              <table className="site-table" aria-labelledby="claims-heading">
                <thead>
                  <tr>
                    <th scope="col">Prefix</th>
                    <th scope="col">Vendor</th>
                    <th scope="col">State</th>
                    <th scope="col">DNS proof</th>
                    <th scope="col">
                      <span className="mp-visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.data.claims.map((claim) => (
                    <ClaimRow key={`${claim.id}-${claim.state}`} claim={claim} onChanged={reload} />
                  ))}
                </tbody>
              </table>
            )}
          </section>
          <GrantForm onGranted={reload} />
        </>
      ) : null}
      <SignatureRequirementSection />
      <ScanQueueSection />
    </div>
  );
}

export default function TrustPage() {
  usePageTitle('Trust');
  return <RequireSignIn>{() => <Trust />}</RequireSignIn>;
}
