import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ErrorBody,
  IdParams,
  PluginScansSchema,
  ScanActionBody,
  ScanActionParams,
  ScanQueueEntrySchema,
  ScanQueueQuery,
  ScanQueueSchema,
  VersionScanParams,
  VersionScanStatusSchema,
} from '@marketplace/api-contract';
import type { FastifyRequest } from 'fastify';
import { signedInViewer } from '../../auth/authorization';
import { managersOfPluginParam, pluginManagers } from '../../publishing/plugin-access';
import { BUILT_IN_ENGINE } from './scan';
import { actOnScan, listScans, pluginOfVersion, pluginScans, scanStatus } from './repository';
import { scannerFor } from './service';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody } as const;
const ADMIN = { rule: 'admin' } as const;

/** The scanning routes of api-contract/src/trust.ts: the administrators' queue and decisions, the vendor's views. */
export function scanningRoutes(): FastifyPluginAsyncTypebox {
  return async (app) => {
    const versionManagers = async (request: FastifyRequest): Promise<readonly number[] | undefined> => {
      const id = Number((request.params as { versionId?: unknown }).versionId);
      if (!Number.isSafeInteger(id) || id <= 0 || id > 2_147_483_647) return undefined;
      const pluginId = await pluginOfVersion(app.db, id);
      return pluginId === undefined ? undefined : pluginManagers(app.db, pluginId);
    };

    app.get(
      '/api/admin/trust/scans',
      {
        config: { auth: ADMIN },
        schema: {
          tags: ['admin'],
          summary: 'Versions by scan state (quarantined first of all), with their findings (administrators)',
          querystring: ScanQueueQuery,
          response: { 200: ScanQueueSchema, ...errors },
        },
      },
      async (request) => {
        const scanner = scannerFor(app);
        const page = await listScans(app.db, {
          state: request.query.state ?? 'quarantined',
          max: request.query.max ?? 50,
          offset: request.query.offset ?? 0,
        });
        return {
          ...page,
          quarantineSeverity: scanner.env.options.quarantineSeverity,
          engines: scanner.env.options.clamav ? [BUILT_IN_ENGINE, 'clamav'] : [BUILT_IN_ENGINE],
        };
      },
    );

    app.post(
      '/api/admin/trust/scans/:versionId/:action',
      {
        config: { auth: ADMIN },
        schema: {
          tags: ['admin'],
          summary:
            'Release or reject a quarantined version, or scan a version again (administrators; audited)',
          params: ScanActionParams,
          body: ScanActionBody,
          response: { 200: ScanQueueEntrySchema, ...errors },
        },
      },
      async (request) => {
        const viewer = signedInViewer(request);
        const reason = request.body?.reason?.trim();
        const entry = await actOnScan(app.db, {
          versionId: request.params.versionId,
          action: request.params.action,
          adminId: viewer.user.id,
          ...(reason ? { reason } : {}),
        });
        if (request.params.action === 'rescan') scannerFor(app).nudge();
        request.log.info(
          { versionId: entry.versionId, action: request.params.action, state: entry.state },
          'scan decision taken',
        );
        return entry;
      },
    );

    app.get(
      '/api/trust/scans/:versionId',
      {
        config: { auth: { rule: 'owner', ownerOf: versionManagers } },
        schema: {
          tags: ['trust'],
          summary: "A version's scan state and latest scan (the item's developers and administrators)",
          params: VersionScanParams,
          response: { 200: VersionScanStatusSchema, ...errors },
        },
      },
      async (request) => scanStatus(app.db, request.params.versionId, signedInViewer(request).isAdmin),
    );

    // The manage page's versions tab: one call for the versions held back or decided on, with the same
    // access as a single version's scan (the item's people and administrators; 404 for a deleted item).
    app.get(
      '/api/plugins/:id/scans',
      {
        config: { auth: { rule: 'owner', ownerOf: managersOfPluginParam(app.db) } },
        schema: {
          tags: ['trust'],
          summary:
            "The scan state and latest scan of the item's versions that scanning holds back or an administrator decided on (the item's developers and administrators)",
          params: IdParams,
          response: { 200: PluginScansSchema, ...errors },
        },
      },
      async (request) => pluginScans(app.db, request.params.id, signedInViewer(request).isAdmin),
    );
  };
}
