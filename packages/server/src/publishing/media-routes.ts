import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ArrangeScreenshotsBody, DocumentationTabQuery, IdParams } from '@marketplace/api-contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Transaction } from '../db/client';
import { pluginDocumentationTabs, plugins, pluginScreenshots } from '../db/schema';
import { ApiError } from '../plugins/app/errors';
import { pluginVisibleTo, selectRows, viewerOf } from '../search/sql';
import { recordAudit } from './audit';
import { isMalformedMultipart } from './upload-form';
import { claimStoredFile, releaseClaim } from './file-claims';
import type { PublishingOptions } from './options';
import { isAdministrator, loadPluginState, managersOfPluginParam, viewerUserId } from './plugin-access';
import { renderMarkdown, sanitizeDocumentHtml, sanitizeSvg } from './sanitize';

/** A documentation tab of a plugin, by its URL suffix. */
const DocumentationTabParams = Type.Object({
  id: IdParams.properties.id,
  urlSuffix: Type.String({ maxLength: 64 }),
});

/** Served documentation is inert: no scripts, no plugins, no framing by others. */
const DOCUMENT_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy':
    "default-src 'none'; img-src https: http: data:; style-src 'unsafe-inline'; sandbox",
} as const;

interface UploadedMedia {
  fieldName: string;
  fileName: string;
  bytes: Buffer;
}

type ImageKind = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | 'image/svg+xml';

/** What the bytes are (never what the client says): PNG, JPEG, GIF, WebP, or SVG text. */
function sniffImage(bytes: Buffer): ImageKind | undefined {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (
    bytes.subarray(0, 6).toString('latin1') === 'GIF87a' ||
    bytes.subarray(0, 6).toString('latin1') === 'GIF89a'
  ) {
    return 'image/gif';
  }
  if (
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  ) {
    return 'image/webp';
  }
  const head = bytes.subarray(0, 1024).toString('utf8').trimStart();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(head)) return 'image/svg+xml';
  return undefined;
}

/** An image ready to store: SVGs are sanitised, and one that keeps nothing drawable is refused. */
function preparedImage(file: UploadedMedia, allowed: readonly ImageKind[], what: string) {
  const kind = sniffImage(file.bytes);
  if (!kind || !allowed.includes(kind)) {
    const names = allowed
      .map((type) => type.replace('image/', '').replace('+xml', '').toUpperCase())
      .join(' or ');
    throw new ApiError(
      'badRequest',
      `"${file.fileName}" is not a ${names} image, so it cannot be the ${what}.`,
    );
  }
  if (kind !== 'image/svg+xml') return { kind, bytes: file.bytes };
  const svg = sanitizeSvg(file.bytes.toString('utf8'));
  if (!svg) throw new ApiError('badRequest', `"${file.fileName}" is not an SVG image we can show safely.`);
  return { kind, bytes: Buffer.from(svg, 'utf8') };
}

/** `Getting Started.md` -> `getting-started`: the URL suffix of a documentation tab. */
export function urlSuffixOf(path: string): string {
  return path
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\.(md|markdown|html?)$/, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
}

/**
 * The icon, screenshots and documentation tabs. Files are at most `maxMediaBytes`, read whole (they are
 * small, unlike archives), checked by their bytes, sanitised when they are SVG, Markdown or HTML, stored by
 * hash under a claim and committed with their rows.
 */
export function mediaRoutes(options: PublishingOptions): FastifyPluginAsyncTypebox {
  return async (app) => {
    const OWNER = { rule: 'owner', ownerOf: managersOfPluginParam(app.db) } as const;

    async function readFiles(request: FastifyRequest, maxFiles: number): Promise<UploadedMedia[]> {
      if (!request.isMultipart()) throw new ApiError('badRequest', 'Send the files as multipart/form-data.');
      const files: UploadedMedia[] = [];
      try {
        for await (const part of request.parts({
          limits: { fileSize: options.maxMediaBytes, files: maxFiles, fields: 20, fieldSize: 4096 },
        })) {
          if (part.type !== 'file') continue;
          const bytes = await part.toBuffer();
          if (part.file.truncated) {
            throw new ApiError(
              'badRequest',
              `"${part.filename}" is larger than ${Math.round(options.maxMediaBytes / 1024 / 1024)} MB.`,
            );
          }
          files.push({ fieldName: part.fieldname, fileName: part.filename || part.fieldname, bytes });
        }
      } catch (error) {
        if (error instanceof ApiError) throw error;
        const status = (error as { statusCode?: unknown }).statusCode;
        if ((typeof status === 'number' && status >= 400 && status < 500) || isMalformedMultipart(error)) {
          throw new ApiError('badRequest', `The files could not be read: ${(error as Error).message}.`);
        }
        throw error;
      }
      if (files.length === 0) throw new ApiError('badRequest', 'The request carries no file.');
      return files;
    }

    /**
     * Stores the files under claims, then runs `write` (rows and audit) in one transaction that also drops
     * the claims, after checking the plugin may be changed by this viewer.
     */
    async function storeAndWrite<T>(
      request: FastifyRequest,
      pluginId: number,
      contents: readonly Buffer[],
      action: string,
      write: (tx: Transaction, hashes: string[]) => Promise<{ result: T; details?: Record<string, unknown> }>,
    ): Promise<T> {
      const claims: number[] = [];
      try {
        const hashes: string[] = [];
        for (const bytes of contents) {
          const hash = createHash('sha256').update(bytes).digest('hex');
          claims.push(await claimStoredFile(app.db, hash));
          const stored = await app.fileStore.put(bytes);
          hashes.push(stored.hash);
        }
        return await app.db.transaction(async (tx) => {
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
                ? 'The plugin is blocked by the administrators, so it cannot be changed.'
                : 'Changes to this plugin are not allowed at the moment (access was disallowed by an administrator).',
            );
          }
          const { result, details } = await write(tx, hashes);
          await recordAudit(tx, {
            pluginId,
            actorId: viewerUserId(request.viewer),
            action,
            details: details ?? {},
          });
          for (const claim of claims) await releaseClaim(tx, claim);
          return result;
        });
      } catch (error) {
        for (const claim of claims) {
          await releaseClaim(app.db, claim).catch((releaseError: unknown) =>
            request.log.error({ err: releaseError }, 'could not drop a file claim'),
          );
        }
        throw error;
      }
    }

    app.put(
      '/api/plugins/:id/icon',
      {
        config: { auth: OWNER },
        schema: { tags: ['management'], summary: 'Upload the icon (PNG or SVG)', params: IdParams },
      },
      async (request) => {
        const [file] = await readFiles(request, 1);
        const image = preparedImage(file!, ['image/png', 'image/svg+xml'], 'icon');
        return storeAndWrite(request, request.params.id, [image.bytes], 'update-icon', async (tx, [hash]) => {
          await tx.update(plugins).set({ iconHash: hash! }).where(eq(plugins.id, request.params.id));
          return {
            result: { icon: `/api/plugins/${request.params.id}/icon?v=${hash!.slice(0, 12)}` },
            details: { fileHash: hash },
          };
        });
      },
    );

    async function screenshotList(db: Transaction | typeof app.db, pluginId: number) {
      const rows = await db
        .select({ id: pluginScreenshots.id })
        .from(pluginScreenshots)
        .where(eq(pluginScreenshots.pluginId, pluginId))
        .orderBy(asc(pluginScreenshots.position));
      return rows.map((row) => ({ id: row.id, url: `/api/plugins/${pluginId}/screenshots/${row.id}` }));
    }

    app.get(
      '/api/plugins/:id/screenshots',
      { schema: { tags: ['plugins'], summary: 'The screenshots, in order', params: IdParams } },
      async (request) => {
        const [visible] = await selectRows<{ id: number }>(
          app.db,
          sql`SELECT p.id FROM plugins p WHERE p.id = ${request.params.id} AND ${pluginVisibleTo(viewerOf(request))}`,
        );
        if (!visible) throw new ApiError('notFound', `Plugin ${request.params.id} does not exist.`);
        return screenshotList(app.db, request.params.id);
      },
    );

    app.post(
      '/api/plugins/:id/screenshots',
      {
        config: { auth: OWNER },
        schema: {
          tags: ['management'],
          summary: 'Add screenshots (multipart, one file per part)',
          params: IdParams,
        },
      },
      async (request) => {
        const files = await readFiles(request, 20);
        const images = files.map((file) =>
          preparedImage(
            file,
            ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/svg+xml'],
            'screenshot',
          ),
        );
        const pluginId = request.params.id;
        return storeAndWrite(
          request,
          pluginId,
          images.map((image) => image.bytes),
          'add-screenshots',
          async (tx, hashes) => {
            const [last] = await selectRows<{ position: number | null }>(
              tx,
              sql`SELECT max(position) AS position FROM plugin_screenshots WHERE plugin_id = ${pluginId}`,
            );
            const start = (last?.position ?? -1) + 1;
            await tx.insert(pluginScreenshots).values(
              hashes.map((fileHash, index) => ({
                pluginId,
                position: start + index,
                fileHash,
                contentType: images[index]!.kind,
              })),
            );
            return { result: await screenshotList(tx, pluginId), details: { added: hashes.length } };
          },
        );
      },
    );

    app.put(
      '/api/plugins/:id/screenshots',
      {
        config: { auth: OWNER },
        schema: {
          tags: ['management'],
          summary: 'Reorder and delete screenshots: the list of urls to keep, in order',
          params: IdParams,
          body: ArrangeScreenshotsBody,
        },
      },
      async (request) => {
        const pluginId = request.params.id;
        const urls = request.body.map((item) => (typeof item === 'string' ? item : item.url));
        return storeAndWrite(request, pluginId, [], 'arrange-screenshots', async (tx) => {
          const current = await screenshotList(tx, pluginId);
          const kept = urls.map((url) => {
            const found = current.find((screenshot) => screenshot.url === url.split('?')[0]);
            if (!found) throw new ApiError('badRequest', `"${url}" is not a screenshot of this plugin.`);
            return found;
          });
          if (new Set(kept.map((screenshot) => screenshot.id)).size !== kept.length) {
            throw new ApiError('badRequest', 'A screenshot is listed twice.');
          }
          const removed = current.filter((screenshot) => !kept.includes(screenshot));
          for (const screenshot of removed) {
            await tx.delete(pluginScreenshots).where(eq(pluginScreenshots.id, screenshot.id));
          }
          // Two steps, so the unique (plugin, position) never sees two rows at one position.
          await tx
            .update(pluginScreenshots)
            .set({ position: sql`-1 - ${pluginScreenshots.position}` })
            .where(eq(pluginScreenshots.pluginId, pluginId));
          for (const [position, screenshot] of kept.entries()) {
            await tx
              .update(pluginScreenshots)
              .set({ position })
              .where(eq(pluginScreenshots.id, screenshot.id));
          }
          return {
            result: await screenshotList(tx, pluginId),
            details: { kept: kept.map((s) => s.id), removed: removed.map((s) => s.id) },
          };
        });
      },
    );

    app.post(
      '/api/plugins/:id/documentation',
      {
        config: { auth: OWNER },
        schema: {
          tags: ['management'],
          summary: 'Add or replace a documentation tab from a Markdown or HTML file',
          params: IdParams,
          querystring: DocumentationTabQuery,
        },
      },
      async (request) => {
        const pluginId = request.params.id;
        const tabName = request.query.tabName.trim();
        if (tabName === '') throw new ApiError('badRequest', 'Give the tab a name.');
        const [file] = await readFiles(request, 1);
        const source = file!.bytes.toString('utf8');
        if (source.includes('\u0000'))
          throw new ApiError('badRequest', `"${file!.fileName}" is not a text file.`);
        const isHtml = /\.html?$/i.test(file!.fileName);
        if (!isHtml && !/\.(md|markdown)$/i.test(file!.fileName)) {
          throw new ApiError('badRequest', `"${file!.fileName}" is neither Markdown (.md) nor HTML (.html).`);
        }
        const html = isHtml ? sanitizeDocumentHtml(source) : renderMarkdown(source);
        const urlSuffix = urlSuffixOf(request.query.path?.trim() || tabName);
        if (urlSuffix === '') throw new ApiError('badRequest', 'The path must contain letters or digits.');
        return storeAndWrite(
          request,
          pluginId,
          [Buffer.from(html, 'utf8')],
          'update-documentation',
          async (tx, [hash]) => {
            const [existing] = await tx
              .select({ id: pluginDocumentationTabs.id })
              .from(pluginDocumentationTabs)
              .where(
                and(
                  eq(pluginDocumentationTabs.pluginId, pluginId),
                  eq(pluginDocumentationTabs.urlSuffix, urlSuffix),
                ),
              );
            if (existing) {
              await tx
                .update(pluginDocumentationTabs)
                .set({ tabName, contentHash: hash!, updatedAt: new Date() })
                .where(eq(pluginDocumentationTabs.id, existing.id));
            } else {
              const [last] = await selectRows<{ position: number | null }>(
                tx,
                sql`SELECT max(position) AS position FROM plugin_documentation_tabs WHERE plugin_id = ${pluginId}`,
              );
              await tx.insert(pluginDocumentationTabs).values({
                pluginId,
                tabName,
                urlSuffix,
                position: (last?.position ?? -1) + 1,
                contentHash: hash!,
              });
            }
            return {
              result: {
                tabName,
                urlSuffix,
                contentUrl: `/api/plugins/${pluginId}/documentation/${urlSuffix}`,
              },
              details: { tabName, urlSuffix, fileHash: hash },
            };
          },
        );
      },
    );

    app.get(
      '/api/plugins/:id/documentation/:urlSuffix',
      {
        schema: {
          tags: ['plugins'],
          summary: 'A documentation tab, as sanitised HTML',
          params: DocumentationTabParams,
        },
      },
      async (request, reply) => {
        const [row] = await selectRows<{ content_hash: string }>(
          app.db,
          sql`SELECT t.content_hash FROM plugin_documentation_tabs t JOIN plugins p ON p.id = t.plugin_id
            WHERE p.id = ${request.params.id} AND t.url_suffix = ${request.params.urlSuffix}
              AND ${pluginVisibleTo(viewerOf(request))}`,
        );
        if (!row)
          throw new ApiError(
            'notFound',
            `Plugin ${request.params.id} has no tab "${request.params.urlSuffix}".`,
          );
        const file = await app.fileStore.open(row.content_hash);
        if (!file) {
          request.log.error({ hash: row.content_hash }, 'a documentation tab refers to a missing file');
          throw new ApiError('notFound', 'The documentation tab is not available.');
        }
        return reply.headers(DOCUMENT_HEADERS).type('text/html; charset=utf-8').send(file.stream);
      },
    );

    app.delete(
      '/api/plugins/:id/documentation/:urlSuffix',
      {
        config: { auth: OWNER },
        schema: {
          tags: ['management'],
          summary: 'Remove a documentation tab',
          params: DocumentationTabParams,
        },
      },
      async (request, reply) => {
        const { id, urlSuffix } = request.params;
        await storeAndWrite(request, id, [], 'remove-documentation', async (tx) => {
          const removed = await tx
            .delete(pluginDocumentationTabs)
            .where(
              and(eq(pluginDocumentationTabs.pluginId, id), eq(pluginDocumentationTabs.urlSuffix, urlSuffix)),
            )
            .returning({ id: pluginDocumentationTabs.id });
          if (removed.length === 0) throw new ApiError('notFound', `Plugin ${id} has no tab "${urlSuffix}".`);
          return { result: undefined, details: { urlSuffix } };
        });
        return reply.code(204).send();
      },
    );
  };
}
