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
import { Type } from 'typebox';
import { downloadPath } from '../api/plugin-queries';
import { newestCompatibleVersions, readIdeBuild, type CompatibleVersionRow } from './compatibility';
import { XmlWriter } from './xml';

const XML_TYPE = 'application/xml; charset=utf-8';

/** The marketplace's own feed (`<plugin-repository>`), grouped by category, newest compatible version each. */
export function pluginRepositoryXml(rows: readonly CompatibleVersionRow[], publicUrl: string): string {
  const byCategory = new Map<string, CompatibleVersionRow[]>();
  for (const row of rows) {
    const category = row.category ?? 'Uncategorized';
    const list = byCategory.get(category) ?? [];
    list.push(row);
    byCategory.set(category, list);
  }
  const xml = new XmlWriter().open('plugin-repository').newline();
  for (const [category, plugins] of [...byCategory].sort(([a], [b]) => a.localeCompare(b))) {
    xml.open('category', { name: category }).newline();
    for (const row of plugins) {
      xml
        .open('idea-plugin', {
          downloads: row.downloads,
          size: row.file_size,
          date: Math.round(row.cdate),
          url: '',
        })
        .text('name', row.name)
        .text('id', row.xml_id)
        .html('description', row.description)
        .text('version', row.version)
        .text('vendor', row.vendor_name ?? '', { email: row.vendor_email ?? '', url: row.vendor_url ?? '' })
        .empty('idea-version', {
          min: 'n/a',
          max: 'n/a',
          'since-build': row.since_build,
          'until-build': row.until_build,
        })
        .html('change-notes', row.notes);
      for (const dependency of row.dependencies) xml.text('depends', dependency);
      xml
        .text('rating', row.rating_mean.toFixed(1))
        .text('download-url', publicUrl + downloadPath(row.id))
        .close('idea-plugin')
        .newline();
    }
    xml.close('category').newline();
  }
  return xml.close('plugin-repository').newline().toString();
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

  async function listFeed(build: string, channel: string, xmlIds: readonly string[] | undefined) {
    const rows = await newestCompatibleVersions(app.db, readIdeBuild(build), { channel, xmlIds });
    return pluginRepositoryXml(rows, app.config.publicUrl);
  }

  app.get(
    '/plugins/list',
    {
      config: { cache: 'public' },
      schema: {
        tags: ['ide'],
        summary: 'The plugin repository feed for an IDE build (the newest compatible version of each plugin)',
        querystring: PluginsListQuery,
        response: xmlAnswer,
      },
    },
    async (request, reply) => {
      const { build, channel, pluginId } = request.query;
      return reply.type(XML_TYPE).send(await listFeed(build, channel, pluginId));
    },
  );

  app.get(
    '/plugins/:channel/list',
    {
      config: { cache: 'public' },
      schema: {
        tags: ['ide'],
        summary: 'The plugin repository feed of one channel',
        params: ChannelParams,
        querystring: Type.Object({ build: PluginsListQuery.properties.build }),
        response: xmlAnswer,
      },
    },
    async (request, reply) =>
      reply.type(XML_TYPE).send(await listFeed(request.query.build, request.params.channel, undefined)),
  );

  app.get(
    '/updatePlugins.xml',
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
      const rows = await newestCompatibleVersions(app.db, readIdeBuild(build), { channel, xmlIds: pluginId });
      return reply.type(XML_TYPE).send(updatePluginsXml(rows, app.config.publicUrl));
    },
  );

  const compatibleSchema = {
    tags: ['ide'],
    body: CompatibleUpdatesBody,
    response: { 200: CompatibleUpdatesResult, 400: ErrorBody },
  };
  async function compatibleUpdates(body: { build: string; pluginXMLIds: string[]; channel: string }) {
    const rows = await newestCompatibleVersions(app.db, readIdeBuild(body.build), {
      channel: body.channel,
      xmlIds: body.pluginXMLIds,
    });
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
    async (request) => compatibleUpdates(request.body),
  );
  app.post(
    '/api/search/compatibleUpdates',
    {
      config: { auth: { rule: 'public' }, readOnly: true, writeLimit: false },
      schema: { ...compatibleSchema, summary: 'The older name of /api/search/updates/compatible' },
    },
    async (request) => compatibleUpdates(request.body),
  );

  app.get(
    '/api/search/updates/nearest',
    {
      config: { cache: 'public' },
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
