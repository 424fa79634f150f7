import { defineElement } from '../shared/define-element';
import { MpAiButton, AI_BUTTON_TAG } from './mp-ai-button';

/** Registers <mp-ai-button>; harmless when it is already registered. */
export function defineAiButton(): void {
  defineElement(AI_BUTTON_TAG, MpAiButton);
}
