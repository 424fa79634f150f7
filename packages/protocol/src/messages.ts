import type { RunningIde } from '@marketplace/core';
import type { MessageNamespace } from './namespace';
import type { EmbedItemData } from './item-data';

/** What every message has: our namespace and a literal type that selects the rest of the shape. */
interface MessageBase<Type extends string> {
  namespace: MessageNamespace;
  type: Type;
}

/** Width and height of the rendered content in CSS pixels, so the host can fit its iframe to it. */
export interface ContentSize {
  width: number;
  height: number;
}

/** The AI button has rendered and is ready; sent once. */
export type AiButtonMountedMessage = MessageBase<'ai-button:mounted'>;

/** The AI button's content size changed (first render, text wrap, font load). */
export interface AiButtonSizeMessage extends MessageBase<'ai-button:size'>, ContentSize {}

/** The IDEs found running on the visitor's machine (sent after every poll, also when the list is empty). */
export interface AiButtonRunningIdesMessage extends MessageBase<'ai-button:running-ides'> {
  ides: RunningIde[];
}

/** The IDE accepted the install request. */
export interface AiButtonInstallSuccessMessage extends MessageBase<'ai-button:install-success'> {
  ide: RunningIde;
}

/** The install request failed; `message` is the text the visitor saw. */
export interface AiButtonInstallErrorMessage extends MessageBase<'ai-button:install-error'> {
  ide: RunningIde;
  message: string;
}

/** The visitor followed the link to the item page on the plugins site (no compatible IDE was running). */
export interface AiButtonPluginsSiteLinkClickMessage extends MessageBase<'ai-button:plugins-site-link-click'> {
  url: string;
}

/** An embed page (/embeddable/{type}/{pluginId}) loaded its item; sent once per load. */
export interface EmbedItemDataMessage extends MessageBase<'embed:item-data'> {
  item: EmbedItemData;
}

/** An embed page's content size changed. */
export interface EmbedSizeMessage extends MessageBase<'embed:size'>, ContentSize {}

/**
 * An embed page could not load its item (an unknown or hidden id, a server or network failure) or its address
 * names no item or embed type, so it renders nothing (spec §2); sent once per load, instead of item data.
 */
export interface EmbedErrorMessage extends MessageBase<'embed:error'> {
  /** The item id segment of the embed page's address, as given. */
  pluginId: string;
  /**
   * The HTTP status of the failed answer (404 for an unknown or hidden item; also 404 when the address names
   * no item or embed type and nothing was asked), 0 when no answer came.
   */
  status: number;
  /** What went wrong, by spec §8's rule: for a status from 500 up only 'Internal Error', never the body. */
  message: string;
}

/** Every message an embed page or element sends to its host page. */
export type WidgetMessage =
  | AiButtonMountedMessage
  | AiButtonSizeMessage
  | AiButtonRunningIdesMessage
  | AiButtonInstallSuccessMessage
  | AiButtonInstallErrorMessage
  | AiButtonPluginsSiteLinkClickMessage
  | EmbedItemDataMessage
  | EmbedSizeMessage
  | EmbedErrorMessage;

export type WidgetMessageType = WidgetMessage['type'];

/** The message of a given type. */
export type WidgetMessageOf<Type extends WidgetMessageType> = Extract<WidgetMessage, { type: Type }>;

/** The fields of a message besides its namespace and type. */
export type WidgetMessagePayload<Type extends WidgetMessageType> = Omit<
  WidgetMessageOf<Type>,
  'namespace' | 'type'
>;

export const WIDGET_MESSAGE_TYPES = [
  'ai-button:mounted',
  'ai-button:size',
  'ai-button:running-ides',
  'ai-button:install-success',
  'ai-button:install-error',
  'ai-button:plugins-site-link-click',
  'embed:item-data',
  'embed:size',
  'embed:error',
] as const satisfies readonly WidgetMessageType[];

// Fails to compile when a message is added to the union but not to the list above.
type MissingFromList = Exclude<WidgetMessageType, (typeof WIDGET_MESSAGE_TYPES)[number]>;
const _everyTypeListed: [MissingFromList] extends [never] ? true : never = true;
