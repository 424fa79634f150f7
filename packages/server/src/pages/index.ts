import { mkdir } from 'node:fs/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { uploadTempDirectory } from '../publishing';
import { pagesOptionsFromEnv, type PagesOptions } from './options';
import { pageRoutes } from './routes';
import { webhelpRoutes } from './webhelp-routes';

export { pagesOptionsFromEnv, parseWebhelpOrigin, PagesConfigError, type PagesOptions } from './options';
export { renderPage, type RenderedPage } from './render';
export { readWebhelpArchive, webhelpContentType, type WebhelpLimits } from './webhelp-archive';
export { webhelpSecurityHeaders } from './webhelp-routes';

/**
 * Custom pages and webhelp: an item's people write pages in Markdown (rendered and sanitised like the
 * documentation tabs), nest, order and publish them, add images, and upload webhelp zips that are served,
 * sandboxed, under /webhelp/. Not wrapped in fastify-plugin: multipart parsing stays inside this scope.
 */
export default async function pages(
  app: FastifyInstance,
  partial: Partial<PagesOptions> = {},
): Promise<void> {
  const options: PagesOptions = { ...pagesOptionsFromEnv(), ...partial };
  const tempDir = uploadTempDirectory(app.config.dataDir);
  await mkdir(tempDir, { recursive: true });
  await app.register(multipart, {
    limits: {
      fileSize: Math.max(options.maxImageBytes, options.webhelpLimits.maxArchiveBytes) + 1,
      files: 1,
    },
  });
  await app.register(pageRoutes({ ...options, tempDir }));
  await app.register(
    webhelpRoutes({ webhelpOrigin: options.webhelpOrigin, publicUrl: app.config.publicUrl }),
  );
}
