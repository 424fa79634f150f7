/**
 * mp-widget.js / mp-widget.mjs: every element, registered on load, and the vendor-compatible loader
 * (`MarketplaceWidget.setupMarketplaceWidget(...)`). Elements default their api-base to this script's origin.
 */
import { defineMarketplaceElements } from './define-all';
import { rememberScriptUrl } from './shared/api-base';

rememberScriptUrl(import.meta.url);
defineMarketplaceElements();

export { loadElement, setupMarketplaceWidget } from './loader/setup-widget';
export { SDK_VERSION as version } from './shared/version';
