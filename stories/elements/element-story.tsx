import { createElement } from 'react';
import { waitFor } from 'storybook/test';
import { defineMarketplaceElements } from '../../packages/elements/src/define-all';
import { setPageIdeBridge } from '../../packages/elements/src/shared/page-ide-bridge';
import type { MemoryIdeBridgeOptions } from '../../packages/ui/src/ide/memory-ide-bridge';
import { createMemoryIdeBridge } from '../../packages/ui/src/ide/memory-ide-bridge';

/** The items Storybook serves from stories/public, at the API's own paths. */
export const STORY_ITEMS = { plugin: '10080', course: '16630' } as const;

/**
 * The elements as a page gets them: the custom elements themselves (made with r2wc from the ui components),
 * registered once, with Storybook's own address as their marketplace.
 */
defineMarketplaceElements();

/** The args of an element story: its tag, its attributes, and the IDEs running on the visitor's machine. */
export interface ElementStoryArgs {
  tag: string;
  attributes: Record<string, string>;
  ides: MemoryIdeBridgeOptions;
}

/**
 * Renders the element by its tag. The IDEs are an in-memory bridge with the states the IDE simulator has (none,
 * one, several, an install that succeeds, fails or hangs): it becomes the page's bridge before the element
 * mounts. Each story renders alone in its canvas, so one bridge per page is what the elements expect.
 */
export function renderElement({ tag, attributes, ides }: ElementStoryArgs) {
  setPageIdeBridge(createMemoryIdeBridge(ides));
  return createElement(tag, { ...attributes, 'api-base': window.location.origin });
}

/** Waits for the element's shadow root to show a text, and gives the root to query in a play function. */
export function shadowOf(canvasElement: HTMLElement, tag: string, text: string): Promise<HTMLElement> {
  return waitFor(
    () => {
      const root = canvasElement.querySelector(tag)?.shadowRoot;
      if (!root?.textContent?.includes(text)) throw new Error(`<${tag}> did not show "${text}".`);
      return root as unknown as HTMLElement;
    },
    { timeout: 5_000 },
  );
}
