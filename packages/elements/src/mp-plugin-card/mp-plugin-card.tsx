import { PLUGIN_CARD_STYLES, PluginCardSkeleton, PluginRecordCard } from '@marketplace/ui';
import { LoadedItem } from '../shared/loaded-item';
import type { WidgetViewProps } from '../shared/widget-element';
import { createWidgetElement } from '../shared/widget-element';

export const PLUGIN_CARD_TAG = 'mp-plugin-card';

export interface PluginCardAttributes {
  pluginId?: string;
  apiBase?: string;
}

function PluginCardView({ pluginId, apiBase, host, emit }: PluginCardAttributes & WidgetViewProps) {
  return (
    <LoadedItem
      elementName={PLUGIN_CARD_TAG}
      pluginId={pluginId}
      apiBase={apiBase}
      host={host}
      emit={emit}
      pending={<PluginCardSkeleton />}
    >
      {(plugin, context) => (
        // The API gives the icon and screenshots as paths on the marketplace; the card is on another site.
        <PluginRecordCard plugin={plugin} baseUrl={context.apiBase} assetBase={context.apiBase} newWindow />
      )}
    </LoadedItem>
  );
}

/**
 * A plugin card: icon, name, vendor, rating, description, downloads, update date, pricing and the downloads
 * of the last 30 days. Its links open the item page in a new window. A skeleton while the item loads;
 * nothing when it cannot be loaded (the console says why).
 *
 * @tag mp-plugin-card
 * @attr {string} plugin-id - The plugin's numeric id on the marketplace.
 * @attr {string} api-base - The marketplace's address. Default: the origin the SDK script was loaded from.
 * @attr {boolean} post-to-parent - Inside a frame, also post every event to the framing page (as an embed page does).
 * @event embed:item-data - The item loaded. `detail.item`: the item without moderation and commercial fields, `rating` = mean rating.
 * @event embed:error - The item could not be loaded, or plugin-id names no item: the element renders nothing. `detail.pluginId`, `detail.status` (HTTP status, 0 without an answer), `detail.message`. Inside a frame also posted to the framing page.
 * @event embed:size - The card's size changed. `detail.width`, `detail.height` in CSS pixels.
 * @csspart base - The box around the card.
 * @cssproperty --mp-accent - The accent colour (links, bars, buttons).
 * @cssproperty --mp-font - The font family.
 */
export const MpPluginCard = createWidgetElement<PluginCardAttributes>(PluginCardView, {
  uiStyles: PLUGIN_CARD_STYLES,
  attributes: { pluginId: 'string', apiBase: 'string' },
  styles: ':host{display:block;max-width:420px}',
});
