import type { RunningIde } from '@marketplace/core';
import { MESSAGE_NAMESPACE } from './namespace';
import { isEmbedItemData } from './item-data';
import type { WidgetMessage, WidgetMessageOf, WidgetMessageType } from './messages';
import { WIDGET_MESSAGE_TYPES } from './messages';
import { isNonNegativeFiniteNumber, isPort, isRecord } from './guard-helpers';

export function isRunningIde(value: unknown): value is RunningIde {
  return (
    isRecord(value) &&
    typeof value.name === 'string' &&
    value.name.length > 0 &&
    typeof value.buildNumber === 'string' &&
    isPort(value.port)
  );
}

function hasSize(message: Record<string, unknown>): boolean {
  return isNonNegativeFiniteNumber(message.width) && isNonNegativeFiniteNumber(message.height);
}

/** Checks the fields besides namespace and type, per message type. */
const payloadCheckers: { [Type in WidgetMessageType]: (message: Record<string, unknown>) => boolean } = {
  'ai-button:mounted': () => true,
  'ai-button:size': hasSize,
  'ai-button:running-ides': (message) => Array.isArray(message.ides) && message.ides.every(isRunningIde),
  'ai-button:install-success': (message) => isRunningIde(message.ide),
  'ai-button:install-error': (message) => isRunningIde(message.ide) && typeof message.message === 'string',
  'ai-button:plugins-site-link-click': (message) => typeof message.url === 'string' && isHttpUrl(message.url),
  'embed:item-data': (message) => isEmbedItemData(message.item),
  'embed:size': hasSize,
  'embed:error': (message) =>
    typeof message.pluginId === 'string' &&
    typeof message.message === 'string' &&
    isAnswerStatus(message.status),
};

/** An HTTP status code, or 0 for "no answer came". */
function isAnswerStatus(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 599;
}

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

export function isWidgetMessageType(value: unknown): value is WidgetMessageType {
  return typeof value === 'string' && (WIDGET_MESSAGE_TYPES as readonly string[]).includes(value);
}

/** True when `value` (for example `event.data`) is a well-formed message of this protocol. */
export function isWidgetMessage(value: unknown): value is WidgetMessage {
  return (
    isRecord(value) &&
    value.namespace === MESSAGE_NAMESPACE &&
    isWidgetMessageType(value.type) &&
    payloadCheckers[value.type](value)
  );
}

/** True when `value` is a well-formed message of the given type. */
export function isWidgetMessageOfType<Type extends WidgetMessageType>(
  value: unknown,
  type: Type,
): value is WidgetMessageOf<Type> {
  return isWidgetMessage(value) && value.type === type;
}
