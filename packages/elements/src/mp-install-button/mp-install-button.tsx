import { INSTALL_BUTTON_STYLES, InstallButton } from '@marketplace/ui';
import { dispatchWidgetEvent } from '../shared/events';
import { itemPageUrl, LoadedItem } from '../shared/loaded-item';
import { pageIdeBridge } from '../shared/page-ide-bridge';
import type { WidgetViewProps } from '../shared/widget-element';
import { createWidgetElement } from '../shared/widget-element';

export const INSTALL_BUTTON_TAG = 'mp-install-button';

export interface InstallButtonAttributes {
  pluginId?: string;
  apiBase?: string;
}

function InstallButtonView({ pluginId, apiBase, host, emit }: InstallButtonAttributes & WidgetViewProps) {
  return (
    <LoadedItem
      elementName={INSTALL_BUTTON_TAG}
      pluginId={pluginId}
      apiBase={apiBase}
      host={host}
      emit={emit}
    >
      {(plugin, context) => (
        <InstallButton
          pluginXmlId={plugin.info.xmlId}
          pluginUrl={itemPageUrl(plugin, context.apiBase)}
          bridge={pageIdeBridge()}
          marketplaceUrl={context.apiBase}
          onInstallResult={({ ide, ok }) =>
            dispatchWidgetEvent(
              host,
              ok ? 'install-button:install-success' : 'install-button:install-error',
              { ide },
            )
          }
        />
      )}
    </LoadedItem>
  );
}

/**
 * Installs the plugin into an IDE running on the visitor's machine: one button for one IDE, a menu for
 * several, a 'Get from Marketplace' link when none runs. The outcome shows as a toast; after an install into an
 * IDE that does not know the plugin, the button says how to add this marketplace to the IDE's repositories.
 *
 * @tag mp-install-button
 * @attr {string} plugin-id - The plugin's numeric id on the marketplace.
 * @attr {string} api-base - The marketplace's address. Default: the origin the SDK script was loaded from.
 * @attr {boolean} post-to-parent - Inside a frame, also post the protocol events to the framing page.
 * @event embed:item-data - The item loaded. `detail.item`: the item without moderation and commercial fields.
 * @event embed:error - The item could not be loaded, or plugin-id names no item: the element renders nothing. `detail.pluginId`, `detail.status` (HTTP status, 0 without an answer), `detail.message`. Inside a frame also posted to the framing page.
 * @event embed:size - The button's size changed. `detail.width`, `detail.height` in CSS pixels.
 * @event install-button:install-success - The IDE accepted the install. `detail.ide`: name, buildNumber, port.
 * @event install-button:install-error - The IDE could not be reached or refused. `detail.ide`.
 * @csspart base - The box around the button.
 * @cssproperty --mp-accent - The button colour.
 */
export const MpInstallButton = createWidgetElement<InstallButtonAttributes>(InstallButtonView, {
  uiStyles: INSTALL_BUTTON_STYLES,
  attributes: { pluginId: 'string', apiBase: 'string' },
});
