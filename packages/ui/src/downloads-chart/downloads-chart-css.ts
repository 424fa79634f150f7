/**
 * DownloadsChart's CSS, in a module apart from its code: UI_STYLES gathers every component's CSS, and a
 * page that adopts it must not load the components with it.
 */
export const downloadsChartStyles = `
.mp-chart { display: flex; flex-direction: column; gap: 4px; min-height: 48px; font: 12px/16px var(--mp-font); color: var(--mp-text-secondary); }
.mp-chart__message { display: flex; align-items: center; min-height: 48px; margin: 0; }
.mp-chart__bars { display: flex; align-items: flex-end; gap: 2px; height: 40px; margin: 0; padding: 0; list-style: none; }
.mp-chart__bar { flex: 1 1 0; min-width: 2px; border-radius: 1px 1px 0 0; background: var(--mp-accent); opacity: 0.85; }
.mp-chart__bar:hover { opacity: 1; }
.mp-chart__bar--empty { background: var(--mp-skeleton); }
.mp-chart__caption { margin: 0; }
`;
