/**
 * `react-dom/client` in the script-tag builds (rollup.config.mjs aliases it here): the `createRoot` the
 * widget elements render with (shared/widget-element.tsx), over Preact's `render`.
 */
import type { ComponentChild } from 'preact';
import { render } from 'preact';

export interface Root {
  render(children: ComponentChild): void;
  unmount(): void;
}

export function createRoot(container: Element | DocumentFragment): Root {
  return {
    render: (children) => render(children, container),
    unmount: () => render(null, container),
  };
}
