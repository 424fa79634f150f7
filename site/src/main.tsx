import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { matchRoutes, RouterProvider } from 'react-router';
import { endHydration, loadLazyModules, readPageData, startHydration, type PageData } from './lib/page-data';
import { UI_STYLES_LINK_ID } from './lib/ui-styles-link';
import { createSiteRouter, routes } from './router';
import './styles/site.css';

/**
 * The matched routes' page modules, loaded before hydration: the server rendered them, so the first render
 * here must draw them too, not the router's fallback.
 */
async function loadMatchedPages(): Promise<void> {
  const matches = matchRoutes(routes, window.location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const loaded = await route.lazy();
      Object.assign(route, { ...loaded, lazy: undefined });
    }),
  );
}

/**
 * The server's markup carries its elements' inline styles (a star's fill, a chart's bars) as data-mp-style
 * attributes, applied by a stylesheet it links (the CSP refuses style attributes in markup). Here they are
 * set through the DOM, which the CSP allows, so the elements are as React drew them before it takes over.
 */
function applyMarkupStyles(container: HTMLElement): void {
  for (const element of container.querySelectorAll<HTMLElement>('[data-mp-style]')) {
    element.style.cssText = element.dataset.mpStyle ?? '';
    element.removeAttribute('data-mp-style');
  }
}

/** Takes over the page the server rendered: the same markup, drawn from the data it was rendered from. */
async function hydrate(container: HTMLElement, data: PageData): Promise<void> {
  applyMarkupStyles(container);
  await loadMatchedPages();
  await loadLazyModules(data);
  const router = createSiteRouter(data.router);
  const rendered = router.state.location;
  startHydration(data);
  const stop = router.subscribe((state) => {
    if (state.location === rendered) return;
    endHydration();
    stop();
  });
  hydrateRoot(
    container,
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
}

/** Draws the page, or takes over the one the server drew. */
async function start(): Promise<void> {
  // A server-rendered page links the components' styles as a file; otherwise they are adopted here, first
  // (a page unstyled because their chunk did not arrive is still a page to use).
  if (!document.getElementById(UI_STYLES_LINK_ID))
    await import('./lib/ui-styles').then(
      (styles) => styles.adoptUiStyles(),
      (error: unknown) => console.error('The components’ styles could not be loaded', error),
    );
  const container = document.getElementById('root');
  const pageData = readPageData();
  if (container && pageData && container.firstChild) {
    await hydrate(container, pageData);
  } else if (container) {
    createRoot(container).render(
      <StrictMode>
        <RouterProvider router={createSiteRouter()} />
      </StrictMode>,
    );
  }
}

start().catch((error: unknown) => {
  console.error('The page could not start', error);
});
