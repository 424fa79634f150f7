import { lazy, useState, type ComponentType } from 'react';
import { registerLazyModule } from '../../lib/page-data';
import { useServerRender } from '../../lib/server-render';

export interface LazyPart<P> {
  /**
   * The part: drawn at once once its code is loaded, else through React.lazy (the Suspense boundary above
   * shows its fallback, or keeps the server's markup while the page hydrates).
   */
  Part: ComponentType<P>;
  /** Loads the part's code (once). */
  load: () => Promise<unknown>;
}

/**
 * A part of a page whose code is a chunk of its own, loaded when first drawn, so the page's first download
 * carries only the parts it shows (issue 21).
 *
 * With `module`, its path in the site as the build's manifest names it, a server render that draws the part
 * preloads its files, and the browser loads it before it hydrates the page (PageData.lazyModules), so the
 * hydrated part is the server's markup from the first frame. Without, it loads once the page hydrates; the
 * server's markup stays meanwhile.
 */
export function lazyPart<P extends object>(
  load: () => Promise<ComponentType<P>>,
  module?: string,
): LazyPart<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const loadOnce = () => (loading ??= load().then((component) => (loaded = component)));
  const Lazy = lazy(async () => ({ default: await loadOnce() }));
  if (module) registerLazyModule(module, loadOnce);

  function Part(props: P) {
    const server = useServerRender();
    if (server && module) server.lazyModules.add(module);
    // Chosen once: a part drawn through React.lazy stays so, as drawing the component itself would mount it anew.
    const [Component] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return <Component {...props} />;
  }
  return { Part, load: loadOnce };
}
