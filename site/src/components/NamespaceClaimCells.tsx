import type { NamespaceClaimBody } from '@marketplace/api-contract';

/** The words of a namespace claim's state, the same on the vendor's page and the administrators'. */
export const NAMESPACE_STATE_LABELS: Readonly<Record<NamespaceClaimBody['state'], string>> = {
  pending: 'Waiting',
  approved: 'Approved',
  refused: 'Refused',
  revoked: 'Revoked',
};

/**
 * The prefix, vendor and state cells of a claim's table row: who claimed it (or that an administrator granted
 * it), and, for the administrators, who decided.
 */
export function NamespaceClaimCells({
  claim,
  showDecidedBy = false,
}: {
  claim: NamespaceClaimBody;
  showDecidedBy?: boolean;
}) {
  return (
    <>
      <th scope="row">
        <code>{claim.prefix}</code>
      </th>
      <td>{claim.vendor.name}</td>
      <td>
        {NAMESPACE_STATE_LABELS[claim.state]}
        {claim.reason ? <span className="site-muted"> — {claim.reason}</span> : null}
        <div className="site-muted">
          {claim.requestedBy ? `Claimed by ${claim.requestedBy}` : 'Granted by an administrator'}
          {showDecidedBy && claim.decidedBy ? `, decided by ${claim.decidedBy}` : ''}
        </div>
      </td>
    </>
  );
}
