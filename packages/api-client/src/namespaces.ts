import type {
  ClaimNamespaceBody,
  GrantNamespaceBody,
  NamespaceAdminListBody,
  NamespaceClaimBody,
  NamespaceDecisionAction,
  NamespaceDnsCheckBody,
  NamespaceState,
} from '@marketplace/api-contract';
import { pathId } from './paths';
import { buildQuery } from './query';
import type { ApiTransport, CallOptions } from './transport';

export type NamespaceClaim = NamespaceClaimBody;
export type NamespaceAdminList = NamespaceAdminListBody;
export type NamespaceDnsCheck = NamespaceDnsCheckBody;
export type ClaimNamespaceInput = ClaimNamespaceBody;
export type GrantNamespaceInput = GrantNamespaceBody;
export type { NamespaceDecisionAction, NamespaceState };

const ADMIN = '/api/admin/trust/namespaces';

/** The paths of the namespace routes of api-contract's trust.ts. */
export const namespacePaths = {
  mine: () => '/api/trust/namespaces/mine',
  claim: () => '/api/trust/namespaces',
  list: (state?: NamespaceState) => `${ADMIN}${buildQuery({ state })}`,
  grant: () => ADMIN,
  decide: (claimId: number, decision: NamespaceDecisionAction) =>
    `${ADMIN}/${pathId('Claim id', claimId)}/${decision}`,
  dns: (claimId: number) => `${ADMIN}/${pathId('Claim id', claimId)}/dns`,
};

/**
 * Id prefixes (namespaces): vendors claim them and prove each with a DNS TXT record; administrators grant,
 * approve, refuse and revoke them.
 */
export class NamespacesClient {
  constructor(private readonly transport: ApiTransport) {}

  /** The claims of the vendors the signed-in user publishes for. */
  mine(options: CallOptions = {}): Promise<NamespaceClaim[]> {
    return this.transport.sendJson({ ...options, method: 'GET', path: namespacePaths.mine() });
  }

  /** Claim a prefix for one's vendor; an administrator decides. */
  claim(input: ClaimNamespaceInput, options: CallOptions = {}): Promise<NamespaceClaim> {
    return this.transport.sendJson({ ...options, method: 'POST', path: namespacePaths.claim(), json: input });
  }

  /** Administrators: every claim and grant (waiting ones first), and the reserved prefixes. */
  list(state?: NamespaceState, options: CallOptions = {}): Promise<NamespaceAdminList> {
    return this.transport.sendJson({ ...options, method: 'GET', path: namespacePaths.list(state) });
  }

  /** Administrators: give a prefix to a vendor at once, reserved ones too. */
  grant(input: GrantNamespaceInput, options: CallOptions = {}): Promise<NamespaceClaim> {
    return this.transport.sendJson({ ...options, method: 'POST', path: namespacePaths.grant(), json: input });
  }

  /** Administrators: approve or refuse a waiting claim, or revoke an approved one. */
  decide(
    claimId: number,
    decision: NamespaceDecisionAction,
    reason?: string,
    options: CallOptions = {},
  ): Promise<NamespaceClaim> {
    return this.transport.sendJson({
      ...options,
      method: 'POST',
      path: namespacePaths.decide(claimId, decision),
      json: reason ? { reason } : {},
    });
  }

  /** Administrators: look the claim's TXT record up once and say what was found. */
  dns(claimId: number, options: CallOptions = {}): Promise<NamespaceDnsCheck> {
    return this.transport.sendJson({ ...options, method: 'GET', path: namespacePaths.dns(claimId) });
  }
}
