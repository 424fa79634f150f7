import type {
  FalsePositive,
  FalsePositiveInput,
  UpdateProducts,
  UpdateVerification,
  Verification,
  VerificationComparison,
  VerificationJob,
  VerificationJobState,
  VerificationQueue,
  VerificationSummary,
  VerifierVersion,
} from '@marketplace/api-contract';
import type { VerificationType } from '@marketplace/core';
import { pathId } from './paths';
import { buildQuery } from './query';
import type { ApiTransport, CallOptions } from './transport';

export type {
  FalsePositive,
  FalsePositiveInput,
  UpdateProducts,
  UpdateVerification,
  Verification,
  VerificationComparison,
  VerificationJob,
  VerificationQueue,
  VerificationSummary,
  VerifierVersion,
};

export interface VerificationQueueInput {
  state?: VerificationJobState;
  /** 20 jobs unless `max` says otherwise (at most 100). */
  max?: number;
  offset?: number;
}

const BASE = '/api/verifications';

/** The paths of spec §7's verification routes. */
export const verificationPaths = {
  queue: (input: VerificationQueueInput = {}) => `${BASE}${buildQuery({ ...input })}`,
  verifierVersion: () => `${BASE}/intellij-verifier-version`,
  application: (pluginId: number) => `${BASE}/application/${pathId('Plugin id', pluginId)}`,
  update: (updateId: number, verificationType?: VerificationType) =>
    `${BASE}/update/${pathId('Update id', updateId)}${buildQuery({ verificationType })}`,
  updateProducts: (updateId: number) => `${BASE}/update/${pathId('Update id', updateId)}/products`,
  discard: (verificationId: number) => `${BASE}/discard/${pathId('Verification id', verificationId)}`,
  verification: (verificationId: number, verificationType?: VerificationType) =>
    `${BASE}/${pathId('Verification id', verificationId)}${buildQuery({ verificationType })}`,
  previous: (verificationId: number) => `${BASE}/${pathId('Verification id', verificationId)}/previous`,
  falsePositive: () => `${BASE}/false-positive`,
  falsePositiveGlobal: () => `${BASE}/false-positive/global`,
  falsePositivesOfPlugin: (pluginId: number) =>
    `${BASE}/false-positive/plugin/${pathId('Plugin id', pluginId)}`,
};

/**
 * Verification of versions against the IDE builds they claim: results per build, findings, false positives.
 * Reads are for the item's people and administrators (the queue and global false positives for
 * administrators only); the checks' own version is public.
 */
export class VerificationClient {
  constructor(private readonly transport: ApiTransport) {}

  private get<T>(path: string, options: CallOptions): Promise<T> {
    return this.transport.sendJson<T>({ ...options, method: 'GET', path });
  }

  /** Administrators: the job queue, newest first. */
  queue(input: VerificationQueueInput = {}, options: CallOptions = {}): Promise<VerificationQueue> {
    return this.get(verificationPaths.queue(input), options);
  }

  verifierVersion(options: CallOptions = {}): Promise<VerifierVersion> {
    return this.get(verificationPaths.verifierVersion(), options);
  }

  /** The current verification of each version of a plugin, newest version first. */
  ofPlugin(pluginId: number, options: CallOptions = {}): Promise<VerificationSummary[]> {
    return this.get(verificationPaths.application(pluginId), options);
  }

  /** A version's newest job and current verification (only one check's findings with `verificationType`). */
  ofUpdate(
    updateId: number,
    verificationType?: VerificationType,
    options: CallOptions = {},
  ): Promise<UpdateVerification> {
    return this.get(verificationPaths.update(updateId, verificationType), options);
  }

  /** Queues the version to be verified again; resolves with the job (the waiting one, if there is one). */
  requestVerification(updateId: number, options: CallOptions = {}): Promise<VerificationJob> {
    return this.transport.sendJson({ ...options, method: 'POST', path: verificationPaths.update(updateId) });
  }

  /** The builds a version claims, with each one's status (null until verified). */
  products(updateId: number, options: CallOptions = {}): Promise<UpdateProducts> {
    return this.get(verificationPaths.updateProducts(updateId), options);
  }

  verification(
    verificationId: number,
    verificationType?: VerificationType,
    options: CallOptions = {},
  ): Promise<Verification> {
    return this.get(verificationPaths.verification(verificationId, verificationType), options);
  }

  /** Sets a verification aside: it is no longer its version's result. */
  discard(verificationId: number, options: CallOptions = {}): Promise<Verification> {
    return this.transport.sendJson({
      ...options,
      method: 'POST',
      path: verificationPaths.discard(verificationId),
    });
  }

  /** Compared with the current verification of the version uploaded before it in the same channel. */
  compareWithPrevious(verificationId: number, options: CallOptions = {}): Promise<VerificationComparison> {
    return this.get(verificationPaths.previous(verificationId), options);
  }

  /** Marks a finding a false positive for its plugin (`global`: for every plugin, administrators only). */
  markFalsePositive(
    input: FalsePositiveInput,
    scope: 'plugin' | 'global' = 'plugin',
    options: CallOptions = {},
  ): Promise<FalsePositive> {
    const path =
      scope === 'global' ? verificationPaths.falsePositiveGlobal() : verificationPaths.falsePositive();
    return this.transport.sendJson({ ...options, method: 'POST', path, json: input });
  }

  async unmarkFalsePositive(falsePositiveId: number, options: CallOptions = {}): Promise<void> {
    await this.transport.send({
      ...options,
      method: 'DELETE',
      path: `${verificationPaths.falsePositive()}${buildQuery({ id: pathId('False positive id', falsePositiveId) })}`,
    });
  }

  falsePositivesOfPlugin(pluginId: number, options: CallOptions = {}): Promise<FalsePositive[]> {
    return this.get(verificationPaths.falsePositivesOfPlugin(pluginId), options);
  }

  /** Administrators: false positives for every plugin. */
  globalFalsePositives(options: CallOptions = {}): Promise<FalsePositive[]> {
    return this.get(verificationPaths.falsePositiveGlobal(), options);
  }
}
