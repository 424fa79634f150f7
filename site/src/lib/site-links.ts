import { SITE_LINKS_META, type SiteLinks } from '@marketplace/api-contract';

/**
 * The vendor's fixed external links (spec §2): social channels, blog, video playlist, issue tracker, forum,
 * privacy page and support mailbox. The operator sets them on the server (SOCIAL_LINKS, BLOG_URL, …,
 * SUPPORT_EMAIL); the server puts the set ones in the page's `mp-site-links` meta tag as JSON, the way the
 * sign-in service's address comes (auth/session.ts). Anything missing or malformed is simply not shown.
 */
export type { SiteLinks };
export { SITE_LINKS_META };

const URL_KEYS = ['blog', 'videos', 'issueTracker', 'forum', 'privacy'] as const;

function webAddress(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** The links the page was served with; none when the tag is absent or unreadable. */
export function readSiteLinks(doc: Document = document): SiteLinks {
  const links: SiteLinks = { social: [] };
  const content = doc.querySelector<HTMLMetaElement>(`meta[name="${SITE_LINKS_META}"]`)?.content;
  if (!content) return links;
  let raw: unknown;
  try {
    raw = JSON.parse(content);
  } catch {
    return links;
  }
  if (typeof raw !== 'object' || raw === null) return links;
  const record = raw as Record<string, unknown>;
  for (const key of URL_KEYS) {
    const url = webAddress(record[key]);
    if (url) links[key] = url;
  }
  const email = record.supportEmail;
  if (typeof email === 'string' && /^[^\s@]+@[^\s@]+$/.test(email)) links.supportEmail = email;
  if (Array.isArray(record.social)) {
    for (const entry of record.social as unknown[]) {
      if (typeof entry !== 'object' || entry === null) continue;
      const { label, url } = entry as Record<string, unknown>;
      const address = webAddress(url);
      if (typeof label === 'string' && label.trim() && address) links.social.push({ label, url: address });
    }
  }
  return links;
}
