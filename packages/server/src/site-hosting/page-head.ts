import { pageTitle } from '@marketplace/core';

/** What a server-rendered page says about itself (the site's PageHead, site/src/lib/server-render.ts). */
export interface PageHead {
  title: string;
  description?: string;
  path?: string;
  image?: { url: string; width?: number; height?: number; alt: string };
  structuredData?: Record<string, unknown>;
  status?: number;
}

/** The site's own description (site/index.html), for pages that give none. */
export const SITE_DESCRIPTION = 'Plugins, themes, courses and apps for your IDE.';
const SITE_NAME = 'Marketplace';

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * JSON inside a script element: `<` (and the line separators JavaScript once refused) written as escapes, so
 * no text of an item can end the element or start markup.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function meta(attribute: 'name' | 'property', key: string, content: string | number): string {
  return `<meta ${attribute}="${key}" content="${escapeHtml(String(content))}">`;
}

/**
 * The head tags of a server-rendered page: its title ('%s | Marketplace', spec §1), description, canonical
 * address on the public URL, Open Graph and Twitter card tags for link previews, and its schema.org data as
 * JSON-LD (data, not script: the CSP's `script-src 'self'` does not concern it). A not-found page asks not to
 * be indexed and names no canonical address.
 */
export function renderPageHead(head: PageHead, options: { publicUrl: string; requestUrl: string }): string {
  const base = options.publicUrl.replace(/\/+$/, '');
  const title = pageTitle(head.title);
  const description = head.description?.trim() || SITE_DESCRIPTION;
  const tags = [`<title>${escapeHtml(title)}</title>`, meta('name', 'description', description)];
  if (head.status !== undefined && head.status >= 400) {
    tags.push(meta('name', 'robots', 'noindex'));
    return tags.join('\n');
  }
  const canonical = `${base}${head.path ?? options.requestUrl}`;
  tags.push(
    `<link rel="canonical" href="${escapeHtml(canonical)}">`,
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', SITE_NAME),
    meta('property', 'og:title', head.title),
    meta('property', 'og:description', description),
    meta('property', 'og:url', canonical),
  );
  const { image } = head;
  if (image) {
    tags.push(meta('property', 'og:image', image.url), meta('property', 'og:image:alt', image.alt));
    if (image.width !== undefined) tags.push(meta('property', 'og:image:width', image.width));
    if (image.height !== undefined) tags.push(meta('property', 'og:image:height', image.height));
  }
  // A wide picture (a theme's card image) shows large; an icon beside the text.
  const large = image?.width !== undefined && image.height !== undefined && image.width > image.height;
  tags.push(
    meta('name', 'twitter:card', large ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', head.title),
    meta('name', 'twitter:description', description),
  );
  if (image)
    tags.push(meta('name', 'twitter:image', image.url), meta('name', 'twitter:image:alt', image.alt));
  if (head.structuredData) {
    tags.push(`<script type="application/ld+json">${scriptJson(head.structuredData)}</script>`);
  }
  return tags.join('\n');
}
