import { AI_BUTTON_DEFAULT_TEXT } from '@marketplace/core';
import { AI_BUTTON_SIZES, type AiButtonSize } from '@marketplace/ui';

export const EMBED_TYPES = ['ai', 'install', 'card', 'open-course', 'course-lti'] as const;
export type EmbedType = (typeof EMBED_TYPES)[number];

export function isEmbedType(value: unknown): value is EmbedType {
  return typeof value === 'string' && (EMBED_TYPES as readonly string[]).includes(value);
}

export interface AiEmbedOptions {
  buttonSize: AiButtonSize;
  buttonText: string;
  allowMultiline: boolean;
}

/** Spec §2: buttonSize (default m), buttonText (default 'Try for free'), allowMultiline (default true). */
export function aiEmbedOptions(query: URLSearchParams): AiEmbedOptions {
  const size = query.get('buttonSize') ?? '';
  const text = query.get('buttonText')?.trim().slice(0, 100);
  return {
    buttonSize: (AI_BUTTON_SIZES as readonly string[]).includes(size) ? (size as AiButtonSize) : 'm',
    buttonText: text || AI_BUTTON_DEFAULT_TEXT,
    allowMultiline: query.get('allowMultiline') !== 'false',
  };
}

/** The plugin id of the path: digits only (the item page's suffix form is accepted too). */
export function embedPluginId(segment: string | undefined): number | undefined {
  const match = /^(\d{1,10})(?:-.*)?$/.exec(segment ?? '');
  const id = match ? Number(match[1]) : NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}
