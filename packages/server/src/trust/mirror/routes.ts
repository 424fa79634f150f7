import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CreateMirrorUpstreamBody,
  ErrorBody,
  IdParams,
  MirrorReasonBody,
  MirrorUpstreamListSchema,
  MirrorUpstreamSchema,
  UpdateMirrorUpstreamBody,
} from '@marketplace/api-contract';
import { Type } from 'typebox';
import { signedInViewer } from '../../auth/authorization';
import { DEFAULT_MIRROR_BUILDS } from './options';
import { addUpstream, listUpstreams, markDue, removeUpstream, updateUpstream } from './repository';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody } as const;
const ADMIN = { rule: 'admin' } as const;

function reasonOf(body: { reason?: string | undefined } | null | undefined): string | undefined {
  const reason = body?.reason?.trim();
  return reason ? reason : undefined;
}

/** The administrators' mirror routes of api-contract/src/trust-mirrors.ts. */
export const mirrorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/admin/trust/mirrors',
    {
      config: { auth: ADMIN },
      schema: {
        tags: ['admin'],
        summary: 'The mirrored upstream marketplaces, their last sync and recent runs (administrators)',
        response: { 200: MirrorUpstreamListSchema, ...errors },
      },
    },
    async () => ({ upstreams: await listUpstreams(app.db), defaultBuilds: [...DEFAULT_MIRROR_BUILDS] }),
  );

  app.post(
    '/api/admin/trust/mirrors',
    {
      config: { auth: ADMIN },
      schema: {
        tags: ['admin'],
        summary:
          'Mirror another marketplace: every plugin or the chosen ones, on a schedule (administrators)',
        body: CreateMirrorUpstreamBody,
        response: { 200: MirrorUpstreamSchema, ...errors },
      },
    },
    async (request) => {
      const viewer = signedInViewer(request);
      const upstream = await addUpstream(app.db, request.body, {
        adminId: viewer.user.id,
        reason: reasonOf(request.body),
        ownUrl: app.config.publicUrl,
      });
      request.log.info({ upstreamId: upstream.id, baseUrl: upstream.baseUrl }, 'mirror upstream added');
      return upstream;
    },
  );

  app.put(
    '/api/admin/trust/mirrors/:id',
    {
      config: { auth: ADMIN },
      schema: {
        tags: ['admin'],
        summary: "Change a mirrored upstream's address, plugins, builds, interval or whether it is on",
        params: IdParams,
        body: UpdateMirrorUpstreamBody,
        response: { 200: MirrorUpstreamSchema, ...errors },
      },
    },
    async (request) => {
      const viewer = signedInViewer(request);
      return updateUpstream(app.db, request.params.id, request.body, {
        adminId: viewer.user.id,
        reason: reasonOf(request.body),
        ownUrl: app.config.publicUrl,
      });
    },
  );

  app.delete(
    '/api/admin/trust/mirrors/:id',
    {
      config: { auth: ADMIN },
      schema: {
        tags: ['admin'],
        summary: 'Stop mirroring an upstream; its mirrored items stay (administrators)',
        params: IdParams,
        querystring: Type.Object({ reason: Type.Optional(Type.String({ maxLength: 2000 })) }),
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      const viewer = signedInViewer(request);
      await removeUpstream(app.db, request.params.id, {
        adminId: viewer.user.id,
        reason: reasonOf(request.query),
      });
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/admin/trust/mirrors/:id/sync',
    {
      config: { auth: ADMIN },
      schema: {
        tags: ['admin'],
        summary:
          'Make an upstream due now; the trust-mirror job syncs it on its next run (or run it now) (administrators)',
        params: IdParams,
        body: MirrorReasonBody,
        response: { 200: MirrorUpstreamSchema, ...errors },
      },
    },
    async (request) => {
      const viewer = signedInViewer(request);
      return markDue(app.db, request.params.id, {
        adminId: viewer.user.id,
        reason: reasonOf(request.body),
      });
    },
  );
};
