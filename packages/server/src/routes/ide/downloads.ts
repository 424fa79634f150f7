import { DownloadQuery, ErrorBody, PluginManagerQuery } from '@marketplace/api-contract';
import { consentFromCookies } from '@marketplace/core';
import { pluginVisibleTo, selectRows, versionVisibleTo, viewerOf, type Viewer } from '../../search/sql';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { recordDownload } from '../../db/catalogue-queries';
import type { Queryable } from '../../db/client';
import { ApiError } from '../../plugins/app/errors';
import { attachmentDisposition } from '../../storage';
import { newestCompatibleVersions, readIdeBuild } from './compatibility';

interface DownloadableRow {
  id: number;
  plugin_id: number;
  xml_id: string;
  version: string;
  file_hash: string;
  file_name: string;
  channel: string;
}

const DOWNLOADABLE_COLUMNS = sql`pv.id, pv.plugin_id, p.xml_id, pv.version, pv.file_hash, pv.file_name, pv.channel`;
const FROM_VISIBLE = (viewer: Viewer | undefined) =>
  sql`FROM plugin_versions pv JOIN plugins p ON p.id = pv.plugin_id
    WHERE ${pluginVisibleTo(viewer)} AND ${versionVisibleTo(viewer)}`;

async function versionById(db: Queryable, updateId: number, viewer: Viewer | undefined) {
  const rows = await selectRows<DownloadableRow>(
    db,
    sql`SELECT ${DOWNLOADABLE_COLUMNS} ${FROM_VISIBLE(viewer)} AND pv.id = ${updateId}`,
  );
  return rows[0];
}

async function versionByXmlId(
  db: Queryable,
  xmlId: string,
  version: string,
  channel: string,
  viewer: Viewer | undefined,
) {
  const rows = await selectRows<DownloadableRow>(
    db,
    sql`SELECT ${DOWNLOADABLE_COLUMNS} ${FROM_VISIBLE(viewer)}
      AND p.xml_id = ${xmlId} AND pv.version = ${version} AND pv.channel = ${channel}
      ORDER BY (p.family = 'intellij') DESC, p.id LIMIT 1`,
  );
  return rows[0];
}

/**
 * `attachment; filename="<xmlId>-<version>.zip"; filename*=UTF-8''<the same, exact>` (IDEs fail without it;
 * `.jar` when the archive is a jar). The IDE takes the text after the first `filename=` up to the next `;`,
 * strips one pair of quotes and refuses names with `<>:"|?*;`, slashes or control characters, so `filename`
 * keeps only letters, digits, `.`, `_`, `-` and `+`; `filename*` carries the exact name (RFC 8187) for
 * clients that read it. Built from the xml id, never the display name, which anyone can fill with anything.
 */
export function contentDisposition(xmlId: string, version: string, storedFileName: string): string {
  return attachmentDisposition(downloadFileName(xmlId, version, storedFileName));
}

/** `<xmlId>-<version>.zip`, or `.jar` when the archive is a jar. */
function downloadFileName(xmlId: string, version: string, storedFileName: string): string {
  return `${xmlId}-${version}${isJar(storedFileName) ? '.jar' : '.zip'}`;
}

function isJar(storedFileName: string): boolean {
  return storedFileName.toLowerCase().endsWith('.jar');
}

/** GET /plugin/download (by updateId, or by xmlId and version) and GET /pluginManager?action=download. */
const downloadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  async function send(
    request: FastifyRequest,
    reply: FastifyReply,
    row: DownloadableRow | undefined,
    what: string,
  ) {
    if (!row) throw new ApiError('notFound', `${what} does not exist or is not available.`);
    // A store that serves files itself (S3, when the operator allows it) answers a GET with a redirect:
    // the archive is checked to be there, counted, and fetched from the bucket by the client.
    const redirect =
      request.method === 'GET' &&
      app.config.storage.s3?.presignedDownloads === true &&
      app.fileStore.downloadUrl !== undefined;
    // A HEAD request only needs the size: one byte is opened (Fastify reads a HEAD answer's stream through).
    const file = redirect
      ? undefined
      : await app.fileStore.open(row.file_hash, request.method === 'HEAD' ? { start: 0, end: 0 } : {});
    if (redirect ? !(await app.fileStore.has(row.file_hash)) : !file) {
      request.log.error({ updateId: row.id, hash: row.file_hash }, 'archive missing from the file store');
      throw new ApiError('unavailable', 'The archive of this version cannot be read right now.');
    }
    // A HEAD request only asks about the file; only a GET is a download. The count and the insight event
    // are written together, so statistics never disagree with the public count.
    try {
      if (request.method === 'GET') {
        const at = new Date();
        const client = await app.insightRecorder.describe(
          {
            ip: request.ip,
            userAgent: request.headers['user-agent'],
            buildParameter: (request.query as { build?: string }).build,
            consent: consentFromCookies(request.headers.cookie),
          },
          at,
        );
        await app.db.transaction(async (tx) => {
          await recordDownload(tx, row.id, at);
          await app.insightRecorder.recordDownload(
            tx,
            client,
            { pluginId: row.plugin_id, version: row.version, channel: row.channel },
            at,
          );
        });
      }
    } catch (error) {
      // The opened file is not sent: let go of it (an S3 answer holds a connection).
      file?.stream.destroy();
      throw error;
    }
    const contentType = isJar(row.file_name) ? 'application/java-archive' : 'application/zip';
    if (!file) {
      const url = await app.fileStore.downloadUrl?.(row.file_hash, {
        fileName: downloadFileName(row.xml_id, row.version, row.file_name),
        contentType,
        expiresInSeconds: app.config.storage.s3?.presignedUrlSeconds ?? 300,
      });
      if (url === undefined) throw new Error(`No download address for the stored file ${row.file_hash}.`);
      return reply.code(302).header('location', url).header('cache-control', 'no-store').send();
    }
    // Repr-Digest: the archive's SHA-256 (RFC 9530), so a mirror of this marketplace can check what it received.
    return reply
      .type(contentType)
      .header('content-length', String(file.size))
      .header('content-disposition', contentDisposition(row.xml_id, row.version, row.file_name))
      .header('x-content-type-options', 'nosniff')
      .header('repr-digest', `sha-256=:${Buffer.from(row.file_hash, 'hex').toString('base64')}:`)
      .send(file.stream);
  }

  app.get(
    '/plugin/download',
    {
      compress: false,
      schema: {
        tags: ['ide'],
        summary: 'Download a version: by updateId, or by pluginId (xmlId) and version',
        querystring: DownloadQuery,
        response: {
          200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }),
          400: ErrorBody,
          404: ErrorBody,
          503: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const { updateId, pluginId, version, channel } = request.query;
      if (updateId !== undefined) {
        return send(
          request,
          reply,
          await versionById(app.db, updateId, viewerOf(request)),
          `Version ${updateId}`,
        );
      }
      if (pluginId !== undefined && version !== undefined) {
        const row = await versionByXmlId(app.db, pluginId, version, channel, viewerOf(request));
        return send(request, reply, row, `Version ${version} of ${pluginId}`);
      }
      throw new ApiError('validation', 'Give updateId, or pluginId (the plugin.xml id) and version.');
    },
  );

  // The IDE's download URL is `<host>/pluginManager?id=..&build=..` (its setting ends with a slash).
  for (const url of ['/pluginManager', '/pluginManager/']) {
    app.get(
      url,
      {
        compress: false,
        schema: {
          tags: ['ide'],
          summary: 'Download the newest version of a plugin compatible with an IDE build',
          querystring: PluginManagerQuery,
          response: {
            200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }),
            400: ErrorBody,
            404: ErrorBody,
            503: ErrorBody,
          },
        },
      },
      async (request, reply) => {
        const { id, build, channel } = request.query;
        const [newest] = await newestCompatibleVersions(app.db, readIdeBuild(build), {
          channel,
          xmlIds: [id],
          viewer: viewerOf(request),
        });
        const row = newest && (await versionById(app.db, newest.id, viewerOf(request)));
        return send(request, reply, row, `A version of ${id} compatible with ${build}`);
      },
    );
  }
};

export default downloadRoutes;
