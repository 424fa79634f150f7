import { MESSAGE_NAMESPACE } from './namespace';
import type { WidgetMessageOf, WidgetMessagePayload, WidgetMessageType } from './messages';

/** Builds a message of the given type; the payload's shape follows from the type. */
export function createMessage<Type extends WidgetMessageType>(
  type: Type,
  ...payload: keyof WidgetMessagePayload<Type> extends never ? [] : [WidgetMessagePayload<Type>]
): WidgetMessageOf<Type> {
  return { ...(payload[0] ?? {}), namespace: MESSAGE_NAMESPACE, type } as WidgetMessageOf<Type>;
}
