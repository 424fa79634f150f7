/**
 * What an item's developers (and administrators) send to change it: fields, links, tags, developers,
 * compatibility, build ranges, the order of their items, screenshots and documentation tabs.
 */
import { MAX_PLUGIN_TAGS } from '@marketplace/core';
import { Type, type Static } from 'typebox';

const DatabaseId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

/** The single links of an item (core's PluginUrls without its lists of donation links and contacts). */
export const PLUGIN_URL_FIELDS = [
  'url',
  'bugtrackerUrl',
  'forumUrl',
  'licenseUrl',
  'sourceCodeUrl',
  'docUrl',
  'privacyPolicyUrl',
] as const;
export type PluginUrlField = (typeof PLUGIN_URL_FIELDS)[number];

/** Absent: kept; null (or '' for links): removed. */
const OptionalText = (maxLength: number) =>
  Type.Optional(Type.Union([Type.String({ maxLength }), Type.Null()]));

const UrlProperties = Object.fromEntries(
  PLUGIN_URL_FIELDS.map((field) => [field, OptionalText(2048)]),
) as Record<PluginUrlField, ReturnType<typeof OptionalText>>;

/** PUT /api/plugins/{id}: the fields to change (at least one); links are checked and normalised. */
export const UpdatePluginFieldsBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  description: Type.Optional(Type.String({ maxLength: 200_000 })),
  preview: OptionalText(2000),
  docText: OptionalText(200_000),
  email: OptionalText(255),
  copyright: OptionalText(2000),
  pricingModel: Type.Optional(Type.String({ maxLength: 16 })),
  language: OptionalText(64),
  programmingLanguage: OptionalText(32),
  ...UrlProperties,
});
export type UpdatePluginFieldsBody = Static<typeof UpdatePluginFieldsBody>;

const LinkList = <T extends Record<string, ReturnType<typeof Type.String>>>(properties: T) =>
  Type.Optional(Type.Array(Type.Object(properties), { maxItems: 20 }));

/** PUT /api/plugins/{id}/urls: links, and the donation links and custom contacts (a list given replaces). */
export const UpdatePluginUrlsBody = Type.Object({
  ...UrlProperties,
  donationLinks: LinkList({ name: Type.String({ maxLength: 100 }), url: Type.String({ maxLength: 2048 }) }),
  customContacts: LinkList({
    title: Type.String({ maxLength: 100 }),
    link: Type.String({ maxLength: 2048 }),
  }),
});
export type UpdatePluginUrlsBody = Static<typeof UpdatePluginUrlsBody>;

/** Lists arrive bare (`["a","b"]`, as the site sends them) or wrapped (`{"tags": [...]}`). */
const StringList = <Key extends string>(key: Key, maxItems: number) => {
  const items = () => Type.Array(Type.Union([Type.String({ maxLength: 255 }), Type.Integer()]), { maxItems });
  return Type.Union([items(), Type.Object({ [key]: items() } as Record<Key, ReturnType<typeof items>>)]);
};

/** POST /api/plugins/{id}/tags: tag ids or names (core's tagsForUpdate sends them as strings). */
export const SetPluginTagsBody = StringList('tags', MAX_PLUGIN_TAGS);
export type SetPluginTagsBody = Static<typeof SetPluginTagsBody>;

/** POST /api/plugins/{id}/developers: logins or user ids, besides the owner. */
export const SetPluginDevelopersBody = StringList('developers', 50);
export type SetPluginDevelopersBody = Static<typeof SetPluginDevelopersBody>;

/** POST /api/plugins/{id}/compatibility: IDE product keys (IDEA, PYCHARM...). */
export const SetCompatibleProductsBody = StringList('products', 64);
export type SetCompatibleProductsBody = Static<typeof SetCompatibleProductsBody>;

/** PUT /api/updates/{id}/since and /until: the new bound ('' for no until-build). */
export const BuildBoundQuery = Type.Object({ value: Type.String({ maxLength: 64 }) });
export type BuildBoundQuery = Static<typeof BuildBoundQuery>;

/** PUT /api/updates/{id}/since and /until: why the bound changes (core's CHANGE_REASONS). */
export const BuildBoundChangeBody = Type.Object({
  reason: Type.String({ maxLength: 32 }),
  comment: Type.Optional(Type.String({ maxLength: 2000 })),
});
export type BuildBoundChangeBody = Static<typeof BuildBoundChangeBody>;

/** PUT /api/plugins/order: the ids of one's plugins, first first. */
export const PluginOrderBody = Type.Array(DatabaseId, { maxItems: 1000 });
export type PluginOrderBody = Static<typeof PluginOrderBody>;

/** PUT /api/plugins/{id}/screenshots: the screenshots to keep, in order (their urls, bare or as objects). */
export const ArrangeScreenshotsBody = Type.Array(
  Type.Union([Type.String({ maxLength: 300 }), Type.Object({ url: Type.String({ maxLength: 300 }) })]),
  {
    maxItems: 100,
  },
);
export type ArrangeScreenshotsBody = Static<typeof ArrangeScreenshotsBody>;

/** POST /api/plugins/{id}/documentation (the file is the multipart body): the tab, and its URL suffix. */
export const DocumentationTabQuery = Type.Object({
  tabName: Type.String({ minLength: 1, maxLength: 100 }),
  path: Type.Optional(Type.String({ maxLength: 200 })),
});
export type DocumentationTabQuery = Static<typeof DocumentationTabQuery>;
