import { AI_BUTTON_SIZES, AI_BUTTON_STYLES, AiButton } from '@marketplace/ui';
import type { AiButtonSize } from '@marketplace/ui';
import { itemPageUrl, LoadedItem } from '../shared/loaded-item';
import { pageIdeBridge } from '../shared/page-ide-bridge';
import type { WidgetViewProps } from '../shared/widget-element';
import { createWidgetElement } from '../shared/widget-element';

export const AI_BUTTON_TAG = 'mp-ai-button';

export interface AiButtonAttributes {
  pluginId?: string;
  apiBase?: string;
  buttonSize?: string;
  buttonText?: string;
  allowMultiline?: boolean;
}

function toButtonSize(value: string | undefined): AiButtonSize | undefined {
  if (value === undefined) return undefined;
  if ((AI_BUTTON_SIZES as readonly string[]).includes(value)) return value as AiButtonSize;
  console.warn(
    `<${AI_BUTTON_TAG}>: button-size "${value}" is not one of ${AI_BUTTON_SIZES.join(', ')}; using m.`,
  );
  return undefined;
}

function AiButtonView({
  pluginId,
  apiBase,
  buttonSize,
  buttonText,
  allowMultiline,
  host,
  emit,
}: AiButtonAttributes & WidgetViewProps) {
  return (
    <LoadedItem
      elementName={AI_BUTTON_TAG}
      pluginId={pluginId}
      apiBase={apiBase}
      host={host}
      emit={emit}
      reportSize={false}
    >
      {(plugin, context) => (
        <AiButton
          pluginXmlId={plugin.info.xmlId}
          pluginUrl={itemPageUrl(plugin, context.apiBase)}
          buttonSize={toButtonSize(buttonSize)}
          buttonText={buttonText?.trim() || undefined}
          allowMultiline={allowMultiline}
          bridge={pageIdeBridge()}
          marketplaceUrl={context.apiBase}
          onMessage={emit}
        />
      )}
    </LoadedItem>
  );
}

/**
 * Gets an AI assistant plugin into the visitor's IDE: an install button for the first compatible running IDE,
 * or, while none runs, a link to the plugin's page (new tab, with tracking parameters). Looks for IDEs again
 * every 10 seconds. An IDE that does not know the plugin (it is only on this marketplace) gets it when one of
 * its versions fits the IDE's build, followed by how to add this marketplace to the IDE's repositories.
 *
 * @tag mp-ai-button
 * @attr {string} plugin-id - The AI assistant plugin's numeric id on the marketplace.
 * @attr {string} api-base - The marketplace's address. Default: the origin the SDK script was loaded from.
 * @attr {string} button-size - xs, s, m (default) or l.
 * @attr {string} button-text - The button's text. Default: 'Try for free'.
 * @attr {boolean} allow-multiline - Whether a long text may wrap ("true", the default, or "false").
 * @attr {boolean} post-to-parent - Inside a frame, also post every event to the framing page (as the embed page does).
 * @event ai-button:mounted - The button rendered.
 * @event ai-button:size - The button's size changed. `detail.width`, `detail.height` in CSS pixels.
 * @event ai-button:running-ides - The compatible IDEs found (after every poll). `detail.ides`.
 * @event ai-button:install-success - The IDE accepted the install. `detail.ide`.
 * @event ai-button:install-error - The install failed. `detail.ide`, `detail.message`.
 * @event ai-button:plugins-site-link-click - The visitor followed the link to the plugin's page. `detail.url`.
 * @event embed:item-data - The item loaded. `detail.item`.
 * @event embed:error - The item could not be loaded, or plugin-id names no item: the element renders nothing. `detail.pluginId`, `detail.status` (HTTP status, 0 without an answer), `detail.message`. Inside a frame also posted to the framing page.
 * @csspart base - The box around the button.
 * @cssproperty --mp-accent - The button colour.
 */
export const MpAiButton = createWidgetElement<AiButtonAttributes>(AiButtonView, {
  uiStyles: AI_BUTTON_STYLES,
  attributes: {
    pluginId: 'string',
    apiBase: 'string',
    buttonSize: 'string',
    buttonText: 'string',
    allowMultiline: 'boolean',
  },
});
