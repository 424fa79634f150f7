import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import managementRoutes from './management-routes';
import { mediaRoutes } from './media-routes';
import moderationRoutes from './moderation-routes';
import { publishingOptionsFromEnv, type PublishingOptions } from './options';
import { sweepOrphanedFiles, type SweepResult } from './sweep';
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
 * its audit log, admin notes and reports, and the periodic sweep of orphaned files. Not wrapped in
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

  const environment = (request: { log: UploadEnvironment['log'] }): UploadEnvironment => ({
    db: app.db,
    fileStore: app.fileStore,
    options,
    publicUrl: app.config.publicUrl,
    tempDir,
    log: request.log,
  });
  await uploadRoutes(app, environment);
  await app.register(managementRoutes);
  await app.register(mediaRoutes(options));
  await app.register(moderationRoutes);

  const sweep = async (): Promise<SweepResult | undefined> => {
    try {
      const result = await sweepOrphanedFiles(app.db, app.fileStore, {
        graceMs: options.orphanGraceMs,
        temporaryDirectories: [tempDir],
      });
      if (result.removedFiles.length + result.removedClaims + result.removedTemporaryFiles > 0) {
        app.log.info(
          {
            removedFiles: result.removedFiles.length,
            removedClaims: result.removedClaims,
            removedTemporaryFiles: result.removedTemporaryFiles,
          },
          'swept orphaned files',
        );
      }
      return result;
    } catch (error) {
      app.log.error({ err: error }, 'the sweep of orphaned files failed');
      return undefined;
    }
  };
  if (options.sweepIntervalMs > 0) {
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<unknown> | undefined;
    const sweepOnce = () => {
      running ??= sweep().finally(() => {
        running = undefined;
      });
    };
    app.addHook('onReady', async () => {
      sweepOnce();
      timer = setInterval(sweepOnce, options.sweepIntervalMs);
      timer.unref();
    });
    app.addHook('onClose', async () => {
      if (timer) clearInterval(timer);
      await running;
    });
  }
}
