import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import managementRoutes from './management-routes';
import { mediaRoutes } from './media-routes';
import moderationRoutes from './moderation-routes';
import { publishingOptionsFromEnv, type PublishingOptions } from './options';
import { sweepOrphanedFiles, type SweepResult } from './sweep';
import { signingOptionsFromEnv } from '../trust';
import type { UploadEnvironment } from './upload-service';
import { uploadRoutes } from './upload-routes';

export { publishingOptionsFromEnv, PublishingConfigError, type PublishingOptions } from './options';
export { sweepOrphanedFiles, type SweepOptions, type SweepResult } from './sweep';

/** Where uploads are written while they arrive and are inspected: beside the file store, to rename cheaply. */
export function uploadTempDirectory(dataDir: string): string {
  return join(dataDir, 'uploads');
}

/**
 * Publishing and moderation: the upload endpoints, the owner's management API, the plugin lifecycle with
 * its audit log, admin notes and reports, and the work of the sweep of orphaned files ({@link sweepOrphans},
 * run by the admin scheduler). Not wrapped in
 * fastify-plugin: multipart parsing stays inside this scope.
 */
export default async function publishing(
  app: FastifyInstance,
  partialOptions: Partial<PublishingOptions> = {},
): Promise<void> {
  const options: PublishingOptions = { ...publishingOptionsFromEnv(), ...partialOptions };
  const tempDir = uploadTempDirectory(app.config.dataDir);
  await mkdir(tempDir, { recursive: true });
  await app.register(multipart, { limits: { fileSize: options.maxUploadBytes + 1, files: 1 } });

  // Refusals inside this scope are the client's to fix, but none is silent in the log (5xx are logged by the
  // error handler).
  app.addHook('onError', async (request, _reply, error) => {
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status < 500) {
      request.log.warn({ status, reason: error.message, url: request.url }, 'publishing request refused');
    }
  });

  // Read (and the key files checked) once, at start: a wrong signing setting stops the start.
  const signing = signingOptionsFromEnv();
  const environment = (request: { log: UploadEnvironment['log'] }): UploadEnvironment => ({
    db: app.db,
    fileStore: app.fileStore,
    options,
    signing,
    publicUrl: app.config.publicUrl,
    tempDir,
    log: request.log,
  });
  await uploadRoutes(app, environment);
  await app.register(managementRoutes);
  await app.register(mediaRoutes(options));
  await app.register(moderationRoutes);
}

/**
 * The sweep of orphaned files, once: the admin scheduler (src/admin/scheduler) runs it every
 * SWEEP_INTERVAL_SECONDS. Safe beside uploads in flight and on several nodes at once.
 */
export async function sweepOrphans(app: FastifyInstance): Promise<string> {
  const options = publishingOptionsFromEnv();
  const result: SweepResult = await sweepOrphanedFiles(app.db, app.fileStore, {
    graceMs: options.orphanGraceMs,
    temporaryDirectories: [uploadTempDirectory(app.config.dataDir)],
  });
  const removed = {
    removedFiles: result.removedFiles.length,
    removedClaims: result.removedClaims,
    removedTemporaryFiles: result.removedTemporaryFiles,
  };
  if (removed.removedFiles + removed.removedClaims + removed.removedTemporaryFiles > 0) {
    app.log.info(removed, 'swept orphaned files');
  }
  return `Removed ${removed.removedFiles} unreferenced file(s), ${removed.removedClaims} abandoned claim(s) and ${removed.removedTemporaryFiles} temporary file(s).`;
}
