import { Type, type Static } from 'typebox';
import { FamilySchema, Nullable, Timestamp } from './common';

/**
 * What a successful upload answers (POST /api/updates/upload, /plugin/uploadPlugin and
 * /api/plugins/{family}/upload): the version as stored. A refused upload answers core's UploadResult instead.
 */
export const UploadedVersionSchema = Type.Object({
  id: Type.Integer({ description: 'The version (update) id' }),
  pluginId: Type.Integer(),
  version: Type.String(),
  cdate: Timestamp,
  downloadUrl: Type.String(),
  notes: Type.String({ description: 'HTML change notes' }),
  since: Type.String(),
  until: Type.String({ description: "'' when there is no until-build" }),
  /** '' is the stable channel. */
  channel: Type.String(),
  size: Type.Integer(),
  downloads: Type.Integer(),
  hidden: Type.Boolean(),
  warnings: Type.Array(Type.String(), {
    description: 'What the inspection found worth telling but not worth refusing',
  }),
});
export type UploadedVersionBody = Static<typeof UploadedVersionSchema>;

/**
 * What a new plugin's upload answers (POST /api/plugins/{family}/upload): the plugin in the shape the
 * vendor's REST client (`PluginBean`) and Gradle tooling parse. `urls.donationLinks` use that client's
 * `{title, link}`; `vendor` is null when the plugin names none.
 */
export const UploadedPluginSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  xmlId: Type.String(),
  family: FamilySchema,
  link: Type.String({ description: 'Path of the item page, /plugin/{id}-{slug}' }),
  description: Type.String({ description: 'HTML' }),
  preview: Type.String(),
  docText: Type.String(),
  email: Type.String(),
  copyright: Type.String(),
  downloads: Type.Integer(),
  icon: Type.String(),
  isHidden: Type.Boolean(),
  approve: Type.Boolean(),
  cdate: Timestamp,
  vendor: Nullable(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      publicName: Type.String(),
      url: Nullable(Type.String()),
      email: Nullable(Type.String()),
      link: Type.String(),
      countryCode: Type.String({ description: "'' when unknown" }),
      country: Nullable(Type.String()),
      isVerified: Type.Boolean(),
      type: Type.Enum(['organization', 'personal', 'xml']),
    }),
  ),
  urls: Type.Object({
    url: Type.String(),
    forumUrl: Type.String(),
    licenseUrl: Type.String(),
    bugtrackerUrl: Type.String(),
    docUrl: Type.String(),
    sourceCodeUrl: Type.String(),
    privacyPolicyUrl: Type.String(),
    donationLinks: Type.Array(Type.Object({ title: Type.String(), link: Type.String() })),
    customContacts: Type.Array(Type.Object({ title: Type.String(), link: Type.String() })),
  }),
  tags: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      link: Type.String(),
      families: Type.Array(FamilySchema),
    }),
  ),
  themes: Type.Array(Type.Object({ name: Type.String(), dark: Type.Boolean() })),
  language: Nullable(Type.String()),
  programmingLanguage: Nullable(Type.String()),
  /** The first version, as an update upload answers it. */
  update: UploadedVersionSchema,
  warnings: Type.Array(Type.String(), {
    description: 'What the inspection found worth telling but not worth refusing',
  }),
});
export type UploadedPluginBody = Static<typeof UploadedPluginSchema>;
