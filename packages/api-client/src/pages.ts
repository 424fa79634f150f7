import type {
  ArrangeCustomPagesBody,
  CreateCustomPageBody,
  CustomPageBody,
  CustomPageDraftBody,
  CustomPageImageBody,
  CustomPageSummary,
  PublishedPageBody,
  PublishedPageListBody,
  RenderedPageBody,
  UpdateCustomPageBody,
  WebhelpPreviewBody,
} from '@marketplace/api-contract';
import { pathId } from './paths';
import type { ApiTransport, CallOptions } from './transport';

/** A page as its people edit it: Markdown, rendered HTML, images, table of contents. */
export type CustomPage = CustomPageBody;
/** The saved but unpublished changes of a published page. */
export type CustomPageDraft = CustomPageDraftBody;
export type WebhelpPreview = WebhelpPreviewBody;
export type CustomPageListItem = CustomPageSummary;
export type NewCustomPage = CreateCustomPageBody;
export type CustomPageChanges = UpdateCustomPageBody;
export type CustomPageArrangement = ArrangeCustomPagesBody['pages'];
export type CustomPageImage = CustomPageImageBody;
export type RenderedPage = RenderedPageBody;
/** A published page as visitors read it. */
export type PublishedPage = PublishedPageBody;
export type PublishedPageList = PublishedPageListBody;

/** The paths of the pages domain. */
export const pagePaths = {
  pages: (pluginId: number) => `/api/plugins/${pathId('Plugin id', pluginId)}/custom-pages`,
  page: (pluginId: number, pageId: number) => `${pagePaths.pages(pluginId)}/${pathId('Page id', pageId)}`,
  preview: (pluginId: number) => `${pagePaths.pages(pluginId)}/preview`,
  order: (pluginId: number) => `${pagePaths.pages(pluginId)}/order`,
  publish: (pluginId: number, pageId: number) => `${pagePaths.page(pluginId, pageId)}/publish`,
  unpublish: (pluginId: number, pageId: number) => `${pagePaths.page(pluginId, pageId)}/unpublish`,
  draft: (pluginId: number, pageId: number) => `${pagePaths.page(pluginId, pageId)}/draft`,
  images: (pluginId: number, pageId: number) => `${pagePaths.page(pluginId, pageId)}/images`,
  image: (pluginId: number, pageId: number, imageId: number) =>
    `${pagePaths.images(pluginId, pageId)}/${pathId('Image id', imageId)}`,
  webhelpPreview: (pluginId: number, pageId: number) => `${pagePaths.page(pluginId, pageId)}/webhelp/preview`,
  webhelp: (pluginId: number, pageId: number) => `${pagePaths.page(pluginId, pageId)}/webhelp`,
  published: (pluginId: number) => `${pagePaths.pages(pluginId)}/published`,
  publishedPage: (pluginId: number, url: string) =>
    `${pagePaths.published(pluginId)}/${encodeURIComponent(url)}`,
};

function fileForm(file: Blob, fileName?: string): FormData {
  const form = new FormData();
  if (fileName === undefined) form.append('file', file);
  else form.append('file', file, fileName);
  return form;
}

/**
 * Custom pages and webhelp: the item's people (and administrators) write and publish them; anyone reads the
 * published ones.
 */
export class PagesClient {
  constructor(private readonly transport: ApiTransport) {}

  /** The published pages of an item, in reading order (public). */
  listPublished(pluginId: number, options: CallOptions = {}): Promise<PublishedPageList> {
    return this.transport.sendJson({ ...options, method: 'GET', path: pagePaths.published(pluginId) });
  }

  /** A published page by its URL (public). */
  getPublished(pluginId: number, url: string, options: CallOptions = {}): Promise<PublishedPage> {
    return this.transport.sendJson({
      ...options,
      method: 'GET',
      path: pagePaths.publishedPage(pluginId, url),
    });
  }

  /** Every page, drafts included. */
  list(pluginId: number, options: CallOptions = {}): Promise<CustomPageListItem[]> {
    return this.transport.sendJson({ ...options, method: 'GET', path: pagePaths.pages(pluginId) });
  }

  get(pluginId: number, pageId: number, options: CallOptions = {}): Promise<CustomPage> {
    return this.transport.sendJson({ ...options, method: 'GET', path: pagePaths.page(pluginId, pageId) });
  }

  create(pluginId: number, page: NewCustomPage, options: CallOptions = {}): Promise<CustomPage> {
    return this.transport.sendJson({
      ...options,
      method: 'POST',
      path: pagePaths.pages(pluginId),
      json: page,
    });
  }

  update(
    pluginId: number,
    pageId: number,
    changes: CustomPageChanges,
    options: CallOptions = {},
  ): Promise<CustomPage> {
    return this.transport.sendJson({
      ...options,
      method: 'PUT',
      path: pagePaths.page(pluginId, pageId),
      json: changes,
    });
  }

  async remove(pluginId: number, pageId: number, options: CallOptions = {}): Promise<void> {
    await this.transport.send({ ...options, method: 'DELETE', path: pagePaths.page(pluginId, pageId) });
  }

  /** Every page once, in reading order, with its parent. */
  arrange(
    pluginId: number,
    pages: CustomPageArrangement,
    options: CallOptions = {},
  ): Promise<CustomPageListItem[]> {
    return this.transport.sendJson({
      ...options,
      method: 'PUT',
      path: pagePaths.order(pluginId),
      json: { pages },
    });
  }

  setPublished(
    pluginId: number,
    pageId: number,
    published: boolean,
    options: CallOptions = {},
  ): Promise<CustomPage> {
    return this.transport.sendJson({
      ...options,
      method: 'POST',
      path: published ? pagePaths.publish(pluginId, pageId) : pagePaths.unpublish(pluginId, pageId),
    });
  }

  /** Drops the draft of a published page (visitors' version stays); answers the page. */
  discardDraft(pluginId: number, pageId: number, options: CallOptions = {}): Promise<CustomPage> {
    return this.transport.sendJson({ ...options, method: 'DELETE', path: pagePaths.draft(pluginId, pageId) });
  }

  /** Renders Markdown as the published page will show it (sanitised HTML and table of contents). */
  preview(
    pluginId: number,
    markdown: string,
    generateToc: boolean,
    options: CallOptions = {},
  ): Promise<RenderedPage> {
    return this.transport.sendJson({
      ...options,
      method: 'POST',
      path: pagePaths.preview(pluginId),
      json: { markdown, generateToc },
    });
  }

  uploadImage(
    pluginId: number,
    pageId: number,
    file: Blob,
    fileName?: string,
    options: CallOptions = {},
  ): Promise<CustomPageImage> {
    return this.transport.sendJson({
      ...options,
      method: 'POST',
      path: pagePaths.images(pluginId, pageId),
      form: fileForm(file, fileName),
    });
  }

  /** The images uploaded into a page, oldest first. */
  listImages(pluginId: number, pageId: number, options: CallOptions = {}): Promise<CustomPageImage[]> {
    return this.transport.sendJson({ ...options, method: 'GET', path: pagePaths.images(pluginId, pageId) });
  }

  /** Deletes an image of a page (refused with 409 while the published version shows it). */
  async removeImage(
    pluginId: number,
    pageId: number,
    imageId: number,
    options: CallOptions = {},
  ): Promise<void> {
    await this.transport.send({
      ...options,
      method: 'DELETE',
      path: pagePaths.image(pluginId, pageId, imageId),
    });
  }

  /** A short-lived address where the item's people see the webhelp as it would be published. */
  previewWebhelp(pluginId: number, pageId: number, options: CallOptions = {}): Promise<WebhelpPreview> {
    return this.transport.sendJson({
      ...options,
      method: 'POST',
      path: pagePaths.webhelpPreview(pluginId, pageId),
    });
  }

  /** Uploads (or replaces) the webhelp zip of a webhelp page; on a published one, into its draft. */
  uploadWebhelp(
    pluginId: number,
    pageId: number,
    zip: Blob,
    fileName?: string,
    options: CallOptions = {},
  ): Promise<CustomPage> {
    return this.transport.sendJson({
      ...options,
      method: 'PUT',
      path: pagePaths.webhelp(pluginId, pageId),
      form: fileForm(zip, fileName),
    });
  }
}
