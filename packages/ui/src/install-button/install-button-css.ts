/**
 * InstallButton's CSS, in a module apart from its code: UI_STYLES gathers every component's CSS, and a
 * page that adopts it must not load the components with it.
 */
export const installButtonStyles = `
.mp-install { display: inline-flex; flex-wrap: wrap; }
.mp-install__ide-build { color: var(--mp-text-secondary); }
`;
