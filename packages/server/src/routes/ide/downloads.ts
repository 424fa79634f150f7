import { DownloadQuery, ErrorBody, PluginManagerQuery } from '@marketplace/api-contract';
import { pluginVisibleTo, selectRows, versionVisibleTo, viewerOf, type Viewer } from '../../search/sql';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { recordDownload } from '../../db/catalogue-queries';
import type { Queryable } from '../../db/client';
import { ApiError } from '../../plugins/app/errors';
import { newestCompatibleVersions, readIdeBuild } from './compatibility';

interface DownloadableRow {
  id: number;
  plugin_id: number;
  name: string;
  version: string;
  file_hash: string;
  file_name: string;
}

const DOWNLOADABLE_COLUMNS = sql`pv.id, pv.plugin_id, p.name, pv.version, pv.file_hash, pv.file_name`;
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
 * `attachment; filename="<name>-<version>.zip"` (IDEs fail without it), with the archive's own extension
 * when it is a jar. Characters that could break the header are replaced; the exact name also goes in
 * `filename*` for clients that read UTF-8.
 */
export function contentDisposition(name: string, version: string, storedFileName: string): string {
  const extension = storedFileName.toLowerCase().endsWith('.jar') ? '.jar' : '.zip';
  const exact = [...`${name}-${version}${extension}`]
    .map((character) =>
      character < ' ' || character === '\u007f' || character === '/' || character === '\\' ? '_' : character,
    )
    .join('');
  const ascii = exact.replace(/[^\u0020-\u007e]/g, '_').replaceAll('"', "'");
  const encoded = encodeURIComponent(exact).replace(
    /['()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return ascii === exact && !exact.includes('"')
    ? `attachment; filename="${ascii}"`
    : `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
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
    const file = await app.fileStore.open(row.file_hash);
    if (!file) {
      request.log.error({ updateId: row.id, hash: row.file_hash }, 'archive missing from the file store');
      throw new ApiError('unavailable', 'The archive of this version cannot be read right now.');
    }
    // A HEAD request only asks about the file; only a GET is a download.
    if (request.method === 'GET') await recordDownload(app.db, row.id);
    return reply
      .type(row.file_name.toLowerCase().endsWith('.jar') ? 'application/java-archive' : 'application/zip')
      .header('content-length', String(file.size))
      .header('content-disposition', contentDisposition(row.name, row.version, row.file_name))
      .header('x-content-type-options', 'nosniff')
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

  app.get(
    '/pluginManager',
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
};

export default downloadRoutes;
