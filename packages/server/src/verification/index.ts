import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { publishingOptionsFromEnv } from '../publishing/options';
import { verificationOptionsFromEnv, type VerificationOptions } from './options';
import { verificationRoutes } from './routes';
import { runVerificationWorker, type VerificationEnvironment } from './worker';

export { enqueueVerification } from './queue';
export { runVerificationWorker, type VerificationEnvironment } from './worker';
export { verificationOptionsFromEnv, VerificationConfigError, type VerificationOptions } from './options';
export { BUILT_IN_CHECKERS, type Checker, type Finding } from './checkers';

/** Where archives are copied while they are verified: on the data disk, beside uploads. */
export function verificationTempDirectory(dataDir: string): string {
  return join(dataDir, 'verification');
}

/** The environment the worker runs in, for the plugin and for tests that call the worker directly. */
export function verificationEnvironment(
  app: FastifyInstance,
  options: VerificationOptions,
): VerificationEnvironment {
  const publishing = publishingOptionsFromEnv();
  return {
    db: app.db,
    fileStore: app.fileStore,
    tempDir: verificationTempDirectory(app.config.dataDir),
    options,
    archiveLimits: { ...publishing.archiveLimits, maxArchiveBytes: publishing.maxUploadBytes },
    log: app.log,
  };
}

/**
 * Verification: the `/api/verifications/...` routes, and the work of the job that verifies queued versions
 * ({@link workVerificationQueue}, run by the admin scheduler every VERIFICATION_INTERVAL_SECONDS).
 */
export default async function verification(
  app: FastifyInstance,
  partialOptions: Partial<VerificationOptions> = {},
): Promise<void> {
  const options: VerificationOptions = { ...verificationOptionsFromEnv(), ...partialOptions };
  const env = verificationEnvironment(app, options);
  await mkdir(env.tempDir, { recursive: true });
  await app.register(verificationRoutes(env));
}

/**
 * The verification queue, worked once until it is empty: the admin scheduler (src/admin/scheduler) runs it
 * every VERIFICATION_INTERVAL_SECONDS, on one node at a time (the queue's own leases would also allow more).
 */
export async function workVerificationQueue(app: FastifyInstance): Promise<string> {
  const verified = await runVerificationWorker(verificationEnvironment(app, verificationOptionsFromEnv()));
  return verified === 0 ? 'No version was waiting.' : `Verified ${verified} version(s).`;
}
