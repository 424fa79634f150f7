import { CUSTOM_PAGE_LIMITS } from './limits';

const PAGE_URL = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Segments a page URL may not take: they would read as another route of the item page or of the API
 * (`/custom-pages/published` lists the published pages).
 */
export const RESERVED_PAGE_URLS: readonly string[] = ['published', 'order', 'preview', 'images', 'webhelp'];

/**
 * Why a page URL cannot be used, or undefined when it is fine: lower-case letters and digits in words joined
 * by single hyphens (`getting-started`), at most CUSTOM_PAGE_LIMITS.maxUrlChars, not a reserved word.
 */
export function pageUrlProblem(url: string): string | undefined {
  if (url === '') return 'The page URL is empty: give it letters or digits, like "getting-started".';
  if (url.length > CUSTOM_PAGE_LIMITS.maxUrlChars) {
    return `The page URL is longer than ${CUSTOM_PAGE_LIMITS.maxUrlChars} characters.`;
  }
  if (!PAGE_URL.test(url)) {
    return `The page URL "${url.slice(0, 80)}" may hold only lower-case letters, digits and single hyphens between them, like "getting-started".`;
  }
  if (RESERVED_PAGE_URLS.includes(url)) return `"${url}" is reserved; choose another page URL.`;
  return undefined;
}

/** `Getting Started — Ünïcode!` -> `getting-started-unicode`: a page URL made from a page's name. */
export function pageUrlOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, CUSTOM_PAGE_LIMITS.maxUrlChars)
    .replace(/-+$/, '');
  return RESERVED_PAGE_URLS.includes(slug) ? `${slug}-page` : slug;
}
