/**
 * What crawlers may fetch. Rules are prefixes; a crawler applies the longest rule that matches, so the Allow
 * lines for item images win over `Disallow: /api/`.
 */
const ALLOWED = [
  // Item icons and screenshots: the pictures of the public pages, shown by search engines and link previews.
  '/api/plugins/*/icon',
  '/api/plugins/*/screenshots/',
  '/',
] as const;

const DISALLOWED = [
  // People's own pages and sign-in: nothing public, and every answer differs per person.
  '/dashboard',
  '/admin',
  '/account',
  '/auth/',
  '/oidc/',
  // The API and the IDE's feeds: data, not pages; the public pages carry what they show.
  '/api/',
  '/files/',
  '/statistic/',
  // A download counts as one: crawlers would inflate the figures vendors are paid and ranked by.
  '/plugin/download',
  // Embeds repeat an item's card inside other sites' pages.
  '/embeddable/',
] as const;

/** The robots.txt of a marketplace served at `publicUrl`, naming its sitemap. */
export function renderRobotsTxt(publicUrl: string): string {
  return [
    'User-agent: *',
    ...DISALLOWED.map((path) => `Disallow: ${path}`),
    ...ALLOWED.map((path) => `Allow: ${path}`),
    '',
    `Sitemap: ${publicUrl}/sitemap.xml`,
    '',
  ].join('\n');
}
