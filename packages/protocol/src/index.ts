export { MESSAGE_NAMESPACE } from './namespace';
export type { MessageNamespace } from './namespace';
export { WIDGET_MESSAGE_TYPES } from './messages';
export type {
  AiButtonInstallErrorMessage,
  AiButtonInstallSuccessMessage,
  AiButtonMountedMessage,
  AiButtonPluginsSiteLinkClickMessage,
  AiButtonRunningIdesMessage,
  AiButtonSizeMessage,
  ContentSize,
  EmbedErrorMessage,
  EmbedItemDataMessage,
  EmbedSizeMessage,
  WidgetMessage,
  WidgetMessageOf,
  WidgetMessagePayload,
  WidgetMessageType,
} from './messages';
export { createMessage } from './create-message';
export { isRunningIde, isWidgetMessage, isWidgetMessageOfType, isWidgetMessageType } from './guards';
export {
  EMBED_OMITTED_FIELDS,
  EMBED_OMITTED_INFO_FIELDS,
  isEmbedItemData,
  toEmbedItemData,
} from './item-data';
export type { EmbedItemData, EmbedItemInfo } from './item-data';
export { createOriginAllowlist, InvalidOriginError, parseOrigin } from './origin';
export type { OriginAllowlist } from './origin';
export { parentOrigin, sendMessage } from './send';
export type { FramingInfo, MessageTarget } from './send';
export { listenForMessages } from './listen';
export type { ListenOptions, MessageEventSourceWindow } from './listen';
