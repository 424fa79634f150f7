export { setupMarketplaceWidget, loadElement, setElementLoader, WidgetSetupError } from './setup-widget';
export type { IframeFactory, WidgetMode, WidgetOptions } from './setup-widget';
export { createIframeWidget, embedUrl, EMBED_ALLOW, EMBED_SANDBOX } from './iframe-widget';
export type { IframeWidgetOptions } from './iframe-widget';
export { WIDGET_TYPES, WIDGET_ELEMENT_NAMES, isWidgetType } from './widget-types';
export type { WidgetType } from './widget-types';
