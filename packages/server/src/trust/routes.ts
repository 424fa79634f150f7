import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ClaimNamespaceBody,
  ErrorBody,
  GrantNamespaceBody,
  IdParams,
  NamespaceAdminListSchema,
  NamespaceClaimSchema,
  NamespaceClaimsSchema,
  NamespaceDecisionBody,
  NamespaceDecisionParams,
  NamespaceDnsCheckSchema,
  NamespaceListQuery,
} from '@marketplace/api-contract';
import { signedInViewer } from '../auth/authorization';
import { checkClaimDns } from './dns';
import {
  claimById,
  claimNamespace,
  claimsOfUser,
  decideClaim,
  grantNamespace,
  listClaims,
} from './namespaces';
import type { TrustOptions } from './options';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody } as const;
const ADMIN = { rule: 'admin' } as const;

/** The namespace routes of api-contract/src/trust.ts: vendors claim, administrators decide. */
export function trustRoutes(options: TrustOptions): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/api/trust/namespaces/mine',
      {
        config: { auth: { rule: 'signed-in' } },
        schema: {
          tags: ['trust'],
          summary: 'The namespace claims of the vendors I publish for, with the DNS record that proves each',
          response: { 200: NamespaceClaimsSchema, ...errors },
        },
      },
      async (request) => claimsOfUser(app.db, signedInViewer(request).user.id),
    );

    app.post(
      '/api/trust/namespaces',
      {
        config: { auth: { rule: 'signed-in' } },
        schema: {
          tags: ['trust'],
          summary: "Claim an id prefix (e.g. com.acme.) for one's vendor; an administrator decides",
          body: ClaimNamespaceBody,
          response: { 200: NamespaceClaimSchema, ...errors },
        },
      },
      async (request) => {
        const viewer = signedInViewer(request);
        const claim = await claimNamespace(app.db, options, {
          prefix: request.body.prefix,
          vendor: request.body.vendor,
          userId: viewer.user.id,
          isAdmin: viewer.isAdmin,
        });
        request.log.info({ claimId: claim.id, prefix: claim.prefix }, 'namespace claimed');
        return claim;
      },
    );

    app.get(
      '/api/admin/trust/namespaces',
      {
        config: { auth: ADMIN },
        schema: {
          tags: ['admin'],
          summary:
            'Namespace claims and grants, waiting ones first, and the reserved prefixes (administrators)',
          querystring: NamespaceListQuery,
          response: { 200: NamespaceAdminListSchema, ...errors },
        },
      },
      async (request) => ({
        reservedPrefixes: [...options.reservedPrefixes],
        claims: await listClaims(app.db, request.query.state),
      }),
    );

    app.post(
      '/api/admin/trust/namespaces',
      {
        config: { auth: ADMIN },
        schema: {
          tags: ['admin'],
          summary: 'Grant an id prefix to a vendor at once, reserved ones too (administrators)',
          body: GrantNamespaceBody,
          response: { 200: NamespaceClaimSchema, ...errors },
        },
      },
      async (request) => {
        const viewer = signedInViewer(request);
        const reason = request.body.reason?.trim();
        const claim = await grantNamespace(app.db, {
          prefix: request.body.prefix,
          vendor: request.body.vendor,
          adminId: viewer.user.id,
          ...(reason ? { reason } : {}),
        });
        request.log.info({ claimId: claim.id, prefix: claim.prefix }, 'namespace granted');
        return claim;
      },
    );

    app.post(
      '/api/admin/trust/namespaces/:id/:decision',
      {
        config: { auth: ADMIN },
        schema: {
          tags: ['admin'],
          summary: 'Approve or refuse a waiting namespace claim, or revoke an approved one (administrators)',
          params: NamespaceDecisionParams,
          body: NamespaceDecisionBody,
          response: { 200: NamespaceClaimSchema, ...errors },
        },
      },
      async (request) => {
        const viewer = signedInViewer(request);
        const reason = request.body?.reason?.trim();
        const claim = await decideClaim(app.db, {
          id: request.params.id,
          decision: request.params.decision,
          adminId: viewer.user.id,
          ...(reason ? { reason } : {}),
        });
        request.log.info({ claimId: claim.id, decision: request.params.decision }, 'namespace claim decided');
        return claim;
      },
    );

    app.get(
      '/api/admin/trust/namespaces/:id/dns',
      {
        config: { auth: ADMIN },
        schema: {
          tags: ['admin'],
          summary: "Look the claim's DNS TXT record up once and show what was found (administrators)",
          params: IdParams,
          response: { 200: NamespaceDnsCheckSchema, ...errors },
        },
      },
      async (request) => {
        const claim = await claimById(app.db, request.params.id);
        return checkClaimDns(claim.dnsRecord, { timeoutMs: options.dnsTimeoutMs });
      },
    );
  };
}
