import type {
  CreateMirrorUpstreamBody,
  MirrorSyncRunBody,
  MirrorUpstreamBody,
  MirrorUpstreamListBody,
  UpdateMirrorUpstreamBody,
} from '@marketplace/api-contract';
import { pathId } from './paths';
import { buildQuery } from './query';
import type { ApiTransport, CallOptions } from './transport';

export type MirrorUpstream = MirrorUpstreamBody;
export type MirrorUpstreamList = MirrorUpstreamListBody;
export type MirrorSyncRun = MirrorSyncRunBody;
export type NewMirrorUpstream = CreateMirrorUpstreamBody;
export type MirrorUpstreamChange = UpdateMirrorUpstreamBody;

const ADMIN = '/api/admin/trust/mirrors';

/** The paths of the mirror routes of api-contract's trust-mirrors.ts. */
export const mirrorPaths = {
  list: () => ADMIN,
  add: () => ADMIN,
  upstream: (upstreamId: number) => `${ADMIN}/${pathId('Upstream id', upstreamId)}`,
  sync: (upstreamId: number) => `${ADMIN}/${pathId('Upstream id', upstreamId)}/sync`,
};

/**
 * Administrators: the other marketplaces mirrored here (they speak the IDE's feed); the `trust-mirror`
 * scheduled job syncs those that are due.
 */
export class MirrorsClient {
  constructor(private readonly transport: ApiTransport) {}

  /** The mirrored upstreams with their last sync and recent runs, and the builds a feed is asked for by default. */
  list(options: CallOptions = {}): Promise<MirrorUpstreamList> {
    return this.transport.sendJson({ ...options, method: 'GET', path: mirrorPaths.list() });
  }

  /** Mirror another marketplace: every plugin or the listed ones; 400 with a sentence for a bad address or build. */
  add(input: NewMirrorUpstream, options: CallOptions = {}): Promise<MirrorUpstream> {
    return this.transport.sendJson({ ...options, method: 'POST', path: mirrorPaths.add(), json: input });
  }

  /** Change an upstream's address, plugins, builds or interval, or pause and resume it (`enabled`). */
  update(
    upstreamId: number,
    change: MirrorUpstreamChange,
    options: CallOptions = {},
  ): Promise<MirrorUpstream> {
    return this.transport.sendJson({
      ...options,
      method: 'PUT',
      path: mirrorPaths.upstream(upstreamId),
      json: change,
    });
  }

  /** Stop mirroring an upstream; the items it brought stay. */
  async remove(upstreamId: number, reason?: string, options: CallOptions = {}): Promise<void> {
    await this.transport.send({
      ...options,
      method: 'DELETE',
      path: `${mirrorPaths.upstream(upstreamId)}${buildQuery({ reason: reason || undefined })}`,
    });
  }

  /** Make an upstream due now: the next run of the `trust-mirror` job syncs it (or run the job at once). */
  sync(upstreamId: number, reason?: string, options: CallOptions = {}): Promise<MirrorUpstream> {
    return this.transport.sendJson({
      ...options,
      method: 'POST',
      path: mirrorPaths.sync(upstreamId),
      json: reason ? { reason } : {},
    });
  }
}
