import { DROPDOWN_OFFSET_PX } from '@marketplace/core';

/** Length of the open and close transitions; the in-between states last this long. */
export const DROPDOWN_TRANSITION_MS = 120;

/**
 * DropdownMenu's CSS, in a module apart from its code: UI_STYLES gathers every component's CSS, and a
 * page that adopts it must not load the components with it.
 */
export const dropdownMenuStyles = `
.mp-dropdown { position: relative; display: inline-block; }
.mp-dropdown__caret { width: 10px; height: 10px; stroke-width: 1.5; transition: transform ${DROPDOWN_TRANSITION_MS}ms ease; }
.mp-dropdown[data-state='open'] .mp-dropdown__caret, .mp-dropdown[data-state='opening'] .mp-dropdown__caret { transform: rotate(180deg); }
.mp-dropdown__menu {
  position: absolute; top: calc(100% + ${DROPDOWN_OFFSET_PX}px); left: 0; z-index: 1000;
  box-sizing: border-box; min-width: max(100%, 200px); max-height: 320px; overflow-y: auto;
  margin: 0; padding: 4px 0; border: 1px solid var(--mp-border); border-radius: var(--mp-radius);
  background: var(--mp-surface); box-shadow: var(--mp-shadow);
  transition: opacity ${DROPDOWN_TRANSITION_MS}ms ease, transform ${DROPDOWN_TRANSITION_MS}ms ease;
}
.mp-dropdown__menu[data-state='opening'], .mp-dropdown__menu[data-state='closing'] { opacity: 0; transform: translateY(-4px); }
.mp-dropdown__menu[data-state='open'] { opacity: 1; transform: none; }
.mp-dropdown__group-label {
  padding: 6px 12px 2px; font: 600 11px/16px var(--mp-font); color: var(--mp-text-secondary);
  text-transform: uppercase; letter-spacing: 0.04em;
}
.mp-dropdown__item {
  display: block; width: 100%; box-sizing: border-box; padding: 6px 12px; border: 0; background: none;
  color: var(--mp-text); font: 14px/20px var(--mp-font); text-align: left; cursor: pointer; white-space: nowrap;
}
.mp-dropdown__item:hover, .mp-dropdown__item:focus { outline: none; background: var(--mp-accent-soft); }
.mp-dropdown__item[aria-disabled='true'] { color: var(--mp-text-secondary); cursor: not-allowed; }
.mp-dropdown__group + .mp-dropdown__group { border-top: 1px solid var(--mp-border); margin-top: 4px; padding-top: 4px; }
`;
