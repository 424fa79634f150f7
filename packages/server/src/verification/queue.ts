import type { Queryable } from '../db/client';
import { leaseQueue } from '../db/lease-queue';

/**
 * The job queue of verification: a plain table (`verification_jobs`) worked by the lease queue of
 * src/db/lease-queue.ts (claimed with `FOR UPDATE SKIP LOCKED` under a lease, taken up again once a dead
 * worker's lease has expired, until its attempts are used up). Safe on several nodes at once.
 */
export const verificationQueue = leaseQueue('verification_jobs', {
  noun: 'verification',
  doing: 'verifying',
});

/**
 * Queues a verification of a version, unless one is already waiting or running. Publishing calls it in the
 * transaction that writes an uploaded version, so every version gets a job and no upload waits for one.
 */
export function enqueueVerification(
  db: Queryable,
  versionId: number,
  options: { requestedBy?: number | null; maxAttempts?: number } = {},
): Promise<number> {
  return verificationQueue.enqueue(db, versionId, options);
}

/** Claims the oldest job that is queued and due, or running under an expired lease. */
export const claimJob = verificationQueue.claim;

/** Marks the job done; false when the lease was lost, in which case the caller must roll back. */
export const completeJob = verificationQueue.complete;
