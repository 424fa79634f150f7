/**
 * mp-loader.js: the small script for `MarketplaceWidget.setupMarketplaceWidget(...)`. Iframe mode needs
 * nothing more; element mode fetches mp-widget.js from the same folder the first time it is used.
 */
import { rememberScriptUrl } from '../shared/api-base';
import { setBundleUrl } from './setup-widget';

rememberScriptUrl(import.meta.url);
setBundleUrl(new URL('mp-widget.js', import.meta.url).href);

export { setupMarketplaceWidget } from './setup-widget';
export { SDK_VERSION as version } from '../shared/version';
