/**
 * Plugin archive signatures (server `src/trust`, "Signatures"): who signed each version, the marketplace's
 * countersigning certificate, and the vendors that must sign.
 *
 * Routes:
 * - `GET /api/trust/certificate`: the certificate IDEs are told to trust (PEM, as a download); every accepted
 *   archive is countersigned with a chain ending in it.
 * - `GET /api/trust/certificate/details`: the same certificate and the countersigning chain, described.
 * - `GET /api/admin/trust/signature-requirements`: the vendors that must sign, and the roots the operator
 *   trusts for authors' chains (administrators).
 * - `POST /api/admin/trust/signature-requirements` with `vendor` (its name) and an optional `reason`: from now
 *   on, that vendor's uploads must carry a valid, unexpired signature by a certificate issued by an authority,
 *   with its whole chain (administrators; audited). Answers 409 when it is required already.
 * - `POST /api/admin/trust/signature-requirements/{vendorId}/lift` with an optional `reason` (administrators;
 *   audited). Answers 404 when nothing was required of that vendor.
 *
 * The versions list (`GET /api/plugins/{id}/updates`) and `GET /api/updates/{id}` carry each version's
 * `signature`.
 */
import { Type, type Static } from 'typebox';
import { Nullable, Timestamp } from './common';

export const CertificateSummarySchema = Type.Object({
  /** Distinguished name, one attribute a line (`CN=Example Signer`). */
  subject: Type.String(),
  issuer: Type.String(),
  serialNumber: Type.String(),
  /** SHA-256 of the certificate, colon-separated hex, as browsers and keytool show it. */
  fingerprint256: Type.String(),
  validFrom: Timestamp,
  validTo: Timestamp,
});
export type CertificateSummaryBody = Static<typeof CertificateSummarySchema>;

/** The author's signature as the upload found it. */
export const AuthorSignatureSchema = Type.Object({
  /** The common name of the author's certificate. */
  signedBy: Type.String(),
  /** The certificate chain in the archive, the author's own certificate first. */
  chain: Type.Array(CertificateSummarySchema),
  algorithm: Nullable(Type.String()),
  /** The author's certificate is self-signed: nobody vouches for it. */
  selfSigned: Type.Boolean(),
  /** A certificate of the chain had expired when the version was uploaded. */
  expired: Type.Boolean(),
  notYetValid: Type.Boolean(),
  /** Every link verified and the chain ends in a root certificate. */
  chainComplete: Type.Boolean(),
  /** The chain ends in a root the operator trusts. */
  trusted: Type.Boolean(),
  checkedAt: Timestamp,
});
export type AuthorSignatureBody = Static<typeof AuthorSignatureSchema>;

export const VersionSignatureSchema = Type.Object({
  /** Null when the author did not sign the archive. */
  author: Nullable(AuthorSignatureSchema),
  /** The archive offered for download carries the marketplace's signature. */
  countersigned: Type.Boolean(),
  /** SHA-256 fingerprint of the marketplace certificate that countersigned; null when it did not. */
  countersignedBy: Nullable(Type.String()),
  /** Why the marketplace could not countersign (a ZIP64 archive); null otherwise. */
  countersignProblem: Nullable(Type.String()),
});
export type VersionSignatureBody = Static<typeof VersionSignatureSchema>;

export const MarketplaceCertificateSchema = Type.Object({
  /** The certificate to add to the IDE (the last of the countersigning chain). */
  certificate: CertificateSummarySchema,
  /** The countersigning chain, the signing certificate first. */
  chain: Type.Array(CertificateSummarySchema),
  /** Where the PEM file is downloaded from. */
  downloadPath: Type.String(),
});
export type MarketplaceCertificateBody = Static<typeof MarketplaceCertificateSchema>;

export const SignatureRequirementSchema = Type.Object({
  vendor: Type.Object({ id: Type.Integer(), name: Type.String() }),
  /** Login of the administrator who required it (null once that account is gone). */
  requiredBy: Nullable(Type.String()),
  requiredAt: Timestamp,
  reason: Nullable(Type.String()),
});
export type SignatureRequirementBody = Static<typeof SignatureRequirementSchema>;

export const SignatureRequirementsSchema = Type.Object({
  requirements: Type.Array(SignatureRequirementSchema),
  /** The roots the operator trusts for authors' chains (SIGNATURE_TRUSTED_ROOTS_FILE); empty: any root. */
  trustedRoots: Type.Array(CertificateSummarySchema),
});
export type SignatureRequirementsBody = Static<typeof SignatureRequirementsSchema>;

export const RequireSignaturesBody = Type.Object({
  vendor: Type.String({ minLength: 1, maxLength: 200, description: 'the vendor name, as on its plugins' }),
  reason: Type.Optional(Type.String({ maxLength: 2000 })),
});
export type RequireSignaturesBody = Static<typeof RequireSignaturesBody>;

export const SignatureRequirementParams = Type.Object({
  vendorId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
});
export type SignatureRequirementParams = Static<typeof SignatureRequirementParams>;

export const LiftSignatureRequirementBody = Type.Optional(
  Type.Union([Type.Null(), Type.Object({ reason: Type.Optional(Type.String({ maxLength: 2000 })) })]),
);
export type LiftSignatureRequirementBody = Static<typeof LiftSignatureRequirementBody>;

export const SignatureRequirementLiftedSchema = Type.Object({
  vendor: Type.Object({ id: Type.Integer(), name: Type.String() }),
});
export type SignatureRequirementLiftedBody = Static<typeof SignatureRequirementLiftedSchema>;
