import {
  ErrorBody,
  ProductAggregationQuery,
  ProductAggregationResult,
  SearchPluginsQuery,
  SearchPluginsResult,
  SearchSuggestQuery,
  SearchSuggestResult,
  TagListQuery,
  TagListSchema,
} from '@marketplace/api-contract';
import type { ProductFamily } from '@marketplace/core';
import { sql } from 'drizzle-orm';
import { selectRows, viewerOf } from '../../search/sql';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pluginPagePath, tagSearchPath } from '../../search/plugin-summary';
import { suggest } from '../../search/suggest';
import { setOffsetLinks } from '../pagination';

/** GET /api/searchPlugins, /api/searchSuggest, /api/search/aggregation/products and /api/tags. */
const searchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/searchPlugins',
    {
      config: { cache: 'public' },
      schema: {
        tags: ['search'],
        summary:
          'Search items: text (typo-tolerant), payment, tags (all of), products (any of), family, sort order',
        querystring: SearchPluginsQuery,
        response: { 200: SearchPluginsResult, 400: ErrorBody },
      },
    },
    async (request, reply) => {
      const result = await app.catalogueSearch.search(request.query, viewerOf(request));
      setOffsetLinks(request, reply, request.query.offset, request.query.max, result.total);
      // The index keeps no days: the page's charts are attached now (one query for those not kept).
      return { ...result, plugins: await app.recentDownloads.attach(result.plugins) };
    },
  );

  app.get(
    '/api/search/aggregation/products',
    {
      config: { cache: 'public' },
      schema: {
        tags: ['search'],
        summary: 'How many items match the other filters, per compatible IDE product',
        querystring: ProductAggregationQuery,
        response: { 200: ProductAggregationResult, 400: ErrorBody },
      },
    },
    async (request) => app.catalogueSearch.countByProduct(request.query, viewerOf(request)),
  );

  app.get(
    '/api/searchSuggest',
    {
      config: { cache: 'public' },
      schema: {
        tags: ['search'],
        summary: 'Item names and tags for the search box while typing',
        querystring: SearchSuggestQuery,
        response: { 200: SearchSuggestResult, 400: ErrorBody },
      },
    },
    async (request) => {
      const { term, family, max } = request.query;
      const found = await suggest(app.db, term, family, max, viewerOf(request));
      return {
        plugins: found.plugins.map((plugin) => ({
          id: plugin.id,
          name: plugin.name,
          xmlId: plugin.xml_id,
          link: pluginPagePath(plugin.id, plugin.name),
          family: plugin.family,
          isTheme: plugin.is_theme,
        })),
        tags: found.tags.map((tag) => ({ id: tag.id, name: tag.name, link: tagSearchPath(tag.name) })),
      };
    },
  );

  app.get(
    '/api/tags',
    {
      config: { cache: 'public' },
      schema: {
        tags: ['search'],
        summary:
          "The catalogue's tags by name, of one family if asked (the upload and manage forms pick from them)",
        querystring: TagListQuery,
        response: { 200: TagListSchema, 400: ErrorBody },
      },
    },
    async (request) => {
      const { family } = request.query;
      // A tag that names no family belongs to every family (as in the suggestions).
      const familyCondition = family
        ? sql`WHERE cardinality(t.families) = 0 OR ${family} = ANY (t.families)`
        : sql``;
      const rows = await selectRows<{
        id: number;
        name: string;
        privileged: boolean;
        searchable: boolean;
        families: ProductFamily[];
      }>(
        app.db,
        sql`SELECT t.id, t.name, t.privileged, t.searchable, t.families FROM tags t ${familyCondition}
          ORDER BY t.name`,
      );
      return rows.map((tag) => ({ ...tag, link: tagSearchPath(tag.name) }));
    },
  );
};

export default searchRoutes;
