import type { FastifyInstance } from 'fastify';
import { ApiError } from '../plugins/app/errors';
import { renderRobotsTxt } from './robots';
import {
  countPublicItems,
  renderSitemapIndex,
  renderUrlSet,
  sitemapEntries,
  sitemapParts,
  URLS_PER_SITEMAP,
} from './sitemap';

export { renderRobotsTxt } from './robots';
export { URLS_PER_SITEMAP } from './sitemap';

export interface SeoOptions {
  /** Addresses per sitemap file (default the protocol's 50,000); tests lower it to see the index. */
  urlsPerSitemap?: number;
}

const XML = 'application/xml; charset=utf-8';

/**
 * The files crawlers read: GET /robots.txt and GET /sitemap.xml (every page a signed-out visitor may open,
 * an index of /sitemap-{n}.xml parts past 50,000 addresses). Both are the same for everyone, so they are
 * public answers: ETag, Cache-Control and the answer cache that any change to the catalogue clears.
 */
export default async function seo(app: FastifyInstance, options: SeoOptions = {}): Promise<void> {
  const perPart = options.urlsPerSitemap ?? URLS_PER_SITEMAP;
  const publicRead = { config: { cache: 'public' as const }, schema: { hide: true } };
  // Within a prefix (tests) the part addresses carry it too.
  const partPath = (part: number) => `${app.prefix}/sitemap-${part}.xml`;

  app.get('/robots.txt', publicRead, async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').send(renderRobotsTxt(app.config.publicUrl)),
  );

  app.get('/sitemap.xml', publicRead, async (_request, reply) => {
    const { items, lastModified } = await countPublicItems(app.db);
    const parts = sitemapParts(items, perPart);
    const body =
      parts === 1
        ? renderUrlSet(app.config.publicUrl, await sitemapEntries(app.db, 1, perPart))
        : renderSitemapIndex(
            app.config.publicUrl,
            Array.from({ length: parts }, (_, index) => partPath(index + 1)),
            lastModified,
          );
    return reply.type(XML).send(body);
  });

  app.get<{ Params: { part: string } }>('/sitemap-:part.xml', publicRead, async (request, reply) => {
    const part = /^[1-9]\d{0,5}$/.test(request.params.part) ? Number(request.params.part) : Number.NaN;
    const { items } = await countPublicItems(app.db);
    const parts = sitemapParts(items, perPart);
    if (!(part >= 1 && part <= parts && parts > 1))
      throw new ApiError(
        'notFound',
        parts === 1
          ? 'The sitemap has one file: /sitemap.xml.'
          : `The sitemap has parts 1 to ${parts}: /sitemap-1.xml to /sitemap-${parts}.xml.`,
      );
    return reply
      .type(XML)
      .send(renderUrlSet(app.config.publicUrl, await sitemapEntries(app.db, part, perPart)));
  });
}
