import type { followEmbedPage } from './embed-messages';
import { createIframeElement, embedUrl } from './iframe-widget';
import type { ModuleImporter } from './lazy-elements';
import type { IframeFactory } from './setup-core';
import { WidgetSetupError } from './setup-core';

/**
 * Iframe mode for mp-loader.js, which leaves the message handling (the protocol's guards and listener) to a
 * chunk of its own: the iframe is returned at once, and starts loading its embed page once that chunk has
 * arrived and listens, so no message of the page comes before the listener. Without the chunk the embed page
 * still loads, at its initial height.
 */
export function createDeferredIframeFactory(
  moduleUrl: string,
  importModule: ModuleImporter = (url) => import(/* @vite-ignore */ url),
): IframeFactory {
  return (options) => {
    const iframe = createIframeElement(options.type);
    const src = embedUrl(options);
    void importModule(moduleUrl)
      .then(
        (module) =>
          (module as { followEmbedPage: typeof followEmbedPage }).followEmbedPage(iframe, options.type, src),
        (error: unknown) =>
          console.error(
            new WidgetSetupError(
              `could not load ${moduleUrl} (${String(error)}); the ${options.type} widget keeps its initial size.`,
            ),
          ),
      )
      .finally(() => {
        iframe.src = src;
      });
    return iframe;
  };
}
