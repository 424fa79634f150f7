/** The pagination links of an answer (spec §7: next/first/last/prev in the `Link` header), as absolute URLs. */
export interface PageLinks {
  first?: string;
  prev?: string;
  next?: string;
  last?: string;
}

export type PageRelation = keyof PageLinks;

const PAGE_RELATIONS: readonly PageRelation[] = ['first', 'prev', 'next', 'last'];

function isPageRelation(value: string): value is PageRelation {
  return (PAGE_RELATIONS as readonly string[]).includes(value);
}

/**
 * Reads an RFC 8288 `Link` header: `<target>; rel="next", <target>; rel="last"`. Targets are resolved
 * against `baseUrl` (the server sends paths); `rel` may be quoted or not and name several relations
 * ("prev first"); `previous` counts as `prev`. Relations other than the four page ones, and targets that
 * are not URLs, are left out; when a relation appears twice the first one wins.
 */
export function parseLinkHeader(header: string | null | undefined, baseUrl: string): PageLinks {
  const links: PageLinks = {};
  if (!header) return links;
  // A target is everything between < and >; commas inside it are part of the URL, not separators.
  const linkValue = /<([^>]*)>((?:\s*;\s*[^;,=\s]+\s*(?:=\s*(?:"(?:[^"\\]|\\.)*"|[^;,]*))?)*)/g;
  for (const match of header.matchAll(linkValue)) {
    const target = match[1] ?? '';
    const params = match[2] ?? '';
    const relValue = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;,\s]+))/i.exec(params);
    if (!relValue) continue;
    let url: string;
    try {
      url = new URL(target.trim(), baseUrl).href;
    } catch {
      continue;
    }
    const relations = (relValue[1] ?? relValue[2] ?? '').toLowerCase().split(/\s+/);
    for (const relation of relations) {
      const name = relation === 'previous' ? 'prev' : relation;
      if (isPageRelation(name) && links[name] === undefined) links[name] = url;
    }
  }
  return links;
}
