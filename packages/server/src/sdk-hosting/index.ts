import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** Where `pnpm build` (rollup.config.mjs) puts the widget SDK. */
export const DEFAULT_SDK_DIR = fileURLToPath(new URL('../../../elements/dist', import.meta.url));

const JAVASCRIPT = 'text/javascript; charset=utf-8';

/** The files a host page may load, and their types; no other name under /sdk/ reaches the file system. */
export const SDK_FILES: Readonly<Record<string, string>> = {
  'mp-widget.js': JAVASCRIPT,
  'mp-widget.mjs': JAVASCRIPT,
  'mp-loader.js': JAVASCRIPT,
  'custom-elements.json': 'application/json; charset=utf-8',
};

/**
 * The chunks mp-loader.js imports, `/sdk/chunks/{name}-{hash}.js` (rollup.config.mjs names them after their
 * content); no other name under /sdk/chunks/ reaches the file system.
 */
export const SDK_CHUNK_NAME = /^[a-z][a-z0-9-]*-[A-Za-z0-9_-]{8}\.js$/;

/**
 * The names are not content-hashed (host pages write `/sdk/mp-widget.js`), so browsers keep a file for a few
 * minutes and then revalidate it with its ETag: a new SDK reaches every page within that time.
 */
export const SDK_CACHE_CONTROL = 'public, max-age=300, must-revalidate';

/** A chunk's name changes with its content: browsers and proxies keep it for a year without asking again. */
export const SDK_CHUNK_CACHE_CONTROL = 'public, max-age=31536000, immutable';

export const SDK_NOT_BUILT_MESSAGE = 'The SDK is not built: run pnpm build, then reload this address.';

/**
 * What every answer under /sdk/ carries: any site may load the SDK, in any embedding policy. The chunks are
 * ES modules, which a page on another origin imports in CORS mode: without Access-Control-Allow-Origin the
 * browser refuses them.
 */
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
  /** Compressed once, when first asked for: the files change only with a build. */
  gzip?: Buffer;
  brotli?: Buffer;
}

type Encoding = 'br' | 'gzip' | 'identity';

/** The encoding to answer in: brotli, else gzip, when the browser accepts it (every current browser does). */
function chooseEncoding(acceptEncoding: string | undefined): Encoding {
  const accepted = acceptEncoding ?? '';
  if (/\bbr\b/.test(accepted)) return 'br';
  if (/\bgzip\b/.test(accepted)) return 'gzip';
  return 'identity';
}

/** The body in `encoding` (the smallest settings: it is done once per build), compressing on first use. */
function encodedBody(file: LoadedFile, encoding: Encoding): Buffer {
  if (encoding === 'br') {
    file.brotli ??= brotliCompressSync(file.body, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: file.body.length,
      },
    });
    return file.brotli;
  }
  if (encoding === 'gzip') {
    file.gzip ??= gzipSync(file.body, { level: 9 });
    return file.gzip;
  }
  return file.body;
}

/** Each encoding is its own representation with its own strong ETag (`"hash"`, `"hash-br"`, `"hash-gzip"`). */
function etagFor(file: LoadedFile, encoding: Encoding): string {
  return encoding === 'identity' ? file.etag : `${file.etag.slice(0, -1)}-${encoding}"`;
}

function fileEtag(body: Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
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

    /** `name` is one of SDK_FILES or `chunks/` + a name SDK_CHUNK_NAME accepts, never anything else. */
    async function load(name: string): Promise<LoadedFile | undefined> {
      const path = join(sdkDir, name);
      const info = await stat(path).catch(() => undefined);
      if (!info?.isFile()) {
        loaded.delete(name);
        return undefined;
      }
      const version = `${info.size}-${info.mtimeMs}`;
      const known = loaded.get(name);
      if (known?.version === version) {
        counts.hits++;
        return known;
      }
      counts.misses++;
      const body = await readFile(path);
      const file = { body, etag: fileEtag(body), version };
      loaded.set(name, file);
      return file;
    }

    function notFound(reply: FastifyReply, message: string) {
      return reply
        .code(404)
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send(message);
    }

    async function sendFile(
      request: FastifyRequest,
      reply: FastifyReply,
      name: string,
      contentType: string,
      cacheControl: string,
    ) {
      const file = await load(name);
      if (file === undefined && cacheControl === SDK_CHUNK_CACHE_CONTROL) {
        // A chunk of another build: a page whose mp-loader.js is older than the last build asks for it.
        return notFound(reply, `The SDK has no chunk named ${JSON.stringify(name)}.`);
      }
      if (file === undefined) {
        request.log.warn({ sdkDir, file: name }, 'The SDK is not built');
        return reply
          .code(503)
          .header('cache-control', 'no-store')
          .type('text/plain; charset=utf-8')
          .send(SDK_NOT_BUILT_MESSAGE);
      }
      const encoding = chooseEncoding(request.headers['accept-encoding']);
      const etag = etagFor(file, encoding);
      reply.header('etag', etag).header('cache-control', cacheControl).header('vary', 'accept-encoding');
      if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      if (encoding !== 'identity') reply.header('content-encoding', encoding);
      return reply.code(200).type(contentType).send(encodedBody(file, encoding));
    }

    async function sendSdkFile(request: FastifyRequest<{ Params: { file: string } }>, reply: FastifyReply) {
      reply.headers(CROSS_ORIGIN_HEADERS);
      const name = request.params.file;
      const contentType = Object.hasOwn(SDK_FILES, name) ? SDK_FILES[name] : undefined;
      if (contentType === undefined) {
        return notFound(
          reply,
          `The SDK has no file named ${JSON.stringify(name)}; it has ${Object.keys(SDK_FILES).join(', ')}.`,
        );
      }
      return sendFile(request, reply, name, contentType, SDK_CACHE_CONTROL);
    }

    async function sendChunk(request: FastifyRequest<{ Params: { file: string } }>, reply: FastifyReply) {
      reply.headers(CROSS_ORIGIN_HEADERS);
      const name = request.params.file;
      if (!SDK_CHUNK_NAME.test(name)) {
        return notFound(reply, `The SDK has no chunk named ${JSON.stringify(name)}.`);
      }
      return sendFile(request, reply, `chunks/${name}`, JAVASCRIPT, SDK_CHUNK_CACHE_CONTROL);
    }

    // In the caches' registry (src/admin/caches): a reload reads every file again, then swaps them in.
    if (app.hasDecorator('caches'))
      app.caches.register({
        name: 'sdk-files',
        description:
          'The widget SDK files under /sdk/, read from its build. Bytes: the files’ bodies and their compressed forms.',
        statistics: () => {
          let bytes = 0;
          for (const file of loaded.values())
            bytes += file.body.length + (file.gzip?.length ?? 0) + (file.brotli?.length ?? 0);
          return { entries: loaded.size, bytes, builtAt: null, ...counts };
        },
        flush: () => loaded.clear(),
        reload: async () => {
          const fresh = new Map<string, LoadedFile>();
          // The top-level files, and the chunks pages have asked for (others are read when first asked for).
          for (const name of new Set([...Object.keys(SDK_FILES), ...loaded.keys()])) {
            const path = join(sdkDir, name);
            const body = await readFile(path).catch(() => undefined);
            const info = await stat(path).catch(() => undefined);
            if (!body || !info) continue;
            fresh.set(name, { body, etag: fileEtag(body), version: `${info.size}-${info.mtimeMs}` });
          }
          loaded.clear();
          for (const [name, file] of fresh) loaded.set(name, file);
        },
      });

    app.get<{ Params: { file: string } }>('/sdk/:file', { schema: { hide: true } }, sendSdkFile);
    app.get<{ Params: { file: string } }>('/sdk/chunks/:file', { schema: { hide: true } }, sendChunk);
  },
  { name: 'sdk-hosting', fastify: '5.x' },
);
