/**
 * Custom pages and webhelp (the pages domain, spec §3 "Custom page"): the item's people write pages in
 * Markdown under `/api/plugins/{id}/custom-pages`, nest and order them, add images, upload a webhelp zip,
 * and publish; visitors read the published ones under `/api/plugins/{id}/custom-pages/published`, and a
 * webhelp is served under its own prefix `/webhelp/{pluginId}/{url}/`. Instants are milliseconds since 1970.
 */
import { CUSTOM_PAGE_LIMITS, CUSTOM_PAGE_STATUSES, CUSTOM_PAGE_TYPES } from '@marketplace/core';
import { Type, type Static } from 'typebox';
import { Nullable, Timestamp } from './common';

const DatabaseId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

export const CustomPageStatusSchema = Type.Enum([...CUSTOM_PAGE_STATUSES], {
  description: 'DRAFT (only its people see it), PUBLISH (a published page), WEBHELP (a published webhelp)',
});
export const CustomPageTypeSchema = Type.Enum([...CUSTOM_PAGE_TYPES], {
  description: 'custom-page (Markdown) or webhelp (an uploaded documentation site)',
});

const PageUrl = Type.String({
  minLength: 1,
  maxLength: CUSTOM_PAGE_LIMITS.maxUrlChars,
  description: 'The page’s URL segment: lower-case letters, digits and single hyphens (core pageUrlProblem)',
});
const PageName = Type.String({ minLength: 1, maxLength: CUSTOM_PAGE_LIMITS.maxNameChars });
const Markdown = Type.String({ maxLength: CUSTOM_PAGE_LIMITS.maxMarkdownChars });

/** /api/plugins/{id}/custom-pages/{pageId}. */
export const CustomPageParams = Type.Object({ id: DatabaseId, pageId: DatabaseId });
export type CustomPageParams = Static<typeof CustomPageParams>;

/** /api/plugins/{id}/custom-pages/{pageId}/images/{imageId}. */
export const CustomPageImageParams = Type.Object({ id: DatabaseId, pageId: DatabaseId, imageId: DatabaseId });
export type CustomPageImageParams = Static<typeof CustomPageImageParams>;

/** /api/plugins/{id}/custom-pages/published/{url}. */
export const PublishedPageParams = Type.Object({ id: DatabaseId, url: Type.String({ maxLength: 200 }) });
export type PublishedPageParams = Static<typeof PublishedPageParams>;

export const TocEntrySchema = Type.Object({
  level: Type.Integer({ minimum: 1, maximum: 6 }),
  text: Type.String(),
  anchor: Type.String({ description: 'The id of the heading in `content`' }),
});
export type TocEntryBody = Static<typeof TocEntrySchema>;

/** A page in a list: no content. */
export const CustomPageSummarySchema = Type.Object({
  id: DatabaseId,
  pluginId: DatabaseId,
  url: Type.String(),
  name: Type.String(),
  type: CustomPageTypeSchema,
  status: CustomPageStatusSchema,
  parentId: Nullable(DatabaseId),
  position: Type.Integer({ minimum: 0 }),
  generateToc: Type.Boolean(),
  updatedAt: Timestamp,
  publishedAt: Nullable(Timestamp),
  /** Webhelp pages with an uploaded zip: where the site is served (absolute when WEBHELP_ORIGIN is set). */
  webhelpUrl: Nullable(Type.String()),
  /** A published page with changes saved but not yet published (see `draft` on the page). */
  hasDraft: Type.Boolean(),
});
export type CustomPageSummary = Static<typeof CustomPageSummarySchema>;

/**
 * The unpublished changes of a published page: saved by `PUT .../{pageId}` once the page is published, shown
 * to its people only, until `POST .../{pageId}/publish` makes them the page or `DELETE .../{pageId}/draft`
 * drops them. Parent and order are not drafted: they change the tree at once.
 */
export const CustomPageDraftSchema = Type.Object({
  name: Type.String(),
  url: Type.String(),
  originalContent: Type.String({ description: 'The Markdown as written' }),
  content: Type.String({ description: 'The sanitised HTML rendered from it' }),
  generateToc: Type.Boolean(),
  toc: Type.Array(TocEntrySchema),
  /** Files of a new webhelp zip waiting to be published (0: the published files stay). */
  webhelpFiles: Type.Integer({ minimum: 0 }),
  updatedAt: Timestamp,
});
export type CustomPageDraftBody = Static<typeof CustomPageDraftSchema>;

/**
 * A page as its people edit it: the spec's fields (§3) as visitors see them, and `draft`, the changes saved
 * but not yet published (null when there are none; always null for a page that was never published, whose
 * changes apply to the page itself).
 */
export const CustomPageSchema = Type.Object({
  ...CustomPageSummarySchema.properties,
  originalContent: Type.String({ description: 'The Markdown as written' }),
  content: Type.String({ description: 'The sanitised HTML rendered from it, headings with ids' }),
  images: Type.Array(Type.String(), { description: 'URLs of the images uploaded into the page' }),
  toc: Type.Array(TocEntrySchema, { description: 'The table of contents (empty unless generateToc)' }),
  webhelpFiles: Type.Integer({ minimum: 0, description: 'Files of the uploaded webhelp (0: none)' }),
  draft: Nullable(CustomPageDraftSchema),
});
export type CustomPageBody = Static<typeof CustomPageSchema>;

export const CustomPageListSchema = Type.Array(CustomPageSummarySchema);

export const CreateCustomPageBody = Type.Object({
  name: PageName,
  url: Type.Optional(PageUrl),
  type: Type.Optional(CustomPageTypeSchema),
  originalContent: Type.Optional(Markdown),
  generateToc: Type.Optional(Type.Boolean()),
  parentId: Type.Optional(Nullable(DatabaseId)),
});
export type CreateCustomPageBody = Static<typeof CreateCustomPageBody>;

export const UpdateCustomPageBody = Type.Object({
  name: Type.Optional(PageName),
  url: Type.Optional(PageUrl),
  originalContent: Type.Optional(Markdown),
  generateToc: Type.Optional(Type.Boolean()),
  parentId: Type.Optional(Nullable(DatabaseId)),
});
export type UpdateCustomPageBody = Static<typeof UpdateCustomPageBody>;

/** PUT /api/plugins/{id}/custom-pages/order: every page of the item once, in reading order, with its parent. */
export const ArrangeCustomPagesBody = Type.Object({
  pages: Type.Array(Type.Object({ id: DatabaseId, parentId: Nullable(DatabaseId) }), {
    maxItems: CUSTOM_PAGE_LIMITS.maxPagesPerItem,
  }),
});
export type ArrangeCustomPagesBody = Static<typeof ArrangeCustomPagesBody>;

/** POST /api/plugins/{id}/custom-pages/preview: the live preview, rendered as the published page will be. */
export const PreviewCustomPageBody = Type.Object({
  markdown: Markdown,
  generateToc: Type.Optional(Type.Boolean()),
});
export type PreviewCustomPageBody = Static<typeof PreviewCustomPageBody>;

export const RenderedPageSchema = Type.Object({
  content: Type.String({ description: 'Sanitised HTML' }),
  toc: Type.Array(TocEntrySchema),
});
export type RenderedPageBody = Static<typeof RenderedPageSchema>;

/** An image uploaded into a page. */
export const CustomPageImageSchema = Type.Object({
  id: DatabaseId,
  url: Type.String(),
  name: Type.String(),
  contentType: Type.String(),
  size: Type.Integer({ minimum: 0 }),
});
export type CustomPageImageBody = Static<typeof CustomPageImageSchema>;

export const CustomPageImageListSchema = Type.Array(CustomPageImageSchema);

/**
 * POST /api/plugins/{id}/custom-pages/{pageId}/webhelp/preview: a short-lived address where the item's people
 * see the webhelp as it would be published (its draft zip, else its uploaded one), sandboxed like the
 * published one. The address is the credential (a browser opens it without the API token): do not share it.
 */
export const WebhelpPreviewSchema = Type.Object({
  url: Type.String({ description: 'Absolute when WEBHELP_ORIGIN is set' }),
  expiresAt: Timestamp,
});
export type WebhelpPreviewBody = Static<typeof WebhelpPreviewSchema>;

/** A published page as visitors read it. */
export const PublishedPageSchema = Type.Object({
  id: DatabaseId,
  url: Type.String(),
  name: Type.String(),
  type: CustomPageTypeSchema,
  parentId: Nullable(DatabaseId),
  content: Type.String({ description: 'Sanitised HTML (empty for a webhelp)' }),
  toc: Type.Array(TocEntrySchema),
  webhelpUrl: Nullable(Type.String()),
  updatedAt: Timestamp,
});
export type PublishedPageBody = Static<typeof PublishedPageSchema>;

/** GET /api/plugins/{id}/custom-pages/published: the published pages, without content, in reading order. */
export const PublishedPageListSchema = Type.Array(
  Type.Object({
    id: DatabaseId,
    url: Type.String(),
    name: Type.String(),
    type: CustomPageTypeSchema,
    parentId: Nullable(DatabaseId),
    position: Type.Integer({ minimum: 0 }),
    webhelpUrl: Nullable(Type.String()),
  }),
);
export type PublishedPageListBody = Static<typeof PublishedPageListSchema>;
