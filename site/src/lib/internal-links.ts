/** Paths the server answers itself: links to them leave the single-page app. */
const SERVER_PATHS =
  /^\/(api|oidc|plugins|plugin\/download|plugin\/uploadPlugin|sdk|assets|updatePlugins\.xml|statistic)(\/|$|\?)/;

/**
 * The in-app address of a click on a plain link to one of the site's own pages (so the router can show it
 * without reloading), or undefined when the browser should follow the link itself.
 */
export function internalNavigation(event: MouseEvent, origin: string): string | undefined {
  if (
    event.defaultPrevented ||
    event.button !== 0 ||
    event.metaKey ||
    event.ctrlKey ||
    event.shiftKey ||
    event.altKey
  ) {
    return undefined;
  }
  const anchor = (event.target as Element | null)?.closest?.('a');
  if (
    !anchor ||
    !anchor.href ||
    (anchor.target && anchor.target !== '_self') ||
    anchor.hasAttribute('download')
  ) {
    return undefined;
  }
  const url = new URL(anchor.href);
  if (url.origin !== origin || SERVER_PATHS.test(url.pathname)) return undefined;
  return `${url.pathname}${url.search}${url.hash}`;
}
