import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** Where `pnpm build` (rollup.config.mjs) puts the widget SDK. */
export const DEFAULT_SDK_DIR = fileURLToPath(new URL('../../../elements/dist', import.meta.url));

/** The files a host page may load, and their types; no other name under /sdk/ reaches the file system. */
export const SDK_FILES: Readonly<Record<string, string>> = {
  'mp-widget.js': 'text/javascript; charset=utf-8',
  'mp-widget.mjs': 'text/javascript; charset=utf-8',
  'mp-loader.js': 'text/javascript; charset=utf-8',
  'custom-elements.json': 'application/json; charset=utf-8',
};

/**
 * The names are not content-hashed (host pages write `/sdk/mp-widget.js`), so browsers keep a file for a few
 * minutes and then revalidate it with its ETag: a new SDK reaches every page within that time.
 */
export const SDK_CACHE_CONTROL = 'public, max-age=300, must-revalidate';

export const SDK_NOT_BUILT_MESSAGE = 'The SDK is not built: run pnpm build, then reload this address.';

/** What every answer under /sdk/ carries: any site may load the SDK, in any embedding policy. */
const CROSS_ORIGIN_HEADERS = {
  'access-control-allow-origin': '*',
  'cross-origin-resource-policy': 'cross-origin',
  'x-content-type-options': 'nosniff',
} as const;

export interface SdkHostingOptions {
  /** The built SDK (default: packages/elements/dist of this repository). */
  sdkDir?: string;
}

interface LoadedFile {
  body: Buffer;
  etag: string;
  /** The file's identity on disk when it was read: a rebuild changes it, and the file is read again. */
  version: string;
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((candidate) => {
    const value = candidate.trim();
    return value === '*' || value === etag || value === `W/${etag}`;
  });
}

/**
 * Serves the widget SDK under /sdk/ from its build: the files a host page loads with `<script src>`,
 * read again whenever the build changes them. Without a build it answers 503 saying how to make one.
 */
export default fp(
  async function sdkHosting(app: FastifyInstance, options: SdkHostingOptions) {
    const sdkDir = resolve(options.sdkDir ?? DEFAULT_SDK_DIR);
    const loaded = new Map<string, LoadedFile>();
    const counts = { hits: 0, misses: 0 };

    async function load(name: string): Promise<LoadedFile | undefined> {
      const path = join(sdkDir, name);
      const info = await stat(path).catch(() => undefined);
      if (!info?.isFile()) return undefined;
      const version = `${info.size}-${info.mtimeMs}`;
      const known = loaded.get(name);
      if (known?.version === version) {
        counts.hits++;
        return known;
      }
      counts.misses++;
      const body = await readFile(path);
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
      const file = { body, etag, version };
      loaded.set(name, file);
      return file;
    }

    async function sendFile(request: FastifyRequest<{ Params: { file: string } }>, reply: FastifyReply) {
      reply.headers(CROSS_ORIGIN_HEADERS);
      const name = request.params.file;
      const contentType = Object.hasOwn(SDK_FILES, name) ? SDK_FILES[name] : undefined;
      if (contentType === undefined) {
        return reply
          .code(404)
          .header('cache-control', 'no-store')
          .type('text/plain; charset=utf-8')
          .send(
            `The SDK has no file named ${JSON.stringify(name)}; it has ${Object.keys(SDK_FILES).join(', ')}.`,
          );
      }
      const file = await load(name);
      if (file === undefined) {
        request.log.warn({ sdkDir, file: name }, 'The SDK is not built');
        return reply
          .code(503)
          .header('cache-control', 'no-store')
          .type('text/plain; charset=utf-8')
          .send(SDK_NOT_BUILT_MESSAGE);
      }
      reply.header('etag', file.etag).header('cache-control', SDK_CACHE_CONTROL);
      if (etagMatches(request.headers['if-none-match'], file.etag)) return reply.code(304).send();
      return reply.code(200).type(contentType).send(file.body);
    }

    // In the caches' registry (src/admin/caches): a reload reads every file again, then swaps them in.
    if (app.hasDecorator('caches'))
      app.caches.register({
        name: 'sdk-files',
        description: 'The widget SDK files under /sdk/, read from its build. Bytes: the files’ bodies.',
        statistics: () => {
          let bytes = 0;
          for (const file of loaded.values()) bytes += file.body.length;
          return { entries: loaded.size, bytes, builtAt: null, ...counts };
        },
        flush: () => loaded.clear(),
        reload: async () => {
          const fresh = new Map<string, LoadedFile>();
          for (const name of Object.keys(SDK_FILES)) {
            const path = join(sdkDir, name);
            const body = await readFile(path).catch(() => undefined);
            const info = await stat(path).catch(() => undefined);
            if (!body || !info) continue;
            const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
            fresh.set(name, { body, etag, version: `${info.size}-${info.mtimeMs}` });
          }
          loaded.clear();
          for (const [name, file] of fresh) loaded.set(name, file);
        },
      });

    app.get<{ Params: { file: string } }>('/sdk/:file', { schema: { hide: true } }, sendFile);
  },
  { name: 'sdk-hosting', fastify: '5.x' },
);
