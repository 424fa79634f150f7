/**
 * mp-loader.js: the small script for pages that want only the code of the elements they use. It watches the
 * page for the five tags and imports, the first time each appears, that element's chunk and the shared ones
 * (ES modules next to this script, under chunks/); it also gives `MarketplaceWidget.setupMarketplaceWidget(...)`,
 * whose iframe mode fetches only the embed messages' chunk. The chunk names come from the split build
 * (rollup.config.mjs).
 */
import chunks from 'virtual:mp-element-chunks';
import { rememberScriptUrl } from '../shared/api-base';
import { createDeferredIframeFactory } from './deferred-iframe';
import { createElementLoader, watchForElements } from './lazy-elements';
import { createWidgetSetup, loadElement, setElementLoader } from './setup-core';
import { WIDGET_ELEMENT_NAMES } from './widget-types';

// Where this script came from: the chunks are next to it, and the elements' default marketplace is its origin.
const scriptUrl = import.meta.url;
rememberScriptUrl(scriptUrl);
setElementLoader(createElementLoader(chunks.elements, scriptUrl));
watchForElements(Object.values(WIDGET_ELEMENT_NAMES), loadElement);

export const setupMarketplaceWidget = createWidgetSetup(
  createDeferredIframeFactory(new URL(chunks.embedMessages, scriptUrl).href),
);
export { loadElement };
export { SDK_VERSION as version } from '../shared/version';
