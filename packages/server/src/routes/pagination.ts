import type { FastifyReply, FastifyRequest } from 'fastify';

/** Replaces (or adds) query parameters in the request's own path and query, keeping everything else. */
function withQuery(request: FastifyRequest, changes: Record<string, string>): string {
  const url = new URL(request.url, 'http://placeholder.invalid');
  for (const [name, value] of Object.entries(changes)) url.searchParams.set(name, value);
  return `${url.pathname}${url.search}`;
}

function linkHeader(links: [rel: string, target: string][]): string {
  return links.map(([rel, target]) => `<${target}>; rel="${rel}"`).join(', ');
}

/**
 * Sets `Link` (first, prev, next, last) and `X-Total-Count` for a page/size answer (spec §7: paginated
 * responses expose next/first/last/prev links in the link header).
 */
export function setPageLinks(
  request: FastifyRequest,
  reply: FastifyReply,
  page: number,
  size: number,
  total: number,
): void {
  const lastPage = Math.max(1, Math.ceil(total / size));
  const at = (target: number) => withQuery(request, { page: String(target), size: String(size) });
  const links: [string, string][] = [['first', at(1)]];
  if (page > 1) links.push(['prev', at(Math.min(page - 1, lastPage))]);
  if (page < lastPage) links.push(['next', at(page + 1)]);
  links.push(['last', at(lastPage)]);
  reply.header('link', linkHeader(links)).header('x-total-count', String(total));
}

/** The same for max/offset answers (the search). */
export function setOffsetLinks(
  request: FastifyRequest,
  reply: FastifyReply,
  offset: number,
  max: number,
  total: number,
): void {
  const lastOffset = total === 0 ? 0 : Math.floor((total - 1) / max) * max;
  const at = (target: number) => withQuery(request, { offset: String(target), max: String(max) });
  const links: [string, string][] = [['first', at(0)]];
  if (offset > 0) links.push(['prev', at(Math.min(Math.max(0, offset - max), lastOffset))]);
  if (offset + max < total) links.push(['next', at(offset + max)]);
  links.push(['last', at(lastOffset)]);
  reply.header('link', linkHeader(links)).header('x-total-count', String(total));
}
