import type { SignatureRequirement } from '@marketplace/api-client';
import { formatDisplayDate } from '@marketplace/core';
import { useToasts } from '@marketplace/ui';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { RequiredMark } from '../../components/RequiredMark';
import { api } from '../../lib/api';
import { showErrorToast } from '../../lib/errors';
import { useLoad } from '../../lib/use-load';
import { CERTIFICATE_PAGE } from '../plugin/VersionSignature';
import { adminErrorText } from './SellersSection';

function commonName(subject: string): string {
  const line = subject.split('\n').find((part) => part.startsWith('CN='));
  return line ? line.slice(3) : subject.replace(/\n/g, ', ');
}

function RequirementRow({
  requirement,
  onLifted,
}: {
  requirement: SignatureRequirement;
  onLifted: () => void;
}) {
  const toasts = useToasts();
  const [busy, setBusy] = useState(false);
  const { vendor } = requirement;

  async function lift() {
    setBusy(true);
    try {
      await api.signatures.lift(vendor.id);
      toasts?.show({ kind: 'success', title: `${vendor.name} no longer has to sign its plugins.` });
      onLifted();
    } catch (error) {
      showErrorToast(toasts, error, adminErrorText);
    } finally {
      setBusy(false);
    }
  }

  return (
    <tr>
      <td>{vendor.name}</td>
      <td>
        {formatDisplayDate(requirement.requiredAt)}
        {requirement.requiredBy ? ` by ${requirement.requiredBy}` : ''}
        {requirement.reason ? <div className="site-muted">{requirement.reason}</div> : null}
      </td>
      <td>
        <button
          type="button"
          className="site-button-secondary"
          disabled={busy}
          aria-label={`Stop requiring signatures of ${vendor.name}`}
          onClick={() => void lift()}
        >
          Stop requiring
        </button>
      </td>
    </tr>
  );
}

function RequireForm({ onRequired }: { onRequired: () => void }) {
  const toasts = useToasts();
  const vendorFieldId = useId();
  const reasonFieldId = useId();
  const [vendor, setVendor] = useState('');
  const [reason, setReason] = useState('');
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setFailure('');
    try {
      const required = await api.signatures.require(vendor.trim(), reason.trim() || undefined);
      toasts?.show({ kind: 'success', title: `${required.vendor.name} must sign its plugins from now on.` });
      setVendor('');
      setReason('');
      onRequired();
    } catch (error) {
      setFailure(adminErrorText(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="site-form" aria-label="Require signatures" onSubmit={(event) => void submit(event)}>
      <label htmlFor={vendorFieldId}>
        Name of the vendor that must sign <RequiredMark />
      </label>
      <input
        id={vendorFieldId}
        className="site-input"
        required
        maxLength={200}
        value={vendor}
        onChange={(event) => setVendor(event.target.value)}
      />
      <label htmlFor={reasonFieldId}>Why (optional, kept in the audit log)</label>
      <input
        id={reasonFieldId}
        className="site-input"
        maxLength={2000}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
      />
      {failure ? <p className="site-error">{failure}</p> : null}
      <button type="submit" className="site-button" disabled={busy}>
        Require signatures
      </button>
    </form>
  );
}

/**
 * The trust screen's signatures section: the vendors whose uploads must be signed (an unsigned archive, or one
 * signed with a self-signed, incomplete or expired chain, is refused), the roots the operator trusts, and
 * where the marketplace's own countersigning certificate is published.
 */
export function SignatureRequirementSection() {
  const [list, reload] = useLoad((signal) => api.signatures.requirements({ signal }), []);
  return (
    <section className="site-section" aria-labelledby="signatures-heading">
      <h2 id="signatures-heading">Signatures</h2>
      <p className="site-muted">
        Every accepted archive is countersigned with this marketplace&apos;s key; signatures in an upload are
        verified, and a damaged or failing one is refused. A vendor that must sign is also refused unsigned
        archives and self-signed, incomplete or expired certificate chains. The certificate IDEs trust is on{' '}
        <Link to={CERTIFICATE_PAGE}>the certificate page</Link>.
      </p>
      {list.status === 'rejected' ? <p className="site-error">{adminErrorText(list.error)}</p> : null}
      {list.status === 'pending' ? <p className="site-muted">Loading…</p> : null}
      {list.status === 'resolved' ? (
        <>
          {list.data.requirements.length === 0 ? (
            <p className="site-muted">No vendor has to sign its plugins.</p>
          ) : (
            <table className="site-table" aria-label="Vendors that must sign">
              <thead>
                <tr>
                  <th scope="col">Vendor</th>
                  <th scope="col">Required since</th>
                  <th scope="col">
                    <span className="mp-visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.data.requirements.map((requirement) => (
                  <RequirementRow key={requirement.vendor.id} requirement={requirement} onLifted={reload} />
                ))}
              </tbody>
            </table>
          )}
          <p className="site-muted">
            {list.data.trustedRoots.length === 0
              ? 'Any complete chain ending in a root certificate is accepted (SIGNATURE_TRUSTED_ROOTS_FILE is not set).'
              : `Chains must end in a root the operator trusts: ${list.data.trustedRoots
                  .map((root) => commonName(root.subject))
                  .join(', ')}.`}
          </p>
          <RequireForm onRequired={reload} />
        </>
      ) : null}
    </section>
  );
}
