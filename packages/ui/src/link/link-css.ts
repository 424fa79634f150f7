/**
 * Link's CSS, in a module apart from its code: UI_STYLES gathers every component's CSS, and a
 * page that adopts it must not load the components with it.
 */
export const linkStyles = `
.mp-link { color: var(--mp-accent-strong); text-decoration: none; }
.mp-link:hover { text-decoration: underline; }
.mp-link:focus-visible { outline: 2px solid var(--mp-accent); outline-offset: 2px; border-radius: 2px; }
`;
