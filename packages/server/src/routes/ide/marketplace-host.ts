import {
  ErrorBody,
  FeatureImplementationsQuery,
  FeatureImplementationsResult,
  IdeCompatibleUpdatesQuery,
  IdeCompatibleUpdatesResult,
  IdeExtensionsResult,
  IntellijPluginMetadataSchema,
  IntellijUpdateMetadataSchema,
  MarketplaceAggregationResult,
  MarketplaceBrokenPluginsResult,
  MarketplaceBuildQuery,
  MarketplaceCommentsParams,
  MarketplaceCommentsQuery,
  MarketplaceIconQuery,
  MarketplaceNearestUpdatesResult,
  MarketplaceSearchQuery,
  MarketplaceSearchResult,
  NearestUpdatesBody,
  PluginHomepageQuery,
  PluginMetaParams,
  PluginReviewCommentsResult,
  PluginXmlIdsResult,
  UpdateMetaParams,
  type IntellijPluginMetadata,
  type MarketplaceSearchQuery as MarketplaceSearchQueryType,
  type MarketplaceSearchResult as MarketplaceSearchResultType,
} from '@marketplace/api-contract';
import { IDE_PRODUCTS, type IdeProductKey, type SortOrder } from '@marketplace/core';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { countUpdateChecks } from '../../insight/recorder';
import { ApiError } from '../../plugins/app/errors';
import { pluginPagePath, type StoredPluginSummary } from '../../search/plugin-summary';
import { loadPluginComments } from '../api/social-queries';
import { readIdeBuild } from './compatibility';
import {
  aggregateVisiblePlugins,
  featuredPluginIds,
  findVisiblePluginByXmlId,
  loadPluginMetadata,
  loadUpdateMetadata,
  narrowedVersions,
  newestInstallableVersions,
  newestVersions,
  visiblePluginXmlIds,
  type HostVersionRow,
} from './marketplace-host-queries';

/** Vendor names of JetBrains' own plugins (what `jbPluginsXMLIds.json` lists). */
const JETBRAINS_VENDOR_NAMES = ['JetBrains', 'JetBrains s.r.o.'] as const;

/** Reviews per page: the IDE's details page asks for 20 (ReviewsPageContainer). */
const REVIEWS_PER_PAGE = 20;

/** The first slice of the ordered catalogue a search reads; each further slice is twice as long, up to the cap. */
const FIRST_SLICE = 100;
const LARGEST_SLICE = 4000;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

/** A numeric id from a path; anything else is a 400 that says what was expected. */
function numericId(text: string, what: string): number {
  const value = /^\d{1,10}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || value < 1 || value > 2_147_483_647) {
    throw new ApiError('validation', `"${text}" is not a ${what} id; expected a number such as 42.`);
  }
  return value;
}

/** Review text is stored as plain text (src/reviews/sanitize.ts); the IDE shows `comment` as HTML. */
function textAsHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`).replace(/\n/g, '<br>');
}

/** Product codes an item runs on: those of the products it names, or of every IntelliJ-based IDE. */
function productCodesOf(products: readonly IdeProductKey[]): string[] {
  const keys =
    products.length > 0
      ? products
      : (Object.keys(IDE_PRODUCTS) as IdeProductKey[]).filter(
          (key) => IDE_PRODUCTS[key].family === 'intellij',
        );
  return [...new Set(keys.map((key) => IDE_PRODUCTS[key].code))].sort();
}

function nonEmpty(value: string | null | undefined): string | undefined {
  return value?.trim() ? value : undefined;
}

/**
 * The IDE's own marketplace client (reference: MarketplaceUrls / MarketplaceRequests of the IntelliJ
 * Platform), for IDEs started with `-Didea.plugins.host=<PUBLIC_URL>`: the Marketplace tab's searches and
 * staff picks, plugin details (both meta.json files, reviews, icons), the update check's calls and the
 * lists the IDE keeps. Answers are what a visitor may see, of the intellij family only, so they are public
 * and shared by caches (the IDE keeps several of them with their ETag and asks with If-None-Match).
 */
const marketplaceHostRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const publicRead = { cache: 'public' } as const;
  const absolute = (path: string) => app.config.publicUrl + path;

  app.get(
    '/files/pluginsXMLIds.json',
    {
      config: publicRead,
      schema: {
        tags: ['ide'],
        summary: 'The xmlIds of every plugin an IDE can find here (the IDE keeps the list)',
        response: { 200: PluginXmlIdsResult },
      },
    },
    async () => visiblePluginXmlIds(app.db),
  );

  app.get(
    '/files/jbPluginsXMLIds.json',
    {
      config: publicRead,
      schema: {
        tags: ['ide'],
        summary: "The xmlIds of JetBrains' own plugins here (usually none)",
        response: { 200: PluginXmlIdsResult },
      },
    },
    async () => visiblePluginXmlIds(app.db, JETBRAINS_VENDOR_NAMES),
  );

  app.get(
    '/files/brokenPlugins.json',
    {
      config: publicRead,
      schema: {
        tags: ['ide'],
        summary: 'Versions whose build range the owner narrowed after upload (the IDE disables them there)',
        response: { 200: MarketplaceBrokenPluginsResult },
      },
    },
    async () =>
      (await narrowedVersions(app.db)).map((row) => ({
        id: row.xmlId,
        version: row.version,
        since: row.since,
        until: row.until,
        originalSince: row.originalSince,
        originalUntil: row.originalUntil,
      })),
  );

  /** One search hit the way the IDE reads it, with the version it would install. */
  function toSearchHit(plugin: StoredPluginSummary, version: HostVersionRow) {
    const isPaid = plugin.pricingModel === 'PAID';
    const vendor = nonEmpty(plugin.vendor.name);
    return {
      xmlId: plugin.xmlId,
      id: String(plugin.id),
      name: plugin.name,
      rating: plugin.rating,
      cdate: Math.round(version.cdate),
      ...(vendor === undefined ? {} : { organization: vendor, vendor }),
      updateId: String(version.id),
      downloads: String(Math.round(plugin.downloads)),
      isPaid,
      paid: isPaid,
    };
  }

  /**
   * Text, tags and order come from the in-memory search; the vendor and staff-pick filters and the version
   * that installs into the IDE are applied to its results, slice after slice, until `max` hits are found
   * (the IDE drops hits without a version, so none is sent).
   */
  async function searchForIde(query: MarketplaceSearchQueryType): Promise<MarketplaceSearchResultType> {
    const ide = readIdeBuild(query.build);
    if (ide.product && ide.product.family !== 'intellij') return [];
    let orderBy: SortOrder | undefined = query.orderBy;
    let featured: Map<number, number> | undefined;
    if (query.is_featured_search) {
      const ids = ide.product ? await featuredPluginIds(app.db, ide.product.key) : undefined;
      if (ids === undefined) {
        // No featured list for this product: the staff picks are the best rated items.
        orderBy ??= 'rating';
      } else {
        if (ids.length === 0) return [];
        featured = new Map(ids.map((id, position) => [id, position]));
      }
    }
    const vendors = query.organization?.length ? new Set(query.organization) : undefined;
    const found: { pluginId: number; hit: MarketplaceSearchResultType[number] }[] = [];
    let featuredSeen = 0;
    let offset = 0;
    let slice = Math.min(Math.max(query.max * 2, FIRST_SLICE), LARGEST_SLICE);
    for (;;) {
      const page = await app.catalogueSearch.search(
        {
          search: query.search,
          tags: query.tags,
          products: ide.product ? [ide.product.key] : undefined,
          family: 'intellij',
          orderBy,
          max: slice,
          offset,
        },
        undefined,
      );
      const candidates = page.plugins.filter(
        (plugin) =>
          (vendors === undefined || vendors.has(plugin.vendor.name)) &&
          (featured === undefined || featured.has(plugin.id)),
      );
      featuredSeen += featured === undefined ? 0 : candidates.length;
      if (candidates.length > 0) {
        const versions = await newestInstallableVersions(app.db, ide, {
          ids: candidates.map((plugin) => plugin.id),
        });
        const versionOf = new Map(versions.map((version) => [version.plugin_id, version]));
        for (const plugin of candidates) {
          const version = versionOf.get(plugin.id);
          if (version) found.push({ pluginId: plugin.id, hit: toSearchHit(plugin, version) });
        }
      }
      offset += page.plugins.length;
      if (page.plugins.length < slice || offset >= page.total) break;
      const inFeaturedOrder = featured !== undefined && query.orderBy === undefined;
      if (inFeaturedOrder ? featuredSeen >= featured!.size : found.length >= query.max) break;
      slice = Math.min(slice * 2, LARGEST_SLICE);
    }
    if (featured !== undefined && query.orderBy === undefined) {
      const position = featured;
      found.sort((a, b) => position.get(a.pluginId)! - position.get(b.pluginId)!);
    }
    return found.slice(0, query.max).map((entry) => entry.hit);
  }

  app.get(
    '/api/search/plugins',
    {
      config: publicRead,
      schema: {
        tags: ['ide'],
        summary:
          "The IDE's plugin search: text, tags, vendors, staff picks and order; each hit with the version to install",
        querystring: MarketplaceSearchQuery,
        response: { 200: MarketplaceSearchResult, 400: ErrorBody },
      },
    },
    async (request) => searchForIde(request.query),
  );

  for (const field of ['tags', 'organizations'] as const) {
    app.get(
      `/api/search/aggregation/${field}`,
      {
        config: publicRead,
        schema: {
          tags: ['ide'],
          summary:
            field === 'tags'
              ? 'How many plugins for the IDE build carry each tag'
              : 'How many plugins for the IDE build each vendor has',
          querystring: MarketplaceBuildQuery,
          response: { 200: MarketplaceAggregationResult, 400: ErrorBody },
        },
      },
      async (request) => {
        const { build } = request.query;
        const ide = build === undefined ? undefined : readIdeBuild(build);
        if (ide?.product && ide.product.family !== 'intellij') return { aggregations: {}, total: 0 };
        return aggregateVisiblePlugins(app.db, field, ide);
      },
    );
  }

  app.get(
    '/files/:pluginId/:updateId/meta.json',
    {
      config: publicRead,
      schema: {
        tags: ['ide'],
        summary: 'What the IDE shows and checks about one version (IntellijUpdateMetadata)',
        params: UpdateMetaParams,
        response: { 200: IntellijUpdateMetadataSchema, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const pluginId = numericId(request.params.pluginId, 'plugin');
      const updateId = numericId(request.params.updateId, 'version (update)');
      const row = await loadUpdateMetadata(app.db, pluginId, updateId);
      if (!row) {
        throw new ApiError(
          'notFound',
          `Version ${updateId} of plugin ${pluginId} does not exist or is not available.`,
        );
      }
      const vendor = row.vendor_name ?? '';
      return {
        id: String(row.plugin_id),
        xmlId: row.xml_id,
        name: row.name,
        description: row.description,
        tags: row.tag_names,
        vendor,
        organization: vendor,
        version: row.version,
        notes: row.notes,
        dependencies: row.dependencies,
        // Only required dependencies are kept from plugin.xml (upload-service.ts).
        optionalDependencies: [],
        since: row.since_build,
        ...(row.until_build === null ? {} : { until: row.until_build }),
        url: absolute(pluginPagePath(row.plugin_id, row.name)),
        size: Math.round(row.file_size),
      };
    },
  );

  app.get(
    '/files/:pluginId/meta.json',
    {
      config: publicRead,
      schema: {
        tags: ['ide'],
        summary: 'Vendor, links and screenshots of a plugin (IntellijPluginMetadata)',
        params: PluginMetaParams,
        response: { 200: IntellijPluginMetadataSchema, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const pluginId = numericId(request.params.pluginId, 'plugin');
      const row = await loadPluginMetadata(app.db, pluginId);
      if (!row) throw new ApiError('notFound', `Plugin ${pluginId} does not exist or is not available.`);
      const vendorUrl = nonEmpty(row.vendor_url);
      const links: Omit<IntellijPluginMetadata, 'screenshots' | 'vendor'> = {};
      const forumUrl = nonEmpty(row.forum_url);
      const licenseUrl = nonEmpty(row.license_url);
      const bugtrackerUrl = nonEmpty(row.bugtracker_url);
      const documentationUrl = nonEmpty(row.doc_url);
      const sourceCodeUrl = nonEmpty(row.source_code_url);
      if (forumUrl) links.forumUrl = forumUrl;
      if (licenseUrl) links.licenseUrl = licenseUrl;
      if (bugtrackerUrl) links.bugtrackerUrl = bugtrackerUrl;
      if (documentationUrl) links.documentationUrl = documentationUrl;
      if (sourceCodeUrl) links.sourceCodeUrl = sourceCodeUrl;
      return {
        // The IDE fetches each screenshot by this address as it is, so it must be absolute.
        screenshots: row.screenshot_ids.map((id) => absolute(`/api/plugins/${row.id}/screenshots/${id}`)),
        vendor: {
          name: row.vendor_name ?? '',
          ...(vendorUrl === undefined ? {} : { url: vendorUrl }),
          isTrader: false,
          isVerified: row.vendor_verified === true,
        },
        ...links,
      };
    },
  );

  app.get(
    '/api/products/intellij/plugins/:xmlId/comments',
    {
      config: publicRead,
      schema: {
        tags: ['ide'],
        summary: 'Reviews of a plugin for the IDE, newest first, 20 a page',
        params: MarketplaceCommentsParams,
        querystring: MarketplaceCommentsQuery,
        response: { 200: PluginReviewCommentsResult, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const { xmlId } = request.params;
      const plugin = await findVisiblePluginByXmlId(app.db, xmlId);
      if (!plugin) throw new ApiError('notFound', `Plugin ${xmlId} does not exist or is not available.`);
      const { comments } = await loadPluginComments(
        app.db,
        plugin.id,
        undefined,
        request.query.page,
        REVIEWS_PER_PAGE,
      );
      return comments.map((comment) => ({
        id: String(comment.id),
        cdate: String(Math.round(comment.cdate)),
        comment: textAsHtml(comment.comment),
        rating: comment.rating,
        author: { name: comment.author.name },
        plugin: { link: absolute(comment.plugin.link) },
      }));
    },
  );

  app.get(
    '/api/icon',
    {
      config: publicRead,
      schema: {
        tags: ['ide'],
        summary: "A plugin's icon as SVG, by xmlId (the IDE keeps it as an .svg file; PNG icons answer 404)",
        querystring: MarketplaceIconQuery,
        response: {
          200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }),
          400: ErrorBody,
          404: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const { pluginId } = request.query;
      const plugin = await findVisiblePluginByXmlId(app.db, pluginId);
      if (!plugin?.icon_hash) throw new ApiError('notFound', `Plugin ${pluginId} has no icon.`);
      const file = await app.fileStore.open(plugin.icon_hash);
      if (!file) throw new ApiError('notFound', `The icon of ${pluginId} is not available.`);
      const chunks: Buffer[] = [];
      for await (const chunk of file.stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
      const body = Buffer.concat(chunks);
      // One icon is kept per plugin (no dark variant): theme=DARCULA gets the same one. The IDE saves the
      // answer as an .svg file, so a PNG icon would show as a broken image: it is better left out.
      const isSvg =
        !body.subarray(0, 4).equals(PNG_SIGNATURE) &&
        /<svg[\s>]/i.test(body.subarray(0, 2048).toString('utf8'));
      if (!isSvg) throw new ApiError('notFound', `Plugin ${pluginId} has no SVG icon.`);
      return reply
        .headers({
          'x-content-type-options': 'nosniff',
          'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
          'cross-origin-resource-policy': 'cross-origin',
        })
        .type('image/svg+xml')
        .send(body);
    },
  );

  app.get(
    '/api/search/updates/compatible',
    {
      // Not kept or replayed: every request is an IDE's update check, counted in the statistics.
      config: {},
      schema: {
        tags: ['ide'],
        summary: 'The newest version of each given plugin that installs into the IDE build (update check)',
        querystring: IdeCompatibleUpdatesQuery,
        response: { 200: IdeCompatibleUpdatesResult, 400: ErrorBody },
      },
    },
    async (request) => {
      const { build, pluginXmlId } = request.query;
      const ide = readIdeBuild(build);
      const xmlIds = pluginXmlId ?? [];
      const rows = await newestInstallableVersions(app.db, ide, { xmlIds });
      await countUpdateChecks(
        request,
        build,
        rows.map((row) => row.plugin_id),
      );
      const order = new Map(xmlIds.map((xmlId, index) => [xmlId, index]));
      return rows
        .sort((a, b) => order.get(a.xml_id)! - order.get(b.xml_id)!)
        .map((row) => ({
          id: String(row.id),
          pluginId: String(row.plugin_id),
          pluginXmlId: row.xml_id,
          version: row.version,
        }));
    },
  );

  app.post(
    '/api/search/updates/nearest',
    {
      config: { auth: { rule: 'public' }, readOnly: true, writeLimit: false },
      schema: {
        tags: ['ide'],
        summary: 'For each given plugin, the version nearest to the IDE build and whether it installs there',
        body: NearestUpdatesBody,
        response: { 200: MarketplaceNearestUpdatesResult, 400: ErrorBody },
      },
    },
    async (request) => {
      const { build, pluginXMLIds } = request.body;
      const ide = readIdeBuild(build);
      const [newest, installable] = await Promise.all([
        newestVersions(app.db, pluginXMLIds),
        newestInstallableVersions(app.db, ide, { xmlIds: pluginXMLIds }),
      ]);
      const installableOf = new Map(installable.map((row) => [row.plugin_id, row]));
      await countUpdateChecks(
        request,
        build,
        newest.map((row) => row.plugin_id),
      );
      const order = new Map(pluginXMLIds.map((xmlId, index) => [xmlId, index]));
      return newest
        .sort((a, b) => order.get(a.xml_id)! - order.get(b.xml_id)!)
        .map((row) => {
          const compatible = installableOf.get(row.plugin_id);
          return {
            id: String((compatible ?? row).id),
            xmlId: row.xml_id,
            products: productCodesOf(row.products),
            updateCompatibility: {},
            isCompatible: compatible !== undefined,
          };
        });
    },
  );

  app.get(
    '/plugin/index',
    {
      config: publicRead,
      schema: {
        tags: ['ide'],
        summary: "The IDE's plugin homepage link: redirects to the item page",
        querystring: PluginHomepageQuery,
        response: { 302: Type.Null(), 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const plugin = await findVisiblePluginByXmlId(app.db, request.query.xmlId);
      if (!plugin) {
        throw new ApiError('notFound', `Plugin ${request.query.xmlId} does not exist or is not available.`);
      }
      return reply.redirect(pluginPagePath(plugin.id, plugin.name), 302);
    },
  );

  // The plugin advertiser asks which plugins implement a file type, facet or run configuration, and the IDE
  // which plugins extend its extension points. We index no extension points of uploaded plugins, so both
  // answers are empty: the IDE then suggests nothing, which is what it does for an unknown feature.
  app.get(
    '/feature/getImplementations',
    {
      config: publicRead,
      schema: {
        tags: ['ide'],
        summary: 'Plugins implementing an IDE feature (always empty: extension points are not indexed)',
        querystring: FeatureImplementationsQuery,
        response: { 200: FeatureImplementationsResult },
      },
    },
    async () => [],
  );

  app.get(
    '/files/IDE/extensions.json',
    {
      config: publicRead,
      schema: {
        tags: ['ide'],
        summary:
          'Extension point -> plugins implementing it (always empty: extension points are not indexed)',
        querystring: MarketplaceBuildQuery,
        response: { 200: IdeExtensionsResult },
      },
    },
    async () => ({}),
  );
};

export default marketplaceHostRoutes;
