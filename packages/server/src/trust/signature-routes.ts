import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ErrorBody,
  LiftSignatureRequirementBody,
  MarketplaceCertificateSchema,
  RequireSignaturesBody,
  SignatureRequirementLiftedSchema,
  SignatureRequirementParams,
  SignatureRequirementSchema,
  SignatureRequirementsSchema,
  type CertificateSummaryBody,
} from '@marketplace/api-contract';
import type { X509Certificate } from 'node:crypto';
import { signedInViewer } from '../auth/authorization';
import { attachmentDisposition } from '../storage';
import {
  liftSignatureRequirement,
  listSignatureRequirements,
  requireSignatures,
} from './signature-requirements';
import { certificateToTrust, signingIdentity, type SigningOptions } from './signing-key';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody } as const;
const ADMIN = { rule: 'admin' } as const;
export const CERTIFICATE_PATH = '/api/trust/certificate';

function summary(certificate: X509Certificate): CertificateSummaryBody {
  return {
    subject: certificate.subject,
    issuer: certificate.issuer,
    serialNumber: certificate.serialNumber,
    fingerprint256: certificate.fingerprint256,
    validFrom: Date.parse(certificate.validFrom),
    validTo: Date.parse(certificate.validTo),
  };
}

/** The file name the certificate downloads as: the marketplace's host, so several can sit side by side. */
function certificateFileName(publicUrl: string): string {
  return `${new URL(publicUrl).host.replace(/[^A-Za-z0-9.-]/g, '_')}-plugin-signing.pem`;
}

/**
 * The signature routes of api-contract/src/signatures.ts: the marketplace's certificate for everyone, the
 * vendors that must sign for administrators.
 */
export function signatureRoutes(options: SigningOptions): FastifyPluginAsyncTypebox {
  return async (app) => {
    const identity = () => signingIdentity(app.db, options, app.config.publicUrl);

    app.get(
      CERTIFICATE_PATH,
      {
        config: { auth: { rule: 'public' } },
        schema: {
          tags: ['trust'],
          summary:
            'The certificate to add to the IDE (PEM): every archive this marketplace accepts is countersigned with a chain ending in it',
          produces: ['application/x-pem-file'],
        },
      },
      async (_request, reply) => {
        const pem = certificateToTrust(await identity()).toString();
        // Its own Cache-Control: the answer cache would not repeat the Content-Disposition of a kept answer.
        return reply
          .type('application/x-pem-file')
          .header('content-disposition', attachmentDisposition(certificateFileName(app.config.publicUrl)))
          .header('cache-control', 'public, max-age=300')
          .send(pem.endsWith('\n') ? pem : `${pem}\n`);
      },
    );

    app.get(
      `${CERTIFICATE_PATH}/details`,
      {
        config: { auth: { rule: 'public' }, cache: 'public' },
        schema: {
          tags: ['trust'],
          summary: "The marketplace's countersigning certificate and chain, described",
          response: { 200: MarketplaceCertificateSchema },
        },
      },
      async () => {
        const current = await identity();
        return {
          certificate: summary(certificateToTrust(current)),
          chain: current.chain.map(summary),
          downloadPath: CERTIFICATE_PATH,
        };
      },
    );

    app.get(
      '/api/admin/trust/signature-requirements',
      {
        config: { auth: ADMIN },
        schema: {
          tags: ['admin'],
          summary:
            "The vendors that must sign their plugins, and the roots the operator trusts for authors' chains (administrators)",
          response: { 200: SignatureRequirementsSchema, ...errors },
        },
      },
      async () => ({
        requirements: await listSignatureRequirements(app.db),
        trustedRoots: options.trustedRoots.map(summary),
      }),
    );

    app.post(
      '/api/admin/trust/signature-requirements',
      {
        config: { auth: ADMIN },
        schema: {
          tags: ['admin'],
          summary: 'Require signed uploads of a vendor from now on (administrators; kept in the audit log)',
          body: RequireSignaturesBody,
          response: { 200: SignatureRequirementSchema, ...errors },
        },
      },
      async (request) => {
        const viewer = signedInViewer(request);
        const reason = request.body.reason?.trim();
        const requirement = await requireSignatures(app.db, {
          vendor: request.body.vendor,
          adminId: viewer.user.id,
          ...(reason ? { reason } : {}),
        });
        request.log.info({ vendorId: requirement.vendor.id }, 'signatures required of a vendor');
        return requirement;
      },
    );

    app.post(
      '/api/admin/trust/signature-requirements/:vendorId/lift',
      {
        config: { auth: ADMIN },
        schema: {
          tags: ['admin'],
          summary: 'Stop requiring signed uploads of a vendor (administrators; kept in the audit log)',
          params: SignatureRequirementParams,
          body: LiftSignatureRequirementBody,
          response: { 200: SignatureRequirementLiftedSchema, ...errors },
        },
      },
      async (request) => {
        const viewer = signedInViewer(request);
        const reason = request.body?.reason?.trim();
        const lifted = await liftSignatureRequirement(app.db, {
          vendorId: request.params.vendorId,
          adminId: viewer.user.id,
          ...(reason ? { reason } : {}),
        });
        request.log.info({ vendorId: lifted.vendor.id }, 'signature requirement lifted');
        return lifted;
      },
    );
  };
}
