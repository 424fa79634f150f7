import type {
  CustomPageBody,
  CustomPageImageBody,
  CustomPageSummary,
  PublishedPageBody,
  PublishedPageListBody,
} from '@marketplace/api-contract';
import {
  buildPageTree,
  flattenPageTree,
  webhelpPath,
  type CustomPageStatus,
  type CustomPageType,
} from '@marketplace/core';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { customPageFiles, customPageImages, customPages } from '../db/schema';
import { tocOfContent } from './render';

/** Statuses a visitor may read: a published Markdown page, a published webhelp. */
export const PUBLISHED_STATUSES: readonly CustomPageStatus[] = ['PUBLISH', 'WEBHELP'];

export interface PageRow {
  id: number;
  pluginId: number;
  parentId: number | null;
  url: string;
  name: string;
  type: CustomPageType;
  status: CustomPageStatus;
  originalContent: string;
  content: string;
  generateToc: boolean;
  position: number;
  updatedAt: Date;
  publishedAt: Date | null;
  /** Files of the webhelp visitors see (or will see, before the first publication). */
  webhelpFiles: number;
  /** The unpublished changes of a published page; undefined when there are none. */
  draft: PageDraft | undefined;
}

export interface PageDraft {
  name: string;
  url: string;
  originalContent: string;
  content: string;
  generateToc: boolean;
  updatedAt: Date;
  /** Files of a new zip waiting to replace the published ones (0: none). */
  webhelpFiles: number;
}

interface RawPageRow extends Omit<PageRow, 'draft'> {
  draftName: string | null;
  draftUrl: string | null;
  draftOriginalContent: string | null;
  draftContent: string | null;
  draftGenerateToc: boolean | null;
  draftUpdatedAt: Date | string | null;
  draftWebhelpFiles: number;
}

const columns = {
  id: customPages.id,
  pluginId: customPages.pluginId,
  parentId: customPages.parentId,
  url: customPages.url,
  name: customPages.name,
  type: sql<CustomPageType>`${customPages.type}`,
  status: sql<CustomPageStatus>`${customPages.status}`,
  originalContent: customPages.originalContent,
  content: customPages.content,
  generateToc: customPages.generateToc,
  position: customPages.position,
  updatedAt: customPages.updatedAt,
  publishedAt: customPages.publishedAt,
  webhelpFiles: sql<number>`(SELECT count(*)::int FROM custom_page_files f WHERE f.page_id = ${customPages.id} AND NOT f.draft)`,
  draftName: customPages.draftName,
  draftUrl: customPages.draftUrl,
  draftOriginalContent: customPages.draftOriginalContent,
  draftContent: customPages.draftContent,
  draftGenerateToc: customPages.draftGenerateToc,
  draftUpdatedAt: customPages.draftUpdatedAt,
  draftWebhelpFiles: sql<number>`(SELECT count(*)::int FROM custom_page_files f WHERE f.page_id = ${customPages.id} AND f.draft)`,
};

/** Every page of an item, in reading order (parents before their children, siblings by position). */
export async function listPages(db: Queryable, pluginId: number): Promise<PageRow[]> {
  const rows = await db
    .select(columns)
    .from(customPages)
    .where(eq(customPages.pluginId, pluginId))
    .orderBy(asc(customPages.position), asc(customPages.id));
  return flattenPageTree(buildPageTree(rows.map(normalise))).map(
    ({ children: _children, depth: _depth, ...row }) => row,
  );
}

export async function loadPage(
  db: Queryable,
  pluginId: number,
  pageId: number,
): Promise<PageRow | undefined> {
  const [row] = await db
    .select(columns)
    .from(customPages)
    .where(and(eq(customPages.pluginId, pluginId), eq(customPages.id, pageId)));
  return row ? normalise(row) : undefined;
}

export async function loadPublishedPage(
  db: Queryable,
  pluginId: number,
  url: string,
): Promise<PageRow | undefined> {
  const [row] = await db
    .select(columns)
    .from(customPages)
    .where(
      and(
        eq(customPages.pluginId, pluginId),
        eq(customPages.url, url),
        inArray(customPages.status, [...PUBLISHED_STATUSES]),
      ),
    );
  return row ? normalise(row) : undefined;
}

/** PGlite answers count(*)::int as a number, node-postgres as a number too; dates may come as text. */
function normalise(raw: RawPageRow): PageRow {
  const {
    draftName,
    draftUrl,
    draftOriginalContent,
    draftContent,
    draftGenerateToc,
    draftUpdatedAt,
    draftWebhelpFiles,
    ...row
  } = raw;
  return {
    ...row,
    webhelpFiles: Number(row.webhelpFiles),
    updatedAt: new Date(row.updatedAt),
    publishedAt: row.publishedAt === null ? null : new Date(row.publishedAt),
    draft:
      draftUpdatedAt === null
        ? undefined
        : {
            name: draftName ?? row.name,
            url: draftUrl ?? row.url,
            originalContent: draftOriginalContent ?? row.originalContent,
            content: draftContent ?? row.content,
            generateToc: draftGenerateToc ?? row.generateToc,
            updatedAt: new Date(draftUpdatedAt),
            webhelpFiles: Number(draftWebhelpFiles),
          },
  };
}

/** The draft columns set to nothing: no unpublished changes. */
export const NO_DRAFT = {
  draftName: null,
  draftUrl: null,
  draftOriginalContent: null,
  draftContent: null,
  draftGenerateToc: null,
  draftUpdatedAt: null,
} as const;

export function imageUrl(pluginId: number, pageId: number, imageId: number): string {
  return `/api/plugins/${pluginId}/custom-pages/${pageId}/images/${imageId}`;
}

/** Where a page's webhelp is served, or null when it is not a webhelp or has no files yet. */
export function webhelpUrlOf(row: PageRow, webhelpOrigin: string | undefined): string | null {
  if (row.type !== 'webhelp' || row.webhelpFiles === 0) return null;
  return `${webhelpOrigin ?? ''}${webhelpPath(row.pluginId, row.url)}`;
}

export function summaryOf(row: PageRow, webhelpOrigin: string | undefined): CustomPageSummary {
  return {
    id: row.id,
    pluginId: row.pluginId,
    url: row.url,
    name: row.name,
    type: row.type,
    status: row.status,
    parentId: row.parentId,
    position: row.position,
    generateToc: row.generateToc,
    updatedAt: row.updatedAt.getTime(),
    publishedAt: row.publishedAt?.getTime() ?? null,
    webhelpUrl: webhelpUrlOf(row, webhelpOrigin),
    hasDraft: row.draft !== undefined,
  };
}

export async function pageImages(db: Queryable, row: PageRow): Promise<CustomPageImageBody[]> {
  const images = await db
    .select()
    .from(customPageImages)
    .where(eq(customPageImages.pageId, row.id))
    .orderBy(asc(customPageImages.id));
  return images.map((image) => ({
    id: image.id,
    url: imageUrl(row.pluginId, row.id, image.id),
    name: image.name,
    contentType: image.contentType,
    size: image.size,
  }));
}

export async function pageBodyOf(
  db: Queryable,
  row: PageRow,
  webhelpOrigin: string | undefined,
): Promise<CustomPageBody> {
  const images = await pageImages(db, row);
  return {
    ...summaryOf(row, webhelpOrigin),
    originalContent: row.originalContent,
    content: row.content,
    images: images.map((image) => image.url),
    toc: row.generateToc ? tocOfContent(row.content) : [],
    webhelpFiles: row.webhelpFiles,
    draft: row.draft
      ? {
          name: row.draft.name,
          url: row.draft.url,
          originalContent: row.draft.originalContent,
          content: row.draft.content,
          generateToc: row.draft.generateToc,
          toc: row.draft.generateToc ? tocOfContent(row.draft.content) : [],
          webhelpFiles: row.draft.webhelpFiles,
          updatedAt: row.draft.updatedAt.getTime(),
        }
      : null,
  };
}

export function publishedBodyOf(row: PageRow, webhelpOrigin: string | undefined): PublishedPageBody {
  return {
    id: row.id,
    url: row.url,
    name: row.name,
    type: row.type,
    parentId: row.parentId,
    content: row.type === 'custom-page' ? row.content : '',
    toc: row.type === 'custom-page' && row.generateToc ? tocOfContent(row.content) : [],
    webhelpUrl: webhelpUrlOf(row, webhelpOrigin),
    updatedAt: row.updatedAt.getTime(),
  };
}

/**
 * The published pages in reading order. A published page under an unpublished parent is shown under the
 * nearest published ancestor (or at the top), so unpublishing a parent never hides its published children.
 */
export function publishedListOf(
  rows: readonly PageRow[],
  webhelpOrigin: string | undefined,
): PublishedPageListBody {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const isPublished = (row: PageRow) => PUBLISHED_STATUSES.includes(row.status);
  return rows.filter(isPublished).map((row) => {
    let parentId = row.parentId;
    const seen = new Set<number>();
    while (parentId !== null && !seen.has(parentId)) {
      seen.add(parentId);
      const parent = byId.get(parentId);
      if (!parent) {
        parentId = null;
        break;
      }
      if (isPublished(parent)) break;
      parentId = parent.parentId;
    }
    return {
      id: row.id,
      url: row.url,
      name: row.name,
      type: row.type,
      parentId,
      position: row.position,
      webhelpUrl: webhelpUrlOf(row, webhelpOrigin),
    };
  });
}

/** A webhelp file by its path, for serving: of the published files, or of the draft's. */
export async function findWebhelpFile(
  db: Queryable,
  pageId: number,
  path: string,
  draft = false,
): Promise<{ fileHash: string; contentType: string } | undefined> {
  const [row] = await db
    .select({ fileHash: customPageFiles.fileHash, contentType: customPageFiles.contentType })
    .from(customPageFiles)
    .where(
      and(
        eq(customPageFiles.pageId, pageId),
        eq(customPageFiles.draft, draft),
        eq(customPageFiles.path, path),
      ),
    );
  return row;
}
