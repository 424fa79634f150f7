import { createIframeWidget } from './iframe-widget';
import { createWidgetSetup } from './setup-core';

export { loadElement, setElementLoader, WidgetSetupError } from './setup-core';
export type { IframeFactory, WidgetMode, WidgetOptions } from './setup-core';

/**
 * Puts a widget into `root`, the call the vendor documents:
 * `MarketplaceWidget.setupMarketplaceWidget('card', 7495, '#my-element')`.
 * Returns the created element (the custom element, or the iframe in iframe mode); its DOM events are the
 * protocol's messages.
 */
export const setupMarketplaceWidget = createWidgetSetup(createIframeWidget);
