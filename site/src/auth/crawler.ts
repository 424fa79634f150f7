const CRAWLER_PATTERN = /bot|crawler|spider|crawling|slurp|facebookexternalhit|embedly|preview/i;

export interface CrawlerCheck {
  userAgent: string;
  cookieEnabled: boolean;
  /** The page was reached by the sign-in redirect already (so it must not start another). */
  redirected: boolean;
}

/**
 * Spec §4: a crawler-like user agent with cookies enabled and no redirect flag gets a forced token refresh on
 * sign-in, so a crawler that holds the identity service's session sees the page as that user sees it.
 */
export function needsForcedTokenRefresh({ userAgent, cookieEnabled, redirected }: CrawlerCheck): boolean {
  return cookieEnabled && !redirected && CRAWLER_PATTERN.test(userAgent);
}
