import type {
  AuthorSignatureBody,
  CertificateSummaryBody,
  MarketplaceCertificateBody,
  SignatureRequirementBody,
  SignatureRequirementLiftedBody,
  SignatureRequirementsBody,
  VersionSignatureBody,
} from '@marketplace/api-contract';
import { pathId } from './paths';
import type { ApiTransport, CallOptions } from './transport';

export type CertificateSummary = CertificateSummaryBody;
export type AuthorSignature = AuthorSignatureBody;
/** Who signed a version and whether the marketplace countersigned it (`PluginVersion.signature`). */
export type VersionSignature = VersionSignatureBody;
export type MarketplaceCertificate = MarketplaceCertificateBody;
export type SignatureRequirement = SignatureRequirementBody;
export type SignatureRequirements = SignatureRequirementsBody;
export type SignatureRequirementLifted = SignatureRequirementLiftedBody;

const REQUIREMENTS = '/api/admin/trust/signature-requirements';

/** The paths of api-contract's signatures.ts. */
export const signaturePaths = {
  /** The certificate to add to the IDE, as a PEM download (link to it, e.g. `<a href download>`). */
  certificate: () => '/api/trust/certificate',
  certificateDetails: () => '/api/trust/certificate/details',
  requirements: () => REQUIREMENTS,
  lift: (vendorId: number) => `${REQUIREMENTS}/${pathId('Vendor id', vendorId)}/lift`,
};

/**
 * Plugin archive signatures: the certificate every accepted archive is countersigned with (anyone), and the
 * vendors that must sign their uploads (administrators). Each version's own signature comes with the versions
 * list (`PluginVersion.signature`).
 */
export class SignaturesClient {
  constructor(private readonly transport: ApiTransport) {}

  /** The marketplace's countersigning certificate and chain, described. */
  certificate(options: CallOptions = {}): Promise<MarketplaceCertificate> {
    return this.transport.sendJson({ ...options, method: 'GET', path: signaturePaths.certificateDetails() });
  }

  /** Administrators: the vendors that must sign, and the roots the operator trusts. */
  requirements(options: CallOptions = {}): Promise<SignatureRequirements> {
    return this.transport.sendJson({ ...options, method: 'GET', path: signaturePaths.requirements() });
  }

  /** Administrators: the vendor (by name) must sign its uploads from now on; 409 when it must already. */
  require(vendor: string, reason?: string, options: CallOptions = {}): Promise<SignatureRequirement> {
    return this.transport.sendJson({
      ...options,
      method: 'POST',
      path: signaturePaths.requirements(),
      json: reason ? { vendor, reason } : { vendor },
    });
  }

  /** Administrators: the vendor's unsigned uploads are accepted again; 404 when nothing was required. */
  lift(vendorId: number, reason?: string, options: CallOptions = {}): Promise<SignatureRequirementLifted> {
    return this.transport.sendJson({
      ...options,
      method: 'POST',
      path: signaturePaths.lift(vendorId),
      json: reason ? { reason } : {},
    });
  }
}
