import { IDE_PRODUCT_KEYS, RATING_CATEGORIES } from '@marketplace/core';
import { Type, type Static } from 'typebox';
import { FamilySchema, Nullable, PricingModelSchema, Timestamp } from './common';

export const TagSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  link: Type.String({ description: 'Search page of the tag' }),
  privileged: Type.Boolean(),
  searchable: Type.Boolean(),
  families: Type.Array(FamilySchema),
});
export type TagBody = Static<typeof TagSchema>;

export const VendorSchema = Type.Object({
  name: Type.String(),
  url: Nullable(Type.String()),
});

export const LinkSchema = Type.Object({ title: Type.String(), url: Type.String() });

export const PluginUrlsSchema = Type.Object({
  url: Nullable(Type.String()),
  bugtrackerUrl: Nullable(Type.String()),
  forumUrl: Nullable(Type.String()),
  licenseUrl: Nullable(Type.String()),
  sourceCodeUrl: Nullable(Type.String()),
  docUrl: Nullable(Type.String()),
  privacyPolicyUrl: Nullable(Type.String()),
  donationLinks: Type.Array(LinkSchema),
  customContacts: Type.Array(LinkSchema),
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
  preview: Nullable(Type.String()),
  docText: Nullable(Type.String()),
  email: Nullable(Type.String()),
  downloads: Type.Integer(),
  xmlId: Type.String(),
  copyright: Nullable(Type.String()),
  removalRequested: Type.Boolean(),
  icon: Nullable(Type.String({ description: 'Address of the icon' })),
  cdate: Timestamp,
  pricingModel: PricingModelSchema,
  isMonetizationAvailable: Type.Boolean(),
  isBlocked: Type.Boolean(),
  isModificationAllowed: Type.Boolean(),
});

export const RatingSchema = Type.Object({
  meanRating: Type.Number({ description: 'Mean of all ratings, 0 when there are none' }),
  votes: Type.Integer({ description: 'How many people rated' }),
  distribution: Type.Object(
    {
      '1': Type.Integer(),
      '2': Type.Integer(),
      '3': Type.Integer(),
      '4': Type.Integer(),
      '5': Type.Integer(),
    },
    { description: 'How many ratings of each star count' },
  ),
});
export type RatingBody = Static<typeof RatingSchema>;

export const GranularRatingSchema = Type.Object({
  categories: Type.Array(
    Type.Object({
      category: Type.Enum([...RATING_CATEGORIES]),
      meanRating: Type.Number(),
      votes: Type.Integer(),
    }),
  ),
});
export type GranularRatingBody = Static<typeof GranularRatingSchema>;

export const DeveloperSchema = Type.Object({
  id: Type.Integer(),
  login: Type.String(),
  name: Type.String(),
  link: Type.String({ description: 'Profile page path' }),
});
export type DeveloperBody = Static<typeof DeveloperSchema>;

/** The short form of an item used by lists, search results and cards. */
export const PluginSummarySchema = Type.Object({
  id: Type.Integer(),
  xmlId: Type.String(),
  name: Type.String(),
  link: Type.String(),
  family: FamilySchema,
  preview: Type.String({ description: 'Plain-text excerpt of the description' }),
  icon: Nullable(Type.String()),
  downloads: Type.Integer(),
  rating: Type.Number(),
  pricingModel: PricingModelSchema,
  vendor: Nullable(VendorSchema),
  tags: Type.Array(Type.String()),
  cdate: Timestamp,
  updateDate: Timestamp,
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
  urlSuffix: Type.String(),
  contentUrl: Type.String(),
  generateToc: Type.Boolean(),
});

/** GET /api/plugins/{id}: the item in the spec's default shape (§3). */
export const PluginSchema = Type.Object({
  id: Type.Integer(),
  removed: Type.Boolean(),
  status: Type.Enum(['resolved']),
  info: PluginInfoSchema,
  screenshots: Type.Array(Type.Object({ url: Type.String() })),
  tags: Type.Array(TagSchema),
  rating: Type.Object({
    status: Type.Enum(['idle', 'resolved']),
    meanRating: Type.Number(),
    votes: Type.Integer(),
  }),
  vendor: Nullable(VendorSchema),
  urls: PluginUrlsSchema,
  language: Nullable(Type.String()),
  programmingLanguage: Nullable(Type.String()),
  developers: Loaded(DeveloperSchema),
  bundles: Loaded(PluginSummarySchema),
  customTabs: Type.Array(CustomTabSchema),
  themes: Type.Array(ThemeSchema),
  compatibleProducts: Type.Array(Type.Enum([...IDE_PRODUCT_KEYS])),
});
export type PluginBody = Static<typeof PluginSchema>;

export const PluginQuery = Type.Object({
  fullInfo: Type.Boolean({
    default: false,
    description: 'Include developers and bundles (otherwise their status is "idle")',
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
