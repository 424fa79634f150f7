import { IDE_PRODUCT_KEYS, PLUGIN_BLOCK_STATES, PLUGIN_LIFECYCLE_STATES } from '@marketplace/core';
import { Type, type Static } from 'typebox';
import { FamilySchema, Nullable, PricingModelSchema, Timestamp } from './common';
import { DownloadStatisticPointSchema } from './statistics';
import { MirroredFromSchema } from './trust-mirrors';
import { VersionSignatureSchema } from './signatures';

export const TagSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  link: Type.String({ description: 'Search page of the tag' }),
  privileged: Type.Boolean(),
  searchable: Type.Boolean(),
  families: Type.Array(FamilySchema),
});
export type TagBody = Static<typeof TagSchema>;

/** GET /api/tags: the catalogue's tags; `family` keeps those of one family (a tag naming none is in all). */
export const TagListQuery = Type.Object({ family: Type.Optional(FamilySchema) });
export type TagListQuery = Static<typeof TagListQuery>;
/** By name. Privileged tags are given by administrators only. */
export const TagListSchema = Type.Array(TagSchema);

/** A vendor; both fields are '' when the item has none (core's Vendor). */
export const VendorSchema = Type.Object({
  name: Type.String(),
  url: Type.String(),
});

/** Every URL is '' when the item does not give it (core's PluginUrls). */
export const PluginUrlsSchema = Type.Object({
  url: Type.String(),
  bugtrackerUrl: Type.String(),
  forumUrl: Type.String(),
  licenseUrl: Type.String(),
  sourceCodeUrl: Type.String(),
  docUrl: Type.String(),
  privacyPolicyUrl: Type.String(),
  donationLinks: Type.Array(Type.Object({ name: Type.String(), url: Type.String() })),
  customContacts: Type.Array(Type.Object({ title: Type.String(), link: Type.String() })),
});

export const PluginInfoSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  family: FamilySchema,
  link: Type.String({ description: 'Path of the item page, /plugin/{id}-{slug}' }),
  approve: Type.Boolean(),
  hasUnapprovedUpdate: Type.Boolean(),
  isHidden: Type.Boolean(),
  description: Type.String({ description: 'HTML' }),
  preview: Type.String(),
  docText: Type.String(),
  email: Type.String(),
  downloads: Type.Integer(),
  xmlId: Type.String(),
  copyright: Type.String(),
  removalRequested: Type.Boolean(),
  icon: Type.String({ description: "Address of the icon, '' when there is none" }),
  cdate: Timestamp,
  pricingModel: PricingModelSchema,
  isMonetizationAvailable: Type.Boolean(),
  isBlocked: Type.Boolean(),
  isModificationAllowed: Type.Boolean(),
  updateDate: Type.Number({
    description:
      'When the item was last updated (its newest published version), ms since 1970: the update date of its card',
  }),
});

const StarVotes = Type.Object(
  { '1': Type.Integer(), '2': Type.Integer(), '3': Type.Integer(), '4': Type.Integer(), '5': Type.Integer() },
  { description: 'How many ratings of each star count' },
);

/** GET /api/plugins/{id}/rating. */
export const RatingSchema = Type.Object({
  meanRating: Type.Number({ description: 'Mean of all ratings, 0 when there are none' }),
  votes: StarVotes,
  total: Type.Integer({ description: 'How many people rated' }),
});
export type RatingBody = Static<typeof RatingSchema>;

/** GET /api/plugins/{id}/rating-granular: the mean per category that has ratings (core's GranularRating). */
export const GranularRatingSchema = Type.Object({
  INTEGRATION: Type.Optional(Type.Number()),
  PERFORMANCE: Type.Optional(Type.Number()),
  AVAILABLE_FEATURES: Type.Optional(Type.Number()),
  USER_INTERFACE: Type.Optional(Type.Number()),
  DOCUMENTATION_QUALITY: Type.Optional(Type.Number()),
  PRICING_POLICY: Type.Optional(Type.Number()),
});
export type GranularRatingBody = Static<typeof GranularRatingSchema>;

/** core's PluginDeveloper (its id is text) plus the profile link. */
export const DeveloperSchema = Type.Object({
  id: Type.String(),
  login: Type.String(),
  name: Type.String(),
  link: Type.String({ description: 'Profile page path' }),
});
export type DeveloperBody = Static<typeof DeveloperSchema>;

/**
 * The downloads of the card's chart (spec §2, §9): one point per UTC day for the last 30 days, ending today,
 * oldest first; a day without downloads is 0.
 */
export const RecentDownloadsSchema = Type.Array(DownloadStatisticPointSchema, {
  maxItems: 30,
  description:
    'Downloads per day (UTC) over the last 30 days, oldest first, ending today; days without downloads are 0',
});

/**
 * Where an item is in its lifecycle, as its developers and administrators see it (core's developerStatus
 * turns it into the words of every page). Never sent to anybody else: a draft's existence is its developers'.
 */
export const PluginLifecycleSchema = Type.Object({
  lifecycleState: Type.Enum([...PLUGIN_LIFECYCLE_STATES]),
  approved: Type.Boolean(),
  blockState: Type.Enum([...PLUGIN_BLOCK_STATES]),
  modificationAllowed: Type.Boolean(),
  hidden: Type.Boolean(),
  pendingVersions: Type.Integer({ description: 'Versions waiting for an administrator’s approval' }),
  versions: Type.Integer({ description: 'Every version, whatever its state' }),
});
export type PluginLifecycleBody = Static<typeof PluginLifecycleSchema>;

/** Present only in the answers of the item's developers and administrators. */
const lifecycleForManagers = Type.Optional(PluginLifecycleSchema);

/** The short form of an item used by lists, search results and cards (core's PluginCard). */
export const PluginSummarySchema = Type.Object({
  id: Type.Integer(),
  xmlId: Type.String(),
  name: Type.String(),
  link: Type.String(),
  family: FamilySchema,
  preview: Type.String({ description: 'Plain-text excerpt of the description' }),
  icon: Type.String({ description: "'' when there is none" }),
  downloads: Type.Integer(),
  rating: Type.Number(),
  pricingModel: PricingModelSchema,
  vendor: VendorSchema,
  tags: Type.Array(Type.String()),
  isTheme: Type.Boolean(),
  image: Type.Optional(
    Type.String({
      description:
        "A theme's card image (382x213 on cards): its first screenshot; absent for plugins and themes without one",
    }),
  ),
  cdate: Timestamp,
  updateDate: Timestamp,
  downloadStatistics: RecentDownloadsSchema,
});
export type PluginSummaryBody = Static<typeof PluginSummarySchema>;

const Loaded = <T extends Parameters<typeof Type.Array>[0]>(item: T) =>
  Type.Object({
    status: Type.Enum(['idle', 'resolved'], {
      description: '"resolved" when data is included (fullInfo), "idle" when it is to be fetched separately',
    }),
    data: Type.Array(item),
  });

export const ThemeSchema = Type.Object({ name: Type.String(), dark: Type.Boolean() });
export const CustomTabSchema = Type.Object({
  tabName: Type.String(),
  path: Type.String(),
  urlSuffix: Type.String(),
  contentUrl: Type.String(),
  generateToc: Type.Boolean(),
});

/** A bundle an item belongs to (core's PluginBundle): enough to name and link it. */
export const PluginBundleRefSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  link: Type.String(),
});
export type PluginBundleRefBody = Static<typeof PluginBundleRefSchema>;

/** GET /api/plugins/{id}: the item in the spec's default shape (§3, core's Plugin). */
export const PluginSchema = Type.Object({
  id: Type.Integer(),
  removed: Type.Boolean(),
  status: Type.Enum(['resolved']),
  info: PluginInfoSchema,
  screenshots: Type.Array(Type.Object({ url: Type.String() })),
  tags: Type.Array(TagSchema),
  rating: Type.Object({
    status: Type.Enum(['resolved']),
    meanRating: Type.Number(),
    votes: StarVotes,
  }),
  vendor: VendorSchema,
  urls: PluginUrlsSchema,
  language: Nullable(Type.String()),
  programmingLanguage: Nullable(Type.String()),
  developers: Loaded(DeveloperSchema),
  bundles: Loaded(PluginSummarySchema),
  includedIn: Type.Optional(
    Type.Array(PluginBundleRefSchema, {
      description:
        'With fullInfo: the bundles the viewer may see that include this item (for a theme, the plugins ' +
        'that ship it), by name',
    }),
  ),
  customTabs: Type.Array(CustomTabSchema),
  themes: Type.Array(ThemeSchema),
  compatibleProducts: Type.Array(Type.Enum([...IDE_PRODUCT_KEYS])),
  downloadStatistics: RecentDownloadsSchema,
  lifecycle: lifecycleForManagers,
  mirroredFrom: Type.Optional(MirroredFromSchema),
});
export type PluginBody = Static<typeof PluginSchema>;

export const PluginQuery = Type.Object({
  fullInfo: Type.Boolean({
    default: false,
    description:
      'Include developers, bundles and the bundles including the item (otherwise their status is "idle")',
  }),
});

export const CompatibleProductsSchema = Type.Array(Type.Enum([...IDE_PRODUCT_KEYS]));

/** A version of an item (an "update" in the IDE's words; its id is the updateId of download URLs). */
export const PluginVersionSchema = Type.Object({
  id: Type.Integer(),
  pluginId: Type.Integer(),
  pluginXmlId: Type.String(),
  version: Type.String(),
  channel: Type.String({ description: 'Empty for the stable channel' }),
  since: Type.String(),
  until: Nullable(Type.String()),
  notes: Type.String({ description: 'HTML change notes' }),
  cdate: Timestamp,
  size: Type.Integer(),
  downloads: Type.Integer(),
  fileName: Type.String(),
  dependencies: Type.Array(Type.String()),
  downloadUrl: Type.String(),
  signature: Type.Optional(
    Type.Union([VersionSignatureSchema, Type.Null()], {
      description:
        "Who signed the archive and whether the marketplace countersigned it; null for versions that did not come through this marketplace's upload (older ones, mirrored ones)",
    }),
  ),
});
export type PluginVersionBody = Static<typeof PluginVersionSchema>;

export const PluginVersionsQuery = Type.Object({
  channel: Type.Optional(Type.String({ maxLength: 100, description: 'Only this channel ("" = stable)' })),
  page: Type.Integer({ minimum: 1, maximum: 100_000, default: 1 }),
  size: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
});

export const ChannelsSchema = Type.Array(Type.String(), {
  description: 'Channels with versions; "" is stable',
});
