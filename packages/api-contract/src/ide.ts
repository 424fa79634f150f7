import { Type, type Static } from 'typebox';
import { SortOrderSchema } from './common';

const BuildText = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'The IDE build number, e.g. IU-241.14494.240',
});
const XmlIds = Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 1000 });

/** POST /api/search/updates/compatible (and the older /api/search/compatibleUpdates). */
export const CompatibleUpdatesBody = Type.Object({
  build: BuildText,
  pluginXMLIds: Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 1000, default: [] }),
  channel: Type.String({ maxLength: 100, default: '' }),
  /**
   * The IDE looks up the plugin that provides a dependency it lacks with `{"module": id, "build": ..}`
   * (MarketplaceRequests.getCompatibleUpdateByModule): a plugin whose xml id is that module.
   */
  module: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
});
export type CompatibleUpdatesBody = Static<typeof CompatibleUpdatesBody>;

export const CompatibleUpdateSchema = Type.Object({
  id: Type.Integer({ description: 'The version (update) id' }),
  pluginId: Type.Integer(),
  pluginXmlId: Type.String(),
  version: Type.String(),
});
export const CompatibleUpdatesResult = Type.Array(CompatibleUpdateSchema);
export type CompatibleUpdatesResult = Static<typeof CompatibleUpdatesResult>;

export const NearestUpdatesQuery = Type.Object({
  build: BuildText,
  pluginXMLIds: XmlIds,
  channel: Type.String({ maxLength: 100, default: '' }),
});
/** core's UpdateInfo, with the plugin's number. */
export const NearestUpdateSchema = Type.Object({
  xmlId: Type.String(),
  id: Type.Integer({ description: 'The version (update) id' }),
  pluginId: Type.Integer(),
  version: Type.String(),
});
export const NearestUpdatesResult = Type.Record(Type.String(), NearestUpdateSchema, {
  description: 'xmlId -> the newest version compatible with the build',
});

export const PluginsListQuery = Type.Object({
  build: BuildText,
  channel: Type.String({ maxLength: 100, default: '' }),
  pluginId: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 1000 })),
});
export const ChannelParams = Type.Object({ channel: Type.String({ maxLength: 100 }) });

export const DownloadQuery = Type.Object({
  updateId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
  pluginId: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'xmlId, with version' })),
  version: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  channel: Type.String({ maxLength: 100, default: '' }),
  rel: Type.Optional(Type.Boolean()),
  build: Type.Optional(
    Type.String({
      maxLength: 100,
      description: 'The IDE build downloading (IU-241.14494.240), for statistics',
    }),
  ),
});

/**
 * GET /pluginManager: `action=download` from old tooling; the IDE's own download URL (idea.plugins.host mode)
 * has no action and adds `uuid` and `updatedFrom`, which are read and ignored.
 */
export const PluginManagerQuery = Type.Object({
  action: Type.Optional(Type.Enum(['download'])),
  id: Type.String({ minLength: 1, maxLength: 255, description: 'xmlId' }),
  build: BuildText,
  channel: Type.String({ maxLength: 100, default: '' }),
});

/*
 * The IDE's own marketplace client, when it is started with `-Didea.plugins.host=<our URL>` (Settings |
 * Plugins | Marketplace browses, searches and installs from us). The shapes are the JSON the IDE parses
 * (MarketplaceRequests / PluginRepositoryObjects of the IntelliJ Platform): ids travel as strings, and a
 * field the IDE declares non-null is left out rather than sent as null.
 */

const NumericIdText = Type.String({ maxLength: 20, description: 'A numeric id' });

/** `?build=` of the calls that only narrow by the IDE build. */
export const MarketplaceBuildQuery = Type.Object({ build: Type.Optional(BuildText) });

/** GET /files/pluginsXMLIds.json and /files/jbPluginsXMLIds.json. */
export const PluginXmlIdsResult = Type.Array(Type.String(), { description: 'Plugin xmlIds' });

/** GET /files/brokenPlugins.json: versions whose build range an owner narrowed after upload. */
export const MarketplaceBrokenPluginSchema = Type.Object({
  id: Type.String({ description: 'The plugin xmlId' }),
  version: Type.String(),
  since: Type.String({ description: 'The since-build now' }),
  until: Type.String({ description: 'The until-build now' }),
  originalSince: Type.String({ description: 'The since-build of the uploaded plugin.xml' }),
  originalUntil: Type.String({ description: 'The until-build of the uploaded plugin.xml' }),
});
export const MarketplaceBrokenPluginsResult = Type.Array(MarketplaceBrokenPluginSchema);
export type MarketplaceBrokenPluginsResult = Static<typeof MarketplaceBrokenPluginsResult>;

/** GET /api/search/plugins: the IDE's search, as its Marketplace tab and search box send it. */
export const MarketplaceSearchQuery = Type.Object({
  build: BuildText,
  max: Type.Integer({ minimum: 1, maximum: 10_000, default: 20 }),
  all: Type.Optional(
    Type.Boolean({ description: 'Also incompatible items (ignored: only compatible ones)' }),
  ),
  os: Type.Optional(Type.String({ maxLength: 200 })),
  arch: Type.Optional(Type.String({ maxLength: 50 })),
  orderBy: Type.Optional(SortOrderSchema),
  is_featured_search: Type.Optional(Type.Boolean({ description: 'Staff picks: the featured items' })),
  tags: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 20 })),
  organization: Type.Optional(
    Type.Array(Type.String({ maxLength: 200 }), { maxItems: 20, description: 'Vendor names' }),
  ),
  search: Type.Optional(Type.String({ maxLength: 500 })),
});
export type MarketplaceSearchQuery = Static<typeof MarketplaceSearchQuery>;

export const MarketplaceSearchPluginSchema = Type.Object({
  xmlId: Type.String(),
  id: NumericIdText,
  name: Type.String(),
  rating: Type.Number(),
  cdate: Type.Optional(Type.Number({ description: 'Milliseconds since 1970 of the version offered' })),
  organization: Type.Optional(Type.String({ description: 'The vendor name' })),
  vendor: Type.Optional(Type.String({ description: 'The vendor name (older IDEs read this one)' })),
  updateId: NumericIdText,
  downloads: Type.String({ description: 'The download count, as digits' }),
  isPaid: Type.Boolean(),
  paid: Type.Boolean({ description: 'isPaid again: Jackson binds the Kotlin property isPaid as "paid"' }),
});
export const MarketplaceSearchResult = Type.Array(MarketplaceSearchPluginSchema);
export type MarketplaceSearchResult = Static<typeof MarketplaceSearchResult>;

/** GET /api/search/aggregation/tags and /organizations. */
export const MarketplaceAggregationResult = Type.Object({
  aggregations: Type.Record(Type.String(), Type.Integer(), { description: 'Name -> how many items' }),
  total: Type.Integer({ description: 'How many items were counted' }),
});
export type MarketplaceAggregationResult = Static<typeof MarketplaceAggregationResult>;

/** /files/{pluginId}/meta.json and /files/{pluginId}/{updateId}/meta.json (ids checked by the server). */
export const PluginMetaParams = Type.Object({ pluginId: Type.String({ maxLength: 40 }) });
export const UpdateMetaParams = Type.Object({
  pluginId: Type.String({ maxLength: 40 }),
  updateId: Type.String({ maxLength: 40 }),
});

/** What the IDE reads about one version (IntellijUpdateMetadata); it installs by xmlId and build. */
export const IntellijUpdateMetadataSchema = Type.Object({
  id: NumericIdText,
  xmlId: Type.String(),
  name: Type.String(),
  description: Type.String({ description: 'HTML' }),
  tags: Type.Array(Type.String()),
  vendor: Type.String(),
  organization: Type.String(),
  version: Type.String(),
  notes: Type.String({ description: 'Change notes, HTML' }),
  dependencies: Type.Array(Type.String()),
  optionalDependencies: Type.Array(Type.String()),
  since: Type.String(),
  until: Type.Optional(Type.String()),
  url: Type.String({ description: 'The item page' }),
  size: Type.Integer({ description: 'Archive size in bytes' }),
});
export type IntellijUpdateMetadata = Static<typeof IntellijUpdateMetadataSchema>;

/** What the IDE reads about a plugin besides its versions (IntellijPluginMetadata). */
export const IntellijPluginMetadataSchema = Type.Object({
  screenshots: Type.Array(Type.String({ description: 'Absolute URL' })),
  vendor: Type.Object({
    name: Type.String(),
    url: Type.Optional(Type.String()),
    isTrader: Type.Boolean(),
    isVerified: Type.Boolean(),
  }),
  forumUrl: Type.Optional(Type.String()),
  licenseUrl: Type.Optional(Type.String()),
  bugtrackerUrl: Type.Optional(Type.String()),
  documentationUrl: Type.Optional(Type.String()),
  sourceCodeUrl: Type.Optional(Type.String()),
});
export type IntellijPluginMetadata = Static<typeof IntellijPluginMetadataSchema>;

/** GET /api/products/intellij/plugins/{xmlId}/comments[?page=N]: reviews, 20 a page. */
export const MarketplaceCommentsParams = Type.Object({
  xmlId: Type.String({ minLength: 1, maxLength: 255 }),
});
export const MarketplaceCommentsQuery = Type.Object({
  page: Type.Integer({ minimum: 1, maximum: 100_000, default: 1 }),
});
export const PluginReviewCommentSchema = Type.Object({
  id: NumericIdText,
  cdate: Type.String({ description: 'Milliseconds since 1970, as digits' }),
  comment: Type.String({ description: 'HTML (the review text, escaped)' }),
  rating: Type.Integer({ minimum: 1, maximum: 5 }),
  author: Type.Object({ name: Type.String() }),
  plugin: Type.Object({ link: Type.String() }),
});
export const PluginReviewCommentsResult = Type.Array(PluginReviewCommentSchema);
export type PluginReviewCommentsResult = Static<typeof PluginReviewCommentsResult>;

/** GET /api/icon?pluginId=<xmlId>[&theme=DARCULA]. */
export const MarketplaceIconQuery = Type.Object({
  pluginId: Type.String({ minLength: 1, maxLength: 255, description: 'xmlId' }),
  theme: Type.Optional(Type.String({ maxLength: 50 })),
});

/** GET /api/search/updates/compatible: the IDE's update check and install-by-id. */
export const IdeCompatibleUpdatesQuery = Type.Object({
  build: BuildText,
  os: Type.Optional(Type.String({ maxLength: 200 })),
  mid: Type.Optional(Type.String({ maxLength: 200 })),
  arch: Type.Optional(Type.String({ maxLength: 50 })),
  pluginXmlId: Type.Optional(XmlIds),
});
export const IdeCompatibleUpdateSchema = Type.Object({
  id: NumericIdText,
  pluginId: NumericIdText,
  pluginXmlId: Type.String(),
  version: Type.String(),
});
export const IdeCompatibleUpdatesResult = Type.Array(IdeCompatibleUpdateSchema);
export type IdeCompatibleUpdatesResult = Static<typeof IdeCompatibleUpdatesResult>;

/** POST /api/search/updates/nearest (settings import asks which plugins can move to this IDE). */
export const NearestUpdatesBody = Type.Object({
  build: BuildText,
  pluginXMLIds: XmlIds,
});
export const MarketplaceNearestUpdateSchema = Type.Object({
  id: NumericIdText,
  xmlId: Type.String(),
  products: Type.Array(Type.String(), { description: 'Product codes the version runs on' }),
  updateCompatibility: Type.Record(Type.String(), Type.Integer()),
  isCompatible: Type.Boolean(),
});
export const MarketplaceNearestUpdatesResult = Type.Array(MarketplaceNearestUpdateSchema);
export type MarketplaceNearestUpdatesResult = Static<typeof MarketplaceNearestUpdatesResult>;

/** GET /plugin/index?xmlId=: the IDE's "plugin homepage" link. */
export const PluginHomepageQuery = Type.Object({ xmlId: Type.String({ minLength: 1, maxLength: 255 }) });

/** GET /feature/getImplementations: the plugin advertiser's question (we index no extension points). */
export const FeatureImplementationsQuery = Type.Object({
  featureType: Type.Optional(Type.String({ maxLength: 200 })),
  implementationName: Type.Optional(Type.String({ maxLength: 500 })),
  build: Type.Optional(BuildText),
});
export const FeatureImplementationSchema = Type.Object({
  pluginId: Type.String(),
  pluginName: Type.String(),
  description: Type.String(),
  version: Type.String(),
  implementationName: Type.String(),
  bundled: Type.Boolean(),
});
export const FeatureImplementationsResult = Type.Array(FeatureImplementationSchema);

/** GET /files/IDE/extensions.json: extension point -> implementing plugin ids. */
export const IdeExtensionsResult = Type.Record(Type.String(), Type.Array(Type.String()));
