import { createHash, randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ArrangeCustomPagesBody,
  CreateCustomPageBody,
  CustomPageImageListSchema,
  CustomPageImageParams,
  CustomPageImageSchema,
  CustomPageListSchema,
  CustomPageParams,
  CustomPageSchema,
  ErrorBody,
  IdParams,
  PreviewCustomPageBody,
  PublishedPageListSchema,
  PublishedPageParams,
  PublishedPageSchema,
  RenderedPageSchema,
  UpdateCustomPageBody,
  WebhelpPreviewSchema,
} from '@marketplace/api-contract';
import {
  arrangementProblem,
  CUSTOM_PAGE_LIMITS,
  pageUrlOf,
  pageUrlProblem,
  parentProblem,
  webhelpPreviewPath,
} from '@marketplace/core';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { receiveUpload, UploadTooLargeError } from '../archive';
import { formatBytes } from '../archive/limits';
import type { Transaction } from '../db/client';
import { customPageFiles, customPageImages, customPagePreviews, customPages } from '../db/schema';
import { ApiError } from '../plugins/app/errors';
import { recordAudit } from '../publishing/audit';
import { claimStoredFile, releaseClaim } from '../publishing/file-claims';
import { removeFileIfUnreferenced } from '../publishing/sweep';
import {
  isAdministrator,
  loadPluginState,
  managersOfPluginParam,
  pluginManagers,
  viewerUserId,
} from '../publishing/plugin-access';
import { pluginVisibleTo, selectRows, viewerOf } from '../search/sql';
import { sniffPageImage } from './images';
import type { PagesOptions } from './options';
import { renderPage } from './render';
import {
  imageUrl,
  listPages,
  loadPage,
  loadPublishedPage,
  NO_DRAFT,
  pageBodyOf,
  pageImages,
  type PageRow,
  publishedBodyOf,
  publishedListOf,
  summaryOf,
} from './repository';
import { ArchiveRejection, readWebhelpArchive, webhelpContentType } from './webhelp-archive';
import { previewTokenHash } from './webhelp-routes';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody } as const;
const PAGES = '/api/plugins/:id/custom-pages';
const PAGE = `${PAGES}/:pageId`;

/** Whether rendered content shows the image at `url` (not one whose id merely starts with the same digits). */
function showsImage(content: string, url: string): boolean {
  const escaped = url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`${escaped}(?![0-9])`).test(content);
}

export interface PagesRouteOptions extends PagesOptions {
  /** Where uploads are written while they arrive (the publishing domain's upload folder, swept with it). */
  tempDir: string;
}

/**
 * The pages of an item: its people (and administrators) write, nest, order, publish them and upload images and
 * webhelp zips; anyone reads the published ones of an item they can see.
 */
export function pageRoutes(options: PagesRouteOptions): FastifyPluginAsyncTypebox {
  return async (app) => {
    const OWNER = { auth: { rule: 'owner', ownerOf: managersOfPluginParam(app.db) } } as const;
    const origin = options.webhelpOrigin;
    const noSuchPage = (pluginId: number, pageId: number) =>
      new ApiError('notFound', `Plugin ${pluginId} has no page ${pageId}.`);

    /**
     * Runs a change in one transaction that first locks the plugin (so two changes of one item's pages never
     * interleave: URL uniqueness and the tree are checked against what is committed), refuses blocked items
     * and items an administrator closed to changes, records the change in the item's audit log and drops the
     * claims of files written for it.
     */
    async function change<T>(
      request: FastifyRequest,
      pluginId: number,
      action: string,
      write: (tx: Transaction) => Promise<{ result: T; details?: Record<string, unknown> }>,
      claims: readonly number[] = [],
    ): Promise<T> {
      return app.db.transaction(async (tx) => {
        const state = await loadPluginState(tx, pluginId, { forUpdate: true });
        if (!state || state.lifecycleState === 'deleted') {
          throw new ApiError('notFound', `Plugin ${pluginId} does not exist.`);
        }
        if (
          !isAdministrator(request.viewer) &&
          (state.blockState === 'blocked' || !state.modificationAllowed)
        ) {
          throw new ApiError(
            'conflict',
            state.blockState === 'blocked'
              ? 'The plugin is blocked by the administrators, so its pages cannot be changed.'
              : 'Changes to this plugin are not allowed at the moment (access was disallowed by an administrator).',
          );
        }
        const { result, details } = await write(tx);
        await recordAudit(tx, {
          pluginId,
          actorId: viewerUserId(request.viewer),
          action,
          details: details ?? {},
        });
        for (const claim of claims) await releaseClaim(tx, claim);
        return result;
      });
    }

    async function pageOrThrow(tx: Transaction | typeof app.db, pluginId: number, pageId: number) {
      const page = await loadPage(tx, pluginId, pageId);
      if (!page) throw noSuchPage(pluginId, pageId);
      return page;
    }

    function checkUrl(url: string, pages: readonly PageRow[], pageId: number | undefined): void {
      const problem = pageUrlProblem(url);
      if (problem) throw new ApiError('badRequest', problem);
      // A URL in a published page's unpublished changes is taken too: publishing them must not clash.
      const clash = pages.find((page) => page.id !== pageId && (page.url === url || page.draft?.url === url));
      if (clash) {
        throw new ApiError(
          'badRequest',
          clash.url === url
            ? `The page "${clash.name}" of this item already has the URL "${url}"; choose another.`
            : `The page "${clash.name}" of this item already has the URL "${url}" in its unpublished changes; choose another.`,
        );
      }
    }

    function checkParent(pages: readonly PageRow[], pageId: number | undefined, parentId: number | null) {
      const problem = parentProblem(pages, pageId, parentId);
      if (problem) throw new ApiError('badRequest', problem);
    }

    /** The next position among the children of `parentId`. */
    function endOf(pages: readonly PageRow[], parentId: number | null, except?: number): number {
      const siblings = pages.filter((page) => page.parentId === parentId && page.id !== except);
      return siblings.reduce((max, page) => Math.max(max, page.position + 1), 0);
    }

    // Visitors ---------------------------------------------------------------------------------------------

    async function checkVisible(request: FastifyRequest, pluginId: number): Promise<void> {
      const [visible] = await selectRows<{ id: number }>(
        app.db,
        sql`SELECT p.id FROM plugins p WHERE p.id = ${pluginId} AND ${pluginVisibleTo(viewerOf(request))}`,
      );
      if (!visible) throw new ApiError('notFound', `Plugin ${pluginId} does not exist.`);
    }

    app.get(
      `${PAGES}/published`,
      {
        schema: {
          tags: ['pages'],
          summary: 'The published pages of an item, in reading order (the custom-pages tab)',
          params: IdParams,
          response: { 200: PublishedPageListSchema, 404: ErrorBody },
        },
      },
      async (request) => {
        await checkVisible(request, request.params.id);
        return publishedListOf(await listPages(app.db, request.params.id), origin);
      },
    );

    app.get(
      `${PAGES}/published/:url`,
      {
        schema: {
          tags: ['pages'],
          summary:
            'A published page by its URL: sanitised HTML and its table of contents, or the webhelp link',
          params: PublishedPageParams,
          response: { 200: PublishedPageSchema, 404: ErrorBody },
        },
      },
      async (request) => {
        const { id, url } = request.params;
        await checkVisible(request, id);
        const page = await loadPublishedPage(app.db, id, url);
        if (!page)
          throw new ApiError('notFound', `Plugin ${id} has no published page "${url.slice(0, 80)}".`);
        return publishedBodyOf(page, origin);
      },
    );

    app.get(
      `${PAGE}/images/:imageId`,
      {
        schema: {
          tags: ['pages'],
          summary: 'An image of a page: anyone for a published page, its people for a draft',
          params: CustomPageImageParams,
        },
      },
      async (request, reply) => {
        const { id, pageId, imageId } = request.params;
        const [image] = await selectRows<{ file_hash: string; content_type: string; status: string }>(
          app.db,
          sql`SELECT i.file_hash, i.content_type, c.status FROM custom_page_images i
            JOIN custom_pages c ON c.id = i.page_id JOIN plugins p ON p.id = c.plugin_id
            WHERE i.id = ${imageId} AND c.id = ${pageId} AND p.id = ${id}
              AND ${pluginVisibleTo(viewerOf(request))}`,
        );
        let allowed = image !== undefined && image.status !== 'DRAFT';
        if (image && !allowed && request.viewer.kind === 'user' && !request.viewer.banned) {
          const managers = await pluginManagers(app.db, id);
          allowed = isAdministrator(request.viewer) || (managers ?? []).includes(request.viewer.user.id);
        }
        if (!image || !allowed) throw new ApiError('notFound', 'There is no such image.');
        const file = await app.fileStore.open(image.file_hash);
        if (!file) {
          request.log.error({ hash: image.file_hash }, 'a page image refers to a missing file');
          throw new ApiError('notFound', 'The image is not available.');
        }
        return reply
          .headers({
            'x-content-type-options': 'nosniff',
            'content-security-policy': "default-src 'none'; sandbox",
            'cache-control': image.status === 'DRAFT' ? 'private, no-cache' : 'public, max-age=3600',
          })
          .type(image.content_type)
          .send(file.stream);
      },
    );

    // The item's people ------------------------------------------------------------------------------------

    app.get(
      PAGES,
      {
        config: OWNER,
        schema: {
          tags: ['pages'],
          summary: 'Every page of an item, drafts included, in reading order',
          params: IdParams,
          response: { 200: CustomPageListSchema, ...errors },
        },
      },
      async (request) => (await listPages(app.db, request.params.id)).map((row) => summaryOf(row, origin)),
    );

    app.post(
      `${PAGES}/preview`,
      {
        config: { ...OWNER, readOnly: true },
        schema: {
          tags: ['pages'],
          summary: 'Render Markdown exactly as the published page will show it (the editor’s live preview)',
          params: IdParams,
          body: PreviewCustomPageBody,
          response: { 200: RenderedPageSchema, ...errors },
        },
      },
      async (request) => renderPage(request.body.markdown, request.body.generateToc ?? false),
    );

    app.post(
      PAGES,
      {
        config: OWNER,
        schema: {
          tags: ['pages'],
          summary: 'Create a page (a Markdown draft, or a webhelp to upload a zip into)',
          params: IdParams,
          body: CreateCustomPageBody,
          response: { 201: CustomPageSchema, ...errors },
        },
      },
      async (request, reply) => {
        const pluginId = request.params.id;
        const body = request.body;
        const name = body.name.trim();
        if (name === '') throw new ApiError('badRequest', 'Give the page a name.');
        const type = body.type ?? 'custom-page';
        const url = body.url ?? pageUrlOf(name);
        const parentId = body.parentId ?? null;
        const generateToc = body.generateToc ?? false;
        const markdown = type === 'custom-page' ? (body.originalContent ?? '') : '';
        const rendered = renderPage(markdown, generateToc);
        const created = await change(request, pluginId, 'create-custom-page', async (tx) => {
          const pages = await listPages(tx, pluginId);
          if (pages.length >= CUSTOM_PAGE_LIMITS.maxPagesPerItem) {
            throw new ApiError(
              'badRequest',
              `An item may have at most ${CUSTOM_PAGE_LIMITS.maxPagesPerItem} pages.`,
            );
          }
          checkUrl(url, pages, undefined);
          checkParent(pages, undefined, parentId);
          const [row] = await tx
            .insert(customPages)
            .values({
              pluginId,
              parentId,
              url,
              name,
              type,
              originalContent: markdown,
              content: rendered.content,
              generateToc,
              position: endOf(pages, parentId),
            })
            .returning({ id: customPages.id });
          return { result: row!.id, details: { pageId: row!.id, url, type } };
        });
        const page = await pageOrThrow(app.db, pluginId, created);
        return reply.code(201).send(await pageBodyOf(app.db, page, origin));
      },
    );

    app.put(
      `${PAGES}/order`,
      {
        config: OWNER,
        schema: {
          tags: ['pages'],
          summary: 'Nest and order the pages: every page once, in reading order, with its parent',
          params: IdParams,
          body: ArrangeCustomPagesBody,
          response: { 200: CustomPageListSchema, ...errors },
        },
      },
      async (request) => {
        const pluginId = request.params.id;
        return change(request, pluginId, 'arrange-custom-pages', async (tx) => {
          const pages = await listPages(tx, pluginId);
          const arrangement = request.body.pages;
          const problem = arrangementProblem(
            pages.map((page) => page.id),
            arrangement,
          );
          if (problem) throw new ApiError('badRequest', problem);
          const positions = new Map<number | null, number>();
          for (const entry of arrangement) {
            const position = positions.get(entry.parentId) ?? 0;
            positions.set(entry.parentId, position + 1);
            await tx
              .update(customPages)
              .set({ parentId: entry.parentId, position })
              .where(and(eq(customPages.id, entry.id), eq(customPages.pluginId, pluginId)));
          }
          return {
            result: (await listPages(tx, pluginId)).map((row) => summaryOf(row, origin)),
            details: { order: arrangement.map((entry) => entry.id) },
          };
        });
      },
    );

    app.get(
      PAGE,
      {
        config: OWNER,
        schema: {
          tags: ['pages'],
          summary: 'A page as its people edit it',
          params: CustomPageParams,
          response: { 200: CustomPageSchema, ...errors },
        },
      },
      async (request) => {
        const page = await pageOrThrow(app.db, request.params.id, request.params.pageId);
        return pageBodyOf(app.db, page, origin);
      },
    );

    app.put(
      PAGE,
      {
        config: OWNER,
        schema: {
          tags: ['pages'],
          summary:
            'Change a page: name, URL, Markdown, table of contents, parent. On a published page the changes are ' +
            'saved as its draft (visitors keep the published version until it is published); parent applies at once',
          params: CustomPageParams,
          body: UpdateCustomPageBody,
          response: { 200: CustomPageSchema, ...errors },
        },
      },
      async (request) => {
        const { id: pluginId, pageId } = request.params;
        const body = request.body;
        await change(request, pluginId, 'update-custom-page', async (tx) => {
          const pages = await listPages(tx, pluginId);
          const page = pages.find((candidate) => candidate.id === pageId);
          if (!page) throw noSuchPage(pluginId, pageId);
          // A published page is changed through its draft: what it has saved so far, else what is published.
          const published = page.status !== 'DRAFT';
          const current = (published ? page.draft : undefined) ?? page;
          const name = body.name === undefined ? current.name : body.name.trim();
          if (name === '') throw new ApiError('badRequest', 'Give the page a name.');
          const url = body.url ?? current.url;
          if (url !== page.url && url !== page.draft?.url) checkUrl(url, pages, pageId);
          const parentId = body.parentId === undefined ? page.parentId : body.parentId;
          if (parentId !== page.parentId) checkParent(pages, pageId, parentId);
          const generateToc = body.generateToc ?? current.generateToc;
          const markdown =
            page.type === 'custom-page' ? (body.originalContent ?? current.originalContent) : '';
          const content = renderPage(markdown, generateToc).content;
          const tree = {
            parentId,
            position: parentId === page.parentId ? page.position : endOf(pages, parentId, pageId),
          };
          if (!published) {
            await tx
              .update(customPages)
              .set({
                ...tree,
                name,
                url,
                generateToc,
                originalContent: markdown,
                content,
                updatedAt: new Date(),
              })
              .where(eq(customPages.id, pageId));
            return { result: undefined, details: { pageId, url } };
          }
          // Changes that bring a published page back to what is published leave no draft (unless a new
          // webhelp zip waits in it).
          const unchanged =
            name === page.name &&
            url === page.url &&
            generateToc === page.generateToc &&
            markdown === page.originalContent &&
            (page.draft?.webhelpFiles ?? 0) === 0;
          await tx
            .update(customPages)
            .set(
              unchanged
                ? { ...tree, ...NO_DRAFT }
                : {
                    ...tree,
                    draftName: name,
                    draftUrl: url,
                    draftGenerateToc: generateToc,
                    draftOriginalContent: markdown,
                    draftContent: content,
                    draftUpdatedAt: new Date(),
                  },
            )
            .where(eq(customPages.id, pageId));
          return { result: undefined, details: { pageId, url, draft: !unchanged } };
        });
        return pageBodyOf(app.db, await pageOrThrow(app.db, pluginId, pageId), origin);
      },
    );

    app.delete(
      PAGE,
      {
        config: OWNER,
        schema: {
          tags: ['pages'],
          summary: 'Delete a page; its sub-pages move up to its parent',
          params: CustomPageParams,
          response: { 204: Type.Null(), ...errors },
        },
      },
      async (request, reply) => {
        const { id: pluginId, pageId } = request.params;
        await change(request, pluginId, 'delete-custom-page', async (tx) => {
          const pages = await listPages(tx, pluginId);
          const page = pages.find((candidate) => candidate.id === pageId);
          if (!page) throw noSuchPage(pluginId, pageId);
          let position = endOf(pages, page.parentId, pageId);
          for (const child of pages.filter((candidate) => candidate.parentId === pageId)) {
            await tx
              .update(customPages)
              .set({ parentId: page.parentId, position })
              .where(eq(customPages.id, child.id));
            position += 1;
          }
          await tx.delete(customPages).where(eq(customPages.id, pageId));
          return { result: undefined, details: { pageId, url: page.url } };
        });
        return reply.code(204).send(null);
      },
    );

    app.delete(
      `${PAGE}/draft`,
      {
        config: OWNER,
        schema: {
          tags: ['pages'],
          summary:
            'Discard the draft of a published page (its saved changes and any new webhelp zip): visitors’ ' +
            'version stays; nothing to discard is not an error',
          params: CustomPageParams,
          response: { 200: CustomPageSchema, ...errors },
        },
      },
      async (request) => {
        const { id: pluginId, pageId } = request.params;
        await change(request, pluginId, 'discard-custom-page-draft', async (tx) => {
          const page = await pageOrThrow(tx, pluginId, pageId);
          await tx
            .delete(customPageFiles)
            .where(and(eq(customPageFiles.pageId, pageId), eq(customPageFiles.draft, true)));
          await tx.update(customPages).set(NO_DRAFT).where(eq(customPages.id, pageId));
          return { result: undefined, details: { pageId, hadDraft: page.draft !== undefined } };
        });
        return pageBodyOf(app.db, await pageOrThrow(app.db, pluginId, pageId), origin);
      },
    );

    for (const publish of [true, false]) {
      app.post(
        `${PAGE}/${publish ? 'publish' : 'unpublish'}`,
        {
          config: OWNER,
          schema: {
            tags: ['pages'],
            summary: publish
              ? 'Publish a page (a webhelp once its zip is uploaded), or the draft of a published page: ' +
                'it appears on the custom-pages tab as it is now'
              : 'Take a page back to draft (its unsaved-for-visitors draft becomes the page)',
            params: CustomPageParams,
            response: { 200: CustomPageSchema, ...errors },
          },
        },
        async (request) => {
          const { id: pluginId, pageId } = request.params;
          await change(
            request,
            pluginId,
            publish ? 'publish-custom-page' : 'unpublish-custom-page',
            async (tx) => {
              const page = await pageOrThrow(tx, pluginId, pageId);
              if (publish && page.type === 'webhelp' && page.webhelpFiles === 0) {
                throw new ApiError('badRequest', 'Upload the webhelp zip before publishing the page.');
              }
              const status = !publish ? 'DRAFT' : page.type === 'webhelp' ? 'WEBHELP' : 'PUBLISH';
              // Publishing a page with a draft makes the draft the page; unpublishing folds it into the page
              // too (nobody sees the page then, so there is no published version to keep apart).
              const draft = page.draft;
              if (draft && draft.webhelpFiles > 0) {
                await tx
                  .delete(customPageFiles)
                  .where(and(eq(customPageFiles.pageId, pageId), eq(customPageFiles.draft, false)));
                await tx
                  .update(customPageFiles)
                  .set({ draft: false })
                  .where(eq(customPageFiles.pageId, pageId));
              }
              await tx
                .update(customPages)
                .set({
                  status,
                  publishedAt: publish ? new Date() : null,
                  ...(draft
                    ? {
                        name: draft.name,
                        url: draft.url,
                        originalContent: draft.originalContent,
                        content: draft.content,
                        generateToc: draft.generateToc,
                        updatedAt: new Date(),
                        ...NO_DRAFT,
                      }
                    : {}),
                })
                .where(eq(customPages.id, pageId));
              return { result: undefined, details: { pageId, status, draftApplied: draft !== undefined } };
            },
          );
          return pageBodyOf(app.db, await pageOrThrow(app.db, pluginId, pageId), origin);
        },
      );
    }

    /** Stores bytes in the file store under a claim; the claim is dropped with the commit of the row. */
    async function storeClaimed(bytes: Buffer, claims: number[]): Promise<string> {
      const hash = createHash('sha256').update(bytes).digest('hex');
      claims.push(await claimStoredFile(app.db, hash));
      return (await app.fileStore.put(bytes)).hash;
    }

    async function dropClaims(request: FastifyRequest, claims: readonly number[]): Promise<void> {
      for (const claim of claims) {
        await releaseClaim(app.db, claim).catch((error: unknown) =>
          request.log.error({ err: error }, 'could not drop a file claim'),
        );
      }
    }

    /** The one file part of a multipart request, with a size limit; 413 past it. */
    async function filePart(request: FastifyRequest, maxBytes: number, what: string) {
      if (!request.isMultipart())
        throw new ApiError('badRequest', `Send the ${what} as multipart/form-data.`);
      let part;
      try {
        part = await request.file({
          limits: { fileSize: maxBytes + 1, files: 1, fields: 10, fieldSize: 1024 },
        });
      } catch (error) {
        throw new ApiError('badRequest', `The ${what} could not be read: ${(error as Error).message}.`);
      }
      if (!part) throw new ApiError('badRequest', `The request carries no ${what}.`);
      return part;
    }

    const tooLarge = (what: string, maxBytes: number) =>
      new ApiError(
        'payloadTooLarge',
        `The ${what} is larger than ${formatBytes(maxBytes)}, the most accepted.`,
      );

    app.post(
      `${PAGE}/images`,
      {
        config: OWNER,
        schema: {
          tags: ['pages'],
          summary: 'Upload an image into a page (PNG, JPEG, GIF or WebP, checked by its bytes)',
          params: CustomPageParams,
          response: { 201: CustomPageImageSchema, 413: ErrorBody, ...errors },
        },
      },
      async (request, reply) => {
        const { id: pluginId, pageId } = request.params;
        await pageOrThrow(app.db, pluginId, pageId);
        const part = await filePart(request, options.maxImageBytes, 'image');
        let bytes: Buffer;
        try {
          bytes = await part.toBuffer();
        } catch (error) {
          if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE' || part.file.truncated) {
            throw tooLarge('image', options.maxImageBytes);
          }
          throw new ApiError('badRequest', `The image could not be read: ${(error as Error).message}.`);
        }
        if (part.file.truncated || bytes.length > options.maxImageBytes)
          throw tooLarge('image', options.maxImageBytes);
        const fileName = (part.filename || 'image').slice(0, 200);
        const kind = sniffPageImage(bytes);
        if (!kind) {
          throw new ApiError(
            'badRequest',
            `"${fileName.slice(0, 100)}" is not a PNG, JPEG, GIF or WebP image, so it cannot go into the page.`,
          );
        }
        const claims: number[] = [];
        try {
          const hash = await storeClaimed(bytes, claims);
          const imageId = await change(
            request,
            pluginId,
            'add-custom-page-image',
            async (tx) => {
              await pageOrThrow(tx, pluginId, pageId);
              const [count] = await selectRows<{ count: number }>(
                tx,
                sql`SELECT count(*)::int AS count FROM custom_page_images WHERE page_id = ${pageId}`,
              );
              if (Number(count?.count ?? 0) >= CUSTOM_PAGE_LIMITS.maxImagesPerPage) {
                throw new ApiError(
                  'badRequest',
                  `A page may hold at most ${CUSTOM_PAGE_LIMITS.maxImagesPerPage} images.`,
                );
              }
              const [row] = await tx
                .insert(customPageImages)
                .values({ pageId, name: fileName, fileHash: hash, contentType: kind, size: bytes.length })
                .returning({ id: customPageImages.id });
              return { result: row!.id, details: { pageId, imageId: row!.id, fileHash: hash } };
            },
            claims,
          );
          return reply.code(201).send({
            id: imageId,
            url: imageUrl(pluginId, pageId, imageId),
            name: fileName,
            contentType: kind,
            size: bytes.length,
          });
        } catch (error) {
          await dropClaims(request, claims);
          throw error;
        }
      },
    );

    app.get(
      `${PAGE}/images`,
      {
        config: OWNER,
        schema: {
          tags: ['pages'],
          summary: 'The images uploaded into a page, oldest first',
          params: CustomPageParams,
          response: { 200: CustomPageImageListSchema, ...errors },
        },
      },
      async (request) =>
        pageImages(app.db, await pageOrThrow(app.db, request.params.id, request.params.pageId)),
    );

    app.delete(
      `${PAGE}/images/:imageId`,
      {
        config: OWNER,
        schema: {
          tags: ['pages'],
          summary:
            'Delete an image of a page and its stored file (refused while the published version shows it)',
          params: CustomPageImageParams,
          response: { 204: Type.Null(), ...errors },
        },
      },
      async (request, reply) => {
        const { id: pluginId, pageId, imageId } = request.params;
        const fileHash = await change(request, pluginId, 'delete-custom-page-image', async (tx) => {
          const page = await pageOrThrow(tx, pluginId, pageId);
          const [image] = await tx
            .select({ fileHash: customPageImages.fileHash, name: customPageImages.name })
            .from(customPageImages)
            .where(and(eq(customPageImages.id, imageId), eq(customPageImages.pageId, pageId)));
          if (!image) throw new ApiError('notFound', `The page "${page.name}" has no image ${imageId}.`);
          // Visitors would see a broken image: the published version must stop showing it first.
          if (page.status !== 'DRAFT' && showsImage(page.content, imageUrl(pluginId, pageId, imageId))) {
            throw new ApiError(
              'conflict',
              `The published version of "${page.name}" shows the image "${image.name}". Remove it from the ` +
                'page and publish the change, then delete the image.',
            );
          }
          await tx.delete(customPageImages).where(eq(customPageImages.id, imageId));
          return { result: image.fileHash, details: { pageId, imageId, fileHash: image.fileHash } };
        });
        // After the commit: the stored file goes unless another row (another page, another upload) uses it.
        await removeFileIfUnreferenced(app.db, app.fileStore, fileHash).catch((error: unknown) =>
          request.log.error({ err: error, hash: fileHash }, 'could not remove a deleted page image’s file'),
        );
        return reply.code(204).send(null);
      },
    );

    app.post(
      `${PAGE}/webhelp/preview`,
      {
        config: { ...OWNER, readOnly: true },
        schema: {
          tags: ['pages'],
          summary:
            'An address, valid for an hour, where the item’s people preview the webhelp as it would be published ' +
            '(its new zip, else its uploaded one), sandboxed like the published one',
          params: CustomPageParams,
          response: { 200: WebhelpPreviewSchema, ...errors },
        },
      },
      async (request) => {
        const { id: pluginId, pageId } = request.params;
        const page = await pageOrThrow(app.db, pluginId, pageId);
        if (page.type !== 'webhelp') {
          throw new ApiError(
            'badRequest',
            `"${page.name}" is a Markdown page; it has no webhelp to preview.`,
          );
        }
        if (page.webhelpFiles === 0 && (page.draft?.webhelpFiles ?? 0) === 0) {
          throw new ApiError('badRequest', `Upload the webhelp zip of "${page.name}" before previewing it.`);
        }
        const userId = viewerUserId(request.viewer);
        if (userId === null) throw new ApiError('unauthorized', 'Sign in to preview the webhelp.');
        const token = randomBytes(32).toString('base64url');
        const expiresAt = new Date(Date.now() + CUSTOM_PAGE_LIMITS.webhelpPreviewMinutes * 60_000);
        await app.db.transaction(async (tx) => {
          await tx.delete(customPagePreviews).where(sql`${customPagePreviews.expiresAt} < now()`);
          await tx
            .insert(customPagePreviews)
            .values({ tokenHash: previewTokenHash(token), pageId, userId, expiresAt });
        });
        return { url: `${origin ?? ''}${webhelpPreviewPath(token)}`, expiresAt: expiresAt.getTime() };
      },
    );

    app.put(
      `${PAGE}/webhelp`,
      {
        config: OWNER,
        schema: {
          tags: ['pages'],
          summary:
            'Upload the webhelp zip of a webhelp page (the static HTML a documentation tool built, with index.html); ' +
            'it replaces the previous one, or, on a published webhelp, waits in its draft until published',
          params: CustomPageParams,
          response: { 200: CustomPageSchema, 413: ErrorBody, ...errors },
        },
      },
      async (request) => {
        const { id: pluginId, pageId } = request.params;
        const page = await pageOrThrow(app.db, pluginId, pageId);
        if (page.type !== 'webhelp') {
          throw new ApiError(
            'badRequest',
            `"${page.name}" is a Markdown page; create a webhelp page for a zip.`,
          );
        }
        const maxBytes = options.webhelpLimits.maxArchiveBytes;
        const part = await filePart(request, maxBytes, 'webhelp zip');
        let received;
        try {
          received = await receiveUpload(part.file, { maxBytes, tempDir: options.tempDir });
        } catch (error) {
          if (error instanceof UploadTooLargeError) throw tooLarge('webhelp zip', maxBytes);
          throw error;
        }
        const claims: number[] = [];
        try {
          const files: { path: string; fileHash: string; contentType: string; size: number }[] = [];
          try {
            await readWebhelpArchive(
              received.path,
              async (file) => {
                files.push({
                  path: file.path,
                  fileHash: await storeClaimed(file.bytes, claims),
                  contentType: webhelpContentType(file.path),
                  size: file.bytes.length,
                });
              },
              options.webhelpLimits,
            );
          } catch (error) {
            if (error instanceof ArchiveRejection) throw new ApiError('badRequest', error.message);
            throw error;
          }
          await change(
            request,
            pluginId,
            'upload-webhelp',
            async (tx) => {
              const current = await pageOrThrow(tx, pluginId, pageId);
              // Visitors keep the published webhelp: a new zip of a published one goes into its draft.
              const draft = current.status !== 'DRAFT';
              await tx
                .delete(customPageFiles)
                .where(and(eq(customPageFiles.pageId, pageId), eq(customPageFiles.draft, draft)));
              for (let start = 0; start < files.length; start += 500) {
                await tx
                  .insert(customPageFiles)
                  .values(files.slice(start, start + 500).map((file) => ({ pageId, draft, ...file })));
              }
              const base = current.draft ?? current;
              await tx
                .update(customPages)
                .set(
                  draft
                    ? {
                        draftName: base.name,
                        draftUrl: base.url,
                        draftGenerateToc: base.generateToc,
                        draftOriginalContent: base.originalContent,
                        draftContent: base.content,
                        draftUpdatedAt: new Date(),
                      }
                    : { updatedAt: new Date() },
                )
                .where(eq(customPages.id, pageId));
              return {
                result: undefined,
                details: { pageId, files: files.length, archiveHash: received.sha256, draft },
              };
            },
            claims,
          );
        } catch (error) {
          await dropClaims(request, claims);
          throw error;
        } finally {
          await rm(received.path, { force: true });
        }
        return pageBodyOf(app.db, await pageOrThrow(app.db, pluginId, pageId), origin);
      },
    );
  };
}
