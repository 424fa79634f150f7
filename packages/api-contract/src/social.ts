import {
  COMMENTS_PAGE_SIZE,
  IDE_PRODUCT_KEYS,
  PRODUCT_FAMILIES,
  USER_PLUGINS_PAGE_SIZE,
} from '@marketplace/core';
import { Type, type Static } from 'typebox';
import { FamilySchema, Nullable, Timestamp, pageQuery } from './common';
import { PluginLifecycleSchema, PluginSummarySchema } from './plugins';

export const UserSchema = Type.Object({
  id: Type.Integer(),
  login: Type.String(),
  name: Type.String(),
  link: Type.String(),
  cdate: Timestamp,
});
export type UserBody = Static<typeof UserSchema>;

const AuthorSchema = Type.Object({
  id: Type.Integer(),
  login: Type.String(),
  name: Type.String(),
  link: Type.String(),
});

export const CommentSchema = Type.Object({
  id: Type.Integer(),
  plugin: Type.Object({ id: Type.Integer(), name: Type.String(), link: Type.String() }),
  author: AuthorSchema,
  rating: Type.Integer({ minimum: 1, maximum: 5 }),
  comment: Type.String(),
  cdate: Timestamp,
  updateDate: Nullable(Timestamp),
  replies: Type.Array(
    Type.Object({ id: Type.Integer(), author: AuthorSchema, comment: Type.String(), cdate: Timestamp }),
  ),
});
export type CommentBody = Static<typeof CommentSchema>;
export const CommentListSchema = Type.Array(CommentSchema);

export const PluginCommentsQuery = Type.Object({
  pluginId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  ...pageQuery(COMMENTS_PAGE_SIZE),
});
export const UserCommentsQuery = Type.Object(pageQuery(COMMENTS_PAGE_SIZE));

/** Spec §7: families default to every family except edu. */
export const USER_PLUGINS_DEFAULT_FAMILIES = PRODUCT_FAMILIES.filter((family) => family !== 'edu');
export const UserPluginsQuery = Type.Object({
  ...pageQuery(USER_PLUGINS_PAGE_SIZE),
  family: Type.Array(FamilySchema, {
    default: USER_PLUGINS_DEFAULT_FAMILIES,
    maxItems: PRODUCT_FAMILIES.length,
  }),
});
export const PluginSummaryListSchema = Type.Array(PluginSummarySchema);

/** GET /api/users/{id}/plugins: summaries, with the lifecycle of the items the viewer develops or administers. */
export const UserPluginSummarySchema = Type.Object({
  ...PluginSummarySchema.properties,
  lifecycle: Type.Optional(PluginLifecycleSchema),
});
export type UserPluginSummaryBody = Static<typeof UserPluginSummarySchema>;
export const UserPluginSummaryListSchema = Type.Array(UserPluginSummarySchema);

export const FeaturedQuery = Type.Object({
  product: Type.Enum([...IDE_PRODUCT_KEYS], { description: 'IDE product key, e.g. IDEA' }),
});
export const FamilyParams = Type.Object({ family: FamilySchema });
