import { defineElement } from '../shared/define-element';
import { MpPluginCard, PLUGIN_CARD_TAG } from './mp-plugin-card';

/** Registers <mp-plugin-card>; harmless when it is already registered. */
export function definePluginCard(): void {
  defineElement(PLUGIN_CARD_TAG, MpPluginCard);
}
