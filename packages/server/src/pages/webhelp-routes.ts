import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { webhelpPath, webhelpPreviewPath, WEBHELP_INDEX } from '@marketplace/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { ApiError } from '../plugins/app/errors';
import { pluginVisibleTo, selectRows } from '../search/sql';
import { findWebhelpFile } from './repository';

const WebhelpParams = Type.Object({
  pluginId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  page: Type.String({ maxLength: 64 }),
  '*': Type.Optional(Type.String({ maxLength: 1024 })),
});

const PreviewParams = Type.Object({
  token: Type.String({ maxLength: 64 }),
  '*': Type.Optional(Type.String({ maxLength: 1024 })),
});

/** The SHA-256 of a preview token, as custom_page_previews keeps it. */
export function previewTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const HOST = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

export interface WebhelpSecurityOptions {
  /** The origin the webhelp is served from (WEBHELP_ORIGIN, or this server's own). */
  origin: string;
  pluginId: number;
  pageUrl: string;
  /** The path prefix the webhelp is confined to, when not its published one (a preview's). */
  path?: string;
  /** True on a separate webhelp origin: the site may keep its own origin (storage, same-origin fetches). */
  separateOrigin: boolean;
}

/**
 * The headers of every webhelp file. The Content-Security-Policy lets the webhelp load only what lies under
 * its own path prefix (scripts, styles, images, fonts, fetches), so it cannot call the marketplace's API;
 * `sandbox` without `allow-same-origin` runs it in an opaque origin, so it can read neither the
 * marketplace's cookies nor its storage (where the sign-in lives). On a separate WEBHELP_ORIGIN it keeps
 * that origin, which holds nothing of the marketplace's.
 */
export function webhelpSecurityHeaders(options: WebhelpSecurityOptions): Record<string, string> {
  const prefix = `${options.origin}${options.path ?? webhelpPath(options.pluginId, options.pageUrl)}`;
  const sandbox = ['sandbox', 'allow-scripts', 'allow-popups'];
  if (options.separateOrigin) sandbox.push('allow-same-origin', 'allow-forms');
  const directives = [
    `default-src ${prefix}`,
    `script-src ${prefix} 'unsafe-inline'`,
    `style-src ${prefix} 'unsafe-inline'`,
    `img-src ${prefix} data:`,
    `font-src ${prefix} data:`,
    `media-src ${prefix}`,
    `connect-src ${prefix}`,
    `frame-src ${prefix}`,
    "worker-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${options.origin}`,
    sandbox.join(' '),
  ];
  return {
    'content-security-policy': directives.join('; '),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
  };
}

export interface WebhelpRoutesOptions {
  webhelpOrigin: string | undefined;
  /** The marketplace's own address, for requests whose Host header cannot be used in a policy. */
  publicUrl: string;
}

/**
 * Serves published webhelp sites under `/webhelp/{pluginId}/{page-url}/...`, each file with its content type
 * and the sandboxing headers above, and previews of unpublished ones to the item's people under
 * `/webhelp/preview/{token}/...` with the same headers. With WEBHELP_ORIGIN set, requests that reach the
 * marketplace's own host are redirected there.
 */
export function webhelpRoutes(options: WebhelpRoutesOptions): FastifyPluginAsyncTypebox {
  return async (app) => {
    const separate = options.webhelpOrigin === undefined ? undefined : new URL(options.webhelpOrigin);

    /** The origin this request reached, when its Host header is a plain host name (it goes into a policy). */
    function originOf(request: FastifyRequest): string {
      const host = request.host;
      return HOST.test(host) ? `${request.protocol}://${host}` : new URL(options.publicUrl).origin;
    }

    /** Sends a stored webhelp file with the sandboxing headers, or answers 404. */
    async function sendFile(
      request: FastifyRequest,
      reply: FastifyReply,
      file: { fileHash: string; contentType: string } | undefined,
      path: string,
      security: Omit<WebhelpSecurityOptions, 'origin' | 'separateOrigin'>,
      cacheControl: string,
    ) {
      const opened = file ? await app.fileStore.open(file.fileHash) : undefined;
      if (!file || !opened) {
        throw new ApiError('notFound', `This documentation has no page "${path.slice(0, 100)}".`);
      }
      return reply
        .headers(
          webhelpSecurityHeaders({
            ...security,
            origin: separate?.origin ?? originOf(request),
            separateOrigin: separate !== undefined,
          }),
        )
        .header('cache-control', cacheControl)
        .type(file.contentType)
        .send(opened.stream);
    }

    const pathOf = (rest: string) => (rest === '' || rest.endsWith('/') ? `${rest}${WEBHELP_INDEX}` : rest);

    app.get(
      '/webhelp/preview/:token',
      { schema: { hide: true, params: PreviewParams } },
      async (request, reply) => reply.redirect(`${request.url.split('?')[0]}/`, 301),
    );

    app.get(
      '/webhelp/preview/:token/*',
      {
        schema: {
          tags: ['pages'],
          summary:
            'A file of an unpublished webhelp (or of the new zip of a published one), for the item’s people: ' +
            'the address comes from POST /api/plugins/{id}/custom-pages/{pageId}/webhelp/preview',
          params: PreviewParams,
        },
      },
      async (request, reply) => {
        if (separate && request.host !== separate.host) {
          return reply.redirect(`${separate.origin}${request.url}`, 302);
        }
        const { token } = request.params;
        const path = pathOf(request.params['*'] ?? '');
        // The token stands for the user it was made for; whether that user may still manage the item is
        // checked on every request, so a developer removed from the item loses the preview at once.
        const [preview] = await selectRows<{
          page_id: number;
          plugin_id: number;
          url: string;
          draft_files: boolean;
        }>(
          app.db,
          sql`SELECT c.id AS page_id, c.plugin_id, c.url,
              EXISTS (SELECT 1 FROM custom_page_files f WHERE f.page_id = c.id AND f.draft) AS draft_files
            FROM custom_page_previews v
            JOIN custom_pages c ON c.id = v.page_id
            JOIN plugins p ON p.id = c.plugin_id
            JOIN users u ON u.id = v.user_id
            WHERE v.token_hash = ${previewTokenHash(token)} AND v.expires_at > now()
              AND c.type = 'webhelp' AND p.lifecycle_state <> 'deleted' AND NOT u.banned
              AND (u.is_admin OR p.owner_id = u.id
                OR EXISTS (SELECT 1 FROM plugin_developers d WHERE d.plugin_id = p.id AND d.user_id = u.id))`,
        );
        if (!preview) {
          throw new ApiError(
            'notFound',
            'This preview address is unknown or has expired; open the preview again from the dashboard.',
          );
        }
        const file = await findWebhelpFile(app.db, preview.page_id, path, Boolean(preview.draft_files));
        return sendFile(
          request,
          reply,
          file,
          path,
          { pluginId: preview.plugin_id, pageUrl: preview.url, path: webhelpPreviewPath(token) },
          'private, no-store',
        );
      },
    );

    app.get(
      '/webhelp/:pluginId/:page',
      { schema: { hide: true, params: WebhelpParams } },
      async (request, reply) => reply.redirect(`${request.url.split('?')[0]}/`, 301),
    );

    app.get(
      '/webhelp/:pluginId/:page/*',
      {
        schema: {
          tags: ['pages'],
          summary: 'A file of a published webhelp, sandboxed (see the pages README)',
          params: WebhelpParams,
        },
      },
      async (request, reply) => {
        if (separate && request.host !== separate.host) {
          return reply.redirect(`${separate.origin}${request.url}`, 302);
        }
        const { pluginId, page: pageUrl } = request.params;
        const path = pathOf(request.params['*'] ?? '');
        // Webhelp is read without credentials (a bearer token is never sent on navigation): listed items only.
        const [page] = await selectRows<{ id: number }>(
          app.db,
          sql`SELECT c.id FROM custom_pages c JOIN plugins p ON p.id = c.plugin_id
            WHERE p.id = ${pluginId} AND c.url = ${pageUrl} AND c.type = 'webhelp' AND c.status = 'WEBHELP'
              AND ${pluginVisibleTo(undefined)}`,
        );
        const file = page ? await findWebhelpFile(app.db, page.id, path) : undefined;
        return sendFile(request, reply, file, path, { pluginId, pageUrl }, 'public, max-age=60');
      },
    );
  };
}
