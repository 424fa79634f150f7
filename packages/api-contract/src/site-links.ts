/**
 * The vendor's fixed external links the site's footer shows (spec §2): social channels, blog, video playlist,
 * issue tracker, forum, privacy page and support mailbox. The operator sets them on the server (SOCIAL_LINKS,
 * BLOG_URL, VIDEO_PLAYLIST_URL, ISSUE_TRACKER_URL, FORUM_URL, PRIVACY_URL, SUPPORT_EMAIL); the server puts the
 * set ones, as JSON, in the served page's meta tag named {@link SITE_LINKS_META}. Each is optional: the spec
 * gives no addresses, so a marketplace shows only those its operator sets.
 */
export interface SiteLinks {
  /** The social channels, in the order given (SOCIAL_LINKS: `Label=https://…` separated by commas). */
  social: { label: string; url: string }[];
  blog?: string;
  videos?: string;
  issueTracker?: string;
  forum?: string;
  privacy?: string;
  supportEmail?: string;
}

/** The name of the meta tag that carries {@link SiteLinks} to the site. */
export const SITE_LINKS_META = 'mp-site-links';
