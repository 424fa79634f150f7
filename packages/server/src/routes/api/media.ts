import { ErrorBody, IdParams } from '@marketplace/api-contract';
import { pluginVisibleTo, selectRows, viewerOf } from '../../search/sql';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { ApiError } from '../../plugins/app/errors';

/** Uploaded images are served inert: no sniffing, and an SVG's scripts cannot run in our origin. */
const INERT_IMAGE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  'cross-origin-resource-policy': 'cross-origin',
} as const;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

/** Icons are SVG or PNG (what plugin archives carry); the bytes say which. */
function iconContentType(head: Buffer): string {
  return head.subarray(0, 4).equals(PNG_SIGNATURE) ? 'image/png' : 'image/svg+xml';
}

/** GET /api/plugins/{id}/icon and /api/plugins/{id}/screenshots/{screenshotId}: images from the file store. */
const mediaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  async function sendStored(hash: string, contentType: string | undefined, what: string) {
    const file = await app.fileStore.open(hash);
    if (!file) throw new ApiError('notFound', `${what} is not available.`);
    const chunks: Buffer[] = [];
    for await (const chunk of file.stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    const body = Buffer.concat(chunks);
    return { body, contentType: contentType ?? iconContentType(body) };
  }

  app.get(
    '/api/plugins/:id/icon',
    {
      config: { cache: 'public' },
      schema: {
        tags: ['plugins'],
        summary: 'The icon (SVG or PNG)',
        params: IdParams,
        querystring: Type.Object({ v: Type.Optional(Type.String({ maxLength: 64 })) }),
        response: { 200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }), 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const [row] = await selectRows<{ icon_hash: string | null }>(
        app.db,
        sql`SELECT p.icon_hash FROM plugins p WHERE p.id = ${request.params.id} AND ${pluginVisibleTo(viewerOf(request))}`,
      );
      if (!row?.icon_hash) throw new ApiError('notFound', `Plugin ${request.params.id} has no icon.`);
      const { body, contentType } = await sendStored(row.icon_hash, undefined, 'The icon');
      return reply.headers(INERT_IMAGE_HEADERS).type(contentType).send(body);
    },
  );

  app.get(
    '/api/plugins/:id/screenshots/:screenshotId',
    {
      config: { cache: 'public' },
      schema: {
        tags: ['plugins'],
        summary: 'One screenshot',
        params: Type.Object({ ...IdParams.properties, screenshotId: IdParams.properties.id }),
        response: { 200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }), 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const [row] = await selectRows<{ file_hash: string; content_type: string }>(
        app.db,
        sql`SELECT s.file_hash, s.content_type FROM plugin_screenshots s JOIN plugins p ON p.id = s.plugin_id
          WHERE s.id = ${request.params.screenshotId} AND p.id = ${request.params.id}
            AND ${pluginVisibleTo(viewerOf(request))}`,
      );
      if (!row) throw new ApiError('notFound', `Screenshot ${request.params.screenshotId} does not exist.`);
      const type = /^image\/(png|jpeg|gif|webp|svg\+xml)$/.test(row.content_type)
        ? row.content_type
        : 'application/octet-stream';
      const { body, contentType } = await sendStored(row.file_hash, type, 'The screenshot');
      return reply.headers(INERT_IMAGE_HEADERS).type(contentType).send(body);
    },
  );
};

export default mediaRoutes;
