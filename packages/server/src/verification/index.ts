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
 * Verification: the `/api/verifications/...` routes and the in-process worker that verifies queued
 * versions every `workerIntervalMs` (VERIFICATION_INTERVAL_SECONDS), one job at a time per node.
 */
export default async function verification(
  app: FastifyInstance,
  partialOptions: Partial<VerificationOptions> = {},
): Promise<void> {
  const options: VerificationOptions = { ...verificationOptionsFromEnv(), ...partialOptions };
  const env = verificationEnvironment(app, options);
  await mkdir(env.tempDir, { recursive: true });
  await app.register(verificationRoutes(env));

  if (options.workerIntervalMs > 0) {
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<unknown> | undefined;
    const tick = () => {
      running ??= runVerificationWorker(env)
        .catch((error: unknown) => app.log.error({ err: error }, 'the verification worker failed'))
        .finally(() => {
          running = undefined;
        });
    };
    app.addHook('onReady', async () => {
      timer = setInterval(tick, options.workerIntervalMs);
      timer.unref();
    });
    app.addHook('onClose', async () => {
      if (timer) clearInterval(timer);
      await running;
    });
  }
}
