import {
  ChannelParams,
  CompatibleUpdatesBody,
  CompatibleUpdatesResult,
  ErrorBody,
  NearestUpdatesQuery,
  NearestUpdatesResult,
  PluginsListQuery,
} from '@marketplace/api-contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { etagMatches, isPersonalRequest, VARY_HEADERS, withVary } from '../../plugins/app/answer-cache';
import { countUpdateChecks } from '../../insight/recorder';
import { downloadPath } from '../api/plugin-queries';
import { newestCompatibleVersions, readIdeBuild, type CompatibleVersionRow } from './compatibility';
import { XmlWriter } from './xml';

const XML_TYPE = 'application/xml; charset=utf-8';

/**
 * Whether the client takes gzip (the IDE always does): `gzip` or `x-gzip` or `*` in Accept-Encoding with a
 * quality above zero.
 */
export function acceptsGzip(acceptEncoding: string | string[] | undefined): boolean {
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : (acceptEncoding ?? '');
  return header.split(',').some((entry) => {
    const [coding = '', ...parameters] = entry.split(';').map((part) => part.trim().toLowerCase());
    if (coding !== 'gzip' && coding !== 'x-gzip' && coding !== '*') return false;
    const quality = parameters.find((parameter) => parameter.startsWith('q='));
    return quality === undefined || Number(quality.slice(2)) > 0;
  });
}

/** The simple `updatePlugins.xml` shape: one `<plugin id url version>` per plugin id. */
export function updatePluginsXml(rows: readonly CompatibleVersionRow[], publicUrl: string): string {
  const xml = new XmlWriter().open('plugins').newline();
  for (const row of rows) {
    xml
      .open('plugin', { id: row.xml_id, url: publicUrl + downloadPath(row.id), version: row.version })
      .empty('idea-version', { 'since-build': row.since_build, 'until-build': row.until_build })
      .text('name', row.name)
      .text('vendor', row.vendor_name ?? '', { email: row.vendor_email ?? '', url: row.vendor_url ?? '' })
      .html('description', row.description)
      .html('change-notes', row.notes)
      .close('plugin')
      .newline();
  }
  return xml.close('plugins').newline().toString();
}

/** What real IDEs call to list, update and find plugins (reference/ide-interop.md §2 and §5). */
const feedRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const xmlAnswer = { 200: Type.String({ description: 'XML' }), 400: ErrorBody };

  /**
   * The `<plugin-repository>` feed from the fragments this process keeps (src/ide-feed): streamed, gzip
   * when the client takes it, with its exact length and an ETag known before the first byte.
   */
  async function sendRepositoryFeed(
    request: FastifyRequest,
    reply: FastifyReply,
    query: { build: string; channel: string; pluginId?: string[] | undefined },
  ) {
    const ide = readIdeBuild(query.build);
    const xmlIds = query.pluginId === undefined ? undefined : new Set(query.pluginId);
    const gzip = acceptsGzip(request.headers['accept-encoding']);
    const answer = await app.ideFeed.answer(ide, query.channel, xmlIds, gzip);
    reply
      .header('vary', withVary(reply.getHeader('vary'), VARY_HEADERS))
      .header(
        'cache-control',
        isPersonalRequest(request.headers)
          ? 'private, no-cache'
          : `public, max-age=${app.config.cacheMaxAgeSeconds}`,
      )
      .header('etag', answer.etag);
    if (etagMatches(request.headers['if-none-match'], answer.etag)) return reply.code(304).send();
    if (gzip) reply.header('content-encoding', 'gzip');
    reply.type(XML_TYPE).header('content-length', String(answer.length));
    if (!answer.buffers) return reply.send(answer.body());
    // The buffers are the store's (nothing is copied) and all handed to the connection at once, as a static
    // server hands over a file: streamed one drain at a time, 32 clients reading 10 MB each starved one
    // another (p99 8 s where the static server had 1 s).
    reply.hijack();
    const response = reply.raw;
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) response.setHeader(name, typeof value === 'number' ? String(value) : value);
    }
    response.writeHead(200);
    if (request.method !== 'HEAD') {
      response.cork();
      for (const buffer of answer.buffers) response.write(buffer);
    }
    response.end();
    return reply;
  }

  // The IDE asks for `/plugins/list/` (its default list URL ends with a slash); both forms answer alike.
  for (const url of ['/plugins/list', '/plugins/list/']) {
    app.get(
      url,
      {
        compress: false,
        schema: {
          tags: ['ide'],
          summary:
            'The plugin repository feed for an IDE build (the newest compatible version of each plugin)',
          querystring: PluginsListQuery,
          response: xmlAnswer,
        },
      },
      async (request, reply) => sendRepositoryFeed(request, reply, request.query),
    );
  }

  for (const url of ['/plugins/:channel/list', '/plugins/:channel/list/']) {
    app.get(
      url,
      {
        compress: false,
        schema: {
          tags: ['ide'],
          summary: 'The plugin repository feed of one channel',
          params: ChannelParams,
          querystring: Type.Object({ build: PluginsListQuery.properties.build }),
          response: xmlAnswer,
        },
      },
      async (request, reply) =>
        sendRepositoryFeed(request, reply, { build: request.query.build, channel: request.params.channel }),
    );
  }

  for (const url of ['/updatePlugins.xml', '/updatePlugins.xml/']) {
    app.get(
      url,
      {
        config: { cache: 'public' },
        schema: {
          tags: ['ide'],
          summary: 'The simple custom-repository feed (updatePlugins.xml) for an IDE build',
          querystring: PluginsListQuery,
          response: xmlAnswer,
        },
      },
      async (request, reply) => {
        const { build, channel, pluginId } = request.query;
        const rows = await newestCompatibleVersions(app.db, readIdeBuild(build), {
          channel,
          xmlIds: pluginId,
        });
        return reply.type(XML_TYPE).send(updatePluginsXml(rows, app.config.publicUrl));
      },
    );
  }

  const compatibleSchema = {
    tags: ['ide'],
    body: CompatibleUpdatesBody,
    response: { 200: CompatibleUpdatesResult, 400: ErrorBody },
  };
  async function compatibleUpdates(request: FastifyRequest, body: CompatibleUpdatesBody) {
    const xmlIds = body.module === undefined ? body.pluginXMLIds : [...body.pluginXMLIds, body.module];
    const rows = await newestCompatibleVersions(app.db, readIdeBuild(body.build), {
      channel: body.channel,
      xmlIds,
    });
    await countUpdateChecks(
      request,
      body.build,
      rows.map((row) => row.plugin_id),
    );
    return rows.map((row) => ({
      id: row.id,
      pluginId: row.plugin_id,
      pluginXmlId: row.xml_id,
      version: row.version,
    }));
  }

  app.post(
    '/api/search/updates/compatible',
    {
      config: { auth: { rule: 'public' }, readOnly: true, writeLimit: false },
      schema: { ...compatibleSchema, summary: 'The newest compatible version of each given plugin' },
    },
    async (request) => compatibleUpdates(request, request.body),
  );
  app.post(
    '/api/search/compatibleUpdates',
    {
      config: { auth: { rule: 'public' }, readOnly: true, writeLimit: false },
      schema: { ...compatibleSchema, summary: 'The older name of /api/search/updates/compatible' },
    },
    async (request) => compatibleUpdates(request, request.body),
  );

  app.get(
    '/api/search/updates/nearest',
    {
      // Not kept or replayed: every request is an IDE's update check, counted in the statistics.
      config: {},
      schema: {
        tags: ['ide'],
        summary: 'The newest compatible version of each given plugin, keyed by xmlId',
        querystring: NearestUpdatesQuery,
        response: { 200: NearestUpdatesResult, 400: ErrorBody },
      },
    },
    async (request) => {
      const { build, pluginXMLIds, channel } = request.query;
      const rows = await newestCompatibleVersions(app.db, readIdeBuild(build), {
        channel,
        xmlIds: pluginXMLIds,
      });
      await countUpdateChecks(
        request,
        build,
        rows.map((row) => row.plugin_id),
      );
      return Object.fromEntries(
        rows.map((row) => [
          row.xml_id,
          { xmlId: row.xml_id, id: row.id, pluginId: row.plugin_id, version: row.version },
        ]),
      );
    },
  );
};

export default feedRoutes;
