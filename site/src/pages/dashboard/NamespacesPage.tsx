import { isApiError } from '@marketplace/api-client';
import { ID_PREFIX_MAX_LENGTH, ID_PREFIX_PATTERN, type NamespaceClaimBody } from '@marketplace/api-contract';
import { PRODUCT_FAMILIES } from '@marketplace/core';
import { useToasts } from '@marketplace/ui';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { SignedInUser } from '../../auth/AuthProvider';
import { NamespaceClaimCells } from '../../components/NamespaceClaimCells';
import { RequiredMark, RequiredNote } from '../../components/RequiredMark';
import { RequireSignIn } from '../../components/RequireSignIn';
import { api } from '../../lib/api';
import { errorText, showErrorToast } from '../../lib/errors';
import { usePageTitle } from '../../lib/page-title';
import { useLoad } from '../../lib/use-load';

/** The words of the administrators' Trust screen, so both sides name a claim's state alike. */
const VENDOR_MAX_LENGTH = 200;

/** 'Com.Acme' as 'com.acme.', as the server stores it; undefined when it is no prefix of ids. */
function normalizePrefix(text: string): string | undefined {
  const trimmed = text.trim().toLowerCase();
  const prefix = trimmed.endsWith('.') ? trimmed : `${trimmed}.`;
  return ID_PREFIX_PATTERN.test(prefix) && prefix.length <= ID_PREFIX_MAX_LENGTH ? prefix : undefined;
}

/** Pages of the user's items read to learn their vendors (100 items a page). */
const VENDOR_PAGES = 10;

/** The vendors the user publishes for: those named by the items they own or develop, every family. */
async function vendorsOf(userId: number, signal: AbortSignal): Promise<string[]> {
  const names = new Set<string>();
  for (let page = 1; page <= VENDOR_PAGES; page++) {
    const items = await api.getUserPlugins(
      userId,
      { page, size: 100, family: [...PRODUCT_FAMILIES] },
      { signal },
    );
    for (const item of items.data) if (item.vendor.name.trim()) names.add(item.vendor.name.trim());
    if (!items.links.next) break;
  }
  return [...names];
}

function CopyButton({ text, label }: { text: string; label: string }) {
  const toasts = useToasts();
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      toasts?.show({ kind: 'success', title: `Copied ${text}` });
    } catch {
      toasts?.show({ kind: 'error', title: 'Could not copy', message: 'Select the text and copy it.' });
    }
  }
  return (
    <button type="button" className="site-button-secondary" aria-label={label} onClick={() => void copy()}>
      Copy
    </button>
  );
}

function ClaimRow({ claim }: { claim: NamespaceClaimBody }) {
  return (
    <tr>
      <NamespaceClaimCells claim={claim} />
      <td>
        <div>
          TXT <code>{claim.dnsRecord.name}</code>{' '}
          <CopyButton text={claim.dnsRecord.name} label={`Copy the record name of ${claim.prefix}`} />
        </div>
        <div>
          <code>{claim.dnsRecord.value}</code>{' '}
          <CopyButton text={claim.dnsRecord.value} label={`Copy the record value of ${claim.prefix}`} />
        </div>
      </td>
    </tr>
  );
}

function ClaimForm({ vendors, onClaimed }: { vendors: readonly string[]; onClaimed: () => void }) {
  const toasts = useToasts();
  const prefixId = useId();
  const hintId = useId();
  const vendorId = useId();
  const [prefix, setPrefix] = useState('');
  const [chosenVendor, setVendor] = useState('');
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  // With one vendor there is nothing to choose; with several the first is offered until another is chosen.
  const vendor = chosenVendor || (vendors[0] ?? '');

  async function claim(event: FormEvent) {
    event.preventDefault();
    setFailure('');
    if (!vendor.trim()) return setFailure('Name the vendor the prefix is for, as on its plugins.');
    const normalized = normalizePrefix(prefix);
    if (normalized === undefined) {
      return setFailure(
        prefix.trim()
          ? `"${prefix.trim()}" is not an id prefix: write it like com.acme. (two segments or more of letters, digits, "-" and "_").`
          : 'Write the prefix to claim, like com.acme.',
      );
    }
    setBusy(true);
    try {
      const claimed = await api.namespaces.claim({ prefix: normalized, vendor: vendor.trim() });
      toasts?.show({
        kind: 'success',
        title: `${claimed.prefix} is claimed for ${claimed.vendor.name}`,
        message: 'Publish its TXT record; an administrator checks it before approving.',
      });
      setPrefix('');
      onClaimed();
    } catch (error) {
      if (isApiError(error) && error.status >= 500) showErrorToast(toasts, error);
      else setFailure(errorText(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="site-form site-card-block"
      aria-labelledby="claim-heading"
      noValidate
      onSubmit={(event) => void claim(event)}
    >
      <h2 id="claim-heading">Claim a prefix</h2>
      <p className="site-muted">
        Once an administrator approves it, new plugins whose id starts with the prefix can be published only
        by the vendor&apos;s people. Plugins already there stay as they are.
      </p>
      <RequiredNote />
      <div className="site-field">
        <label htmlFor={vendorId}>
          Vendor
          <RequiredMark />
        </label>
        {vendors.length ? (
          <select
            id={vendorId}
            required
            aria-required="true"
            value={vendor}
            onChange={(event) => setVendor(event.target.value)}
          >
            {vendors.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        ) : (
          <input
            id={vendorId}
            required
            aria-required="true"
            maxLength={VENDOR_MAX_LENGTH}
            value={chosenVendor}
            onChange={(event) => setVendor(event.target.value)}
          />
        )}
      </div>
      <div className="site-field">
        <label htmlFor={prefixId}>
          Prefix
          <RequiredMark />
        </label>
        <input
          id={prefixId}
          required
          aria-required="true"
          aria-describedby={hintId}
          placeholder="com.acme."
          maxLength={ID_PREFIX_MAX_LENGTH}
          value={prefix}
          onChange={(event) => setPrefix(event.target.value)}
        />
        <span id={hintId} className="site-muted">
          Like <code>com.acme.</code>: your domain reversed, two segments or more of letters, digits, “-” and
          “_”, ending with a dot.
        </span>
      </div>
      {failure ? (
        <p className="site-error" role="alert">
          {failure}
        </p>
      ) : null}
      <div className="site-form-actions">
        <button type="submit" className="mp-button" disabled={busy}>
          Claim
        </button>
      </div>
    </form>
  );
}

function Namespaces({ user }: { user: SignedInUser }) {
  const [claims, reload] = useLoad((signal) => api.namespaces.mine({ signal }), []);
  const [itemVendors] = useLoad((signal) => vendorsOf(user.id, signal), [user.id]);
  const vendors = [
    ...new Set([
      ...(itemVendors.status === 'resolved' ? itemVendors.data : []),
      ...(claims.status === 'resolved' ? claims.data.map((claim) => claim.vendor.name) : []),
    ]),
  ].sort((a, b) => a.localeCompare(b));

  return (
    <div className="site-page">
      <p>
        <Link to="/dashboard">← My items</Link>
      </p>
      <h1>Id prefixes</h1>
      <p className="site-muted">
        Claim the id prefix of your vendor (<code>com.acme.</code> for acme.com) so nobody else can publish
        new plugins under it. Prove the domain is yours by publishing the DNS TXT record shown with the claim;
        an administrator checks it and decides.
      </p>
      <section className="site-section" aria-labelledby="my-claims-heading">
        <h2 id="my-claims-heading">Your claims</h2>
        {claims.status === 'rejected' ? <p className="site-error">{errorText(claims.error)}</p> : null}
        {claims.status === 'pending' ? <p className="site-muted">Loading…</p> : null}
        {claims.status === 'resolved' && claims.data.length === 0 ? (
          <p className="site-muted">No prefix is claimed for your vendors yet.</p>
        ) : null}
        {claims.status === 'resolved' && claims.data.length ? (
          <table className="site-table" aria-labelledby="my-claims-heading">
            <thead>
              <tr>
                <th scope="col">Prefix</th>
                <th scope="col">Vendor</th>
                <th scope="col">State</th>
                <th scope="col">DNS record to publish</th>
              </tr>
            </thead>
            <tbody>
              {claims.data.map((claim) => (
                <ClaimRow key={`${claim.id}-${claim.state}`} claim={claim} />
              ))}
            </tbody>
          </table>
        ) : null}
      </section>
      {itemVendors.status === 'rejected' ? (
        <p className="site-error">{errorText(itemVendors.error)}</p>
      ) : null}
      {itemVendors.status === 'pending' ? null : <ClaimForm vendors={vendors} onClaimed={reload} />}
    </div>
  );
}

export default function NamespacesPage() {
  usePageTitle('Id prefixes');
  return <RequireSignIn>{(user) => <Namespaces user={user} />}</RequireSignIn>;
}
